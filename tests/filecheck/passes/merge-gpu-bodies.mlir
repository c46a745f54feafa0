// merge-gpu-bodies: Algorithm 4 of the device-sync study (digest §6.4, T33) reorders a
// block into alternating host and gpu groups and merges each gpu group; the merged
// kernel uses its own values instead of reading them back (§6.3), drops results nobody
// uses, and the copies §6.5 calls wasteful are removed.
// RUN: soacc-opt %s -p merge-gpu-bodies | filecheck %s

// The worked example of §6.4: x' = gpu(..); x = x'[0]; n = k + 1; y' = gpu(x + 1);
// m = n + 2. The host ops go first, y' joins x' (it only needs the read of x', which it
// replaces by the value), and the read of x' comes last.
// CHECK-LABEL: func.func @worked_example
// CHECK:         %n = arith.addi %k, %one : i64
// CHECK-NEXT:    %m = arith.addi %n, %two : i64
// CHECK-NEXT:    %x_dev, %y_dev = soac.gpu_body -> tensor<1xi64>, tensor<1xi64> {
// CHECK-NEXT:      %c0 = arith.constant 0 : index
// CHECK-NEXT:      %a = soac.index %A[%c0] : tensor<?xi64>
// CHECK-NEXT:      %a2 = arith.addi %a, %a : i64
// CHECK-NEXT:      %y = arith.addi %a2, %k : i64
// CHECK-NEXT:      soac.yield %a2, %y : i64, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    %x = soac.index %x_dev[%zero] : tensor<1xi64>
// CHECK-NEXT:    func.return %x, %y_dev, %m
func.func @worked_example(%A: tensor<?xi64>, %k: i64) -> (i64, tensor<1xi64>, i64) {
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %x_dev = soac.gpu_body -> tensor<1xi64> {
    %c0 = arith.constant 0 : index
    %a = soac.index %A[%c0] : tensor<?xi64>
    %a2 = arith.addi %a, %a : i64
    soac.yield %a2 : i64
  }
  %zero = arith.constant 0 : index
  %x = soac.index %x_dev[%zero] : tensor<1xi64>
  %n = arith.addi %k, %one : i64
  %y_dev = soac.gpu_body -> tensor<1xi64> {
    %y = arith.addi %x, %k : i64
    soac.yield %y : i64
  }
  %m = arith.addi %n, %two : i64
  func.return %x, %y_dev, %m : i64, tensor<1xi64>, i64
}

// A gpu_body that needs a host op's result (not a read of the gpu group before) comes
// after it, in a new group: two kernels.
// CHECK-LABEL: func.func @needs_a_host_result
// CHECK:         soac.gpu_body
// CHECK:         %h = arith.muli %x, %x : i64
// CHECK-NEXT:    %z_dev = soac.gpu_body
// CHECK:         func.return
func.func @needs_a_host_result(%A: tensor<?xi64>) -> (i64, tensor<1xi64>) {
  %x_dev = soac.gpu_body -> tensor<1xi64> {
    %c0 = arith.constant 0 : index
    %a = soac.index %A[%c0] : tensor<?xi64>
    %b = arith.addi %a, %a : i64
    soac.yield %b : i64
  }
  %zero = arith.constant 0 : index
  %x = soac.index %x_dev[%zero] : tensor<1xi64>
  %h = arith.muli %x, %x : i64
  %z_dev = soac.gpu_body -> tensor<1xi64> {
    %z = arith.addi %h, %h : i64
    soac.yield %z : i64
  }
  func.return %x, %z_dev : i64, tensor<1xi64>
}

// A gpu_body that updates (consumes) an array a kernel of the group only reads joins
// that group: the merged body reads, then updates (Assumption 2 forbids only updating
// what the group binds; Futhark's tests/migration/reuse1_update).
// CHECK-LABEL: func.func @consumes_what_the_group_reads
// CHECK:         %r_dev, %B_dev = soac.gpu_body
// CHECK-NEXT:      %c0 = arith.constant 0 : index
// CHECK-NEXT:      %a = soac.index %A[%c0]
// CHECK-NEXT:      %b = arith.addi %a, %v
// CHECK-NEXT:      %B = soac.update %A[%c0] = %v
// CHECK-NOT:     soac.gpu_body
func.func @consumes_what_the_group_reads(%A: tensor<1xi64>, %v: i64) -> (tensor<1xi64>, tensor<1x1xi64>) {
  %r_dev = soac.gpu_body -> tensor<1xi64> {
    %c0 = arith.constant 0 : index
    %a = soac.index %A[%c0] : tensor<1xi64>
    %b = arith.addi %a, %v : i64
    soac.yield %b : i64
  }
  %B_dev = soac.gpu_body -> tensor<1x1xi64> {
    %c0 = arith.constant 0 : index
    %B = soac.update %A[%c0] = %v : tensor<1xi64>, i64
    soac.yield %B : tensor<1xi64>
  }
  func.return %r_dev, %B_dev : tensor<1xi64>, tensor<1x1xi64>
}

// A gpu_body that updates (consumes) a result the group binds may not join it
// (Assumption 2): it starts the next gpu group, after a host group.
// CHECK-LABEL: func.func @consumes_what_the_group_binds
// CHECK:         %r_dev = soac.gpu_body
// CHECK:         %B_dev = soac.gpu_body
func.func @consumes_what_the_group_binds(%v: i64) -> tensor<1x1xi64> {
  %r_dev = soac.gpu_body -> tensor<1xi64> {
    %b = arith.addi %v, %v : i64
    soac.yield %b : i64
  }
  %B_dev = soac.gpu_body -> tensor<1x1xi64> {
    %c0 = arith.constant 0 : index
    %B = soac.update %r_dev[%c0] = %v : tensor<1xi64>, i64
    soac.yield %B : tensor<1xi64>
  }
  func.return %B_dev : tensor<1x1xi64>
}

// A fused scatter (soac.scatteromap, made by soac-fusion) consumes its destination as a
// scatter does: it may not move above a gpu_body that reads the destination. Before the
// consumption rule was a trait of the ops, merge-gpu-bodies knew only update, scatter
// and hist, and moved it up here; the program then needed a whole copy of %a.
// CHECK-LABEL: func.func @fused_scatter_consumes_what_a_gpu_body_reads
// CHECK:         %y_dev = soac.gpu_body
// CHECK:         %b = soac.scatteromap %a
func.func @fused_scatter_consumes_what_a_gpu_body_reads(%a: tensor<?xf32>, %is: tensor<?xindex>, %vs: tensor<?xf32>) -> (tensor<?xf32>, tensor<1xf32>) {
  %y_dev = soac.gpu_body -> tensor<1xf32> {
    %c0 = arith.constant 0 : index
    %x = soac.index %a[%c0] : tensor<?xf32>
    %y = arith.addf %x, %x : f32
    soac.yield %y : f32
  }
  %b = soac.scatteromap %a(%is, %vs) : tensor<?xf32>, (tensor<?xindex>, tensor<?xf32>) -> tensor<?xf32> map {
  ^bb0(%i: index, %v: f32):
    soac.yield %i, %v : index, f32
  }
  func.return %b, %y_dev : tensor<?xf32>, tensor<1xf32>
}

// Results only the merged kernel itself uses are dropped, reads of them inside become
// the values, and duplicate reads merge (CSE): one kernel, one result, one read.
// CHECK-LABEL: func.func @drops_results_and_duplicates
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %s_dev = soac.gpu_body -> tensor<1xi64> {
// CHECK-NEXT:      %c0 = arith.constant 0 : index
// CHECK-NEXT:      %a = soac.index %A[%c0] : tensor<?xi64>
// CHECK-NEXT:      %s = arith.muli %a, %a : i64
// CHECK-NEXT:      soac.yield %s : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    %s_1 = soac.index %s_dev
// CHECK-NEXT:    func.return %s_1 : i64
func.func @drops_results_and_duplicates(%A: tensor<?xi64>) -> i64 {
  %a_dev = soac.gpu_body -> tensor<1xi64> {
    %c0 = arith.constant 0 : index
    %a = soac.index %A[%c0] : tensor<?xi64>
    soac.yield %a : i64
  }
  %s_dev = soac.gpu_body -> tensor<1xi64> {
    %c0 = arith.constant 0 : index
    %p = soac.index %a_dev[%c0] : tensor<1xi64>
    %q = soac.index %a_dev[%c0] : tensor<1xi64>
    %s = arith.muli %p, %q : i64
    soac.yield %s : i64
  }
  %zero = arith.constant 0 : index
  %s = soac.index %s_dev[%zero] : tensor<1xi64>
  func.return %s : i64
}

// §6.5: a gpu_body that only copies an element of an array nobody updates, read only by
// a kernel, is removed: the kernel reads the element itself (Listing 5).
// CHECK-LABEL: func.func @wasteful_copy_read_by_a_kernel
// CHECK-NOT:     soac.gpu_body
// CHECK:         soac.map(%A)
// CHECK:           %s = soac.index %A[%{{.*}}] : tensor<?xi64>
// CHECK-NEXT:      %le = arith.cmpi sle, %x, %s : i64
func.func @wasteful_copy_read_by_a_kernel(%A: tensor<?xi64>, %i: index) -> tensor<?xi1> {
  %s_dev = soac.gpu_body -> tensor<1xi64> {
    %s = soac.index %A[%i] : tensor<?xi64>
    soac.yield %s : i64
  }
  %r = soac.map(%A) : (tensor<?xi64>) -> tensor<?xi1> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : index
    %s = soac.index %s_dev[%c0] : tensor<1xi64>
    %le = arith.cmpi sle, %x, %s : i64
    soac.yield %le : i1
  }
  func.return %r : tensor<?xi1>
}

// The same copy is kept when the array is updated in place afterwards (the kernel would
// read the updated array: §5.5's first reason for the copy).
// CHECK-LABEL: func.func @copy_kept_when_the_array_is_updated
// CHECK:         %s_dev = soac.gpu_body
// CHECK:         soac.map(%A)
// CHECK:           soac.index %s_dev
func.func @copy_kept_when_the_array_is_updated(%A: tensor<?xi64>, %i: index, %v: i64) -> (tensor<?xi1>, tensor<?xi64>) {
  %s_dev = soac.gpu_body -> tensor<1xi64> {
    %s = soac.index %A[%i] : tensor<?xi64>
    soac.yield %s : i64
  }
  %r = soac.map(%A) : (tensor<?xi64>) -> tensor<?xi1> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : index
    %s = soac.index %s_dev[%c0] : tensor<1xi64>
    %le = arith.cmpi sle, %x, %s : i64
    soac.yield %le : i1
  }
  %B = soac.update %A[%i] = %v : tensor<?xi64>, i64
  func.return %r, %B : tensor<?xi1>, tensor<?xi64>
}

// A copy the host reads back is a host read of the element (the same read, no kernel).
// CHECK-LABEL: func.func @copy_read_by_the_host
// CHECK-NOT:     soac.gpu_body
// CHECK:         %s = soac.index %A[%i] : tensor<?xi64>
// CHECK-NEXT:    func.return %s : i64
func.func @copy_read_by_the_host(%A: tensor<?xi64>, %i: index) -> i64 {
  %s_dev = soac.gpu_body -> tensor<1xi64> {
    %e = soac.index %A[%i] : tensor<?xi64>
    soac.yield %e : i64
  }
  %zero = arith.constant 0 : index
  %s = soac.index %s_dev[%zero] : tensor<1xi64>
  func.return %s : i64
}

// A stored host value only kernels read is used by them directly.
// CHECK-LABEL: func.func @stored_host_value
// CHECK-NOT:     soac.gpu_body
// CHECK:         arith.addi %x, %v : i64
func.func @stored_host_value(%A: tensor<?xi64>, %v: i64) -> tensor<?xi64> {
  %v_dev = soac.gpu_body -> tensor<1xi64> {
    soac.yield %v : i64
  }
  %r = soac.map(%A) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : index
    %w = soac.index %v_dev[%c0] : tensor<1xi64>
    %y = arith.addi %x, %w : i64
    soac.yield %y : i64
  }
  func.return %r : tensor<?xi64>
}

// Blocks of host-level loops and branches are merged too.
// CHECK-LABEL: func.func @in_a_loop
// CHECK:         scf.for
// CHECK-NEXT:      %t_dev = soac.gpu_body -> tensor<1xi64> {
// CHECK-NOT:       soac.gpu_body
// CHECK:           scf.yield
func.func @in_a_loop(%A: tensor<?xi64>, %n: index) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = soac.gpu_body -> tensor<1xi64> {
    %z = arith.constant 0 : i64
    soac.yield %z : i64
  }
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<1xi64>) {
    %e_dev = soac.gpu_body -> tensor<1xi64> {
      %e = soac.index %A[%i] : tensor<?xi64>
      soac.yield %e : i64
    }
    %s_dev = soac.gpu_body -> tensor<1xi64> {
      %zero = arith.constant 0 : index
      %a = soac.index %acc[%zero] : tensor<1xi64>
      %e = soac.index %e_dev[%zero] : tensor<1xi64>
      %s = arith.addi %a, %e : i64
      soac.yield %s : i64
    }
    %t_dev = soac.gpu_body -> tensor<1xi64> {
      %zero = arith.constant 0 : index
      %s = soac.index %s_dev[%zero] : tensor<1xi64>
      %t = arith.muli %s, %s : i64
      soac.yield %t : i64
    }
    scf.yield %t_dev : tensor<1xi64>
  }
  func.return %r : tensor<1xi64>
}

// A result whose one use is a host-level replicate of one row is replicated in the
// gpu_body (Futhark's tests/migration/replicate1; issue 22, class 4): no kernel copies
// the row afterwards. A replicate of n rows stays outside (a parallel kernel), and so
// does one of a result with other uses.
// CHECK-LABEL: func.func @one_row_replicate
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %rows = soac.gpu_body -> tensor<1x1xi32> {
// CHECK:           %[[X:.*]] = soac.index %A[%{{.*}}] : tensor<1xi32>
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[R:.*]] = soac.replicate %[[ONE]], %[[X]] : i32 -> tensor<1xi32>
// CHECK-NEXT:      soac.yield %[[R]] : tensor<1xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %rows : tensor<1x1xi32>
func.func @one_row_replicate(%A: tensor<1xi32>) -> tensor<1x1xi32> {
  %c1 = arith.constant 1 : index
  %row = soac.gpu_body -> tensor<1xi32> {
    %c0 = arith.constant 0 : index
    %x = soac.index %A[%c0] : tensor<1xi32>
    soac.yield %x : i32
  }
  %rows = soac.replicate %c1, %row : tensor<1xi32> -> tensor<1x1xi32>
  func.return %rows : tensor<1x1xi32>
}

// CHECK-LABEL: func.func @many_rows_or_other_uses
// CHECK:         %row, %again = soac.gpu_body -> tensor<1xi32>, tensor<1xi32>
// CHECK:         %many = soac.replicate %n, %row
// CHECK-NEXT:    %once = soac.replicate %c1, %again
func.func @many_rows_or_other_uses(%A: tensor<1xi32>, %n: index) -> (tensor<?x1xi32>, tensor<1x1xi32>, tensor<1xi32>) {
  %c1 = arith.constant 1 : index
  %row = soac.gpu_body -> tensor<1xi32> {
    %c0 = arith.constant 0 : index
    %x = soac.index %A[%c0] : tensor<1xi32>
    soac.yield %x : i32
  }
  %many = soac.replicate %n, %row : tensor<1xi32> -> tensor<?x1xi32>
  %again = soac.gpu_body -> tensor<1xi32> {
    %c0 = arith.constant 0 : index
    %x = soac.index %A[%c0] : tensor<1xi32>
    %y = arith.addi %x, %x : i32
    soac.yield %y : i32
  }
  %once = soac.replicate %c1, %again : tensor<1xi32> -> tensor<1x1xi32>
  func.return %many, %once, %again : tensor<?x1xi32>, tensor<1x1xi32>, tensor<1xi32>
}
