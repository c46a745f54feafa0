// The test cases of the device-sync study (digest §9, T1–T35; the graph-level ones,
// T28–T32, are pytest tests of the solver): per function, the device set D (values
// computed on the device), the cut C (values read back; read(x) is a read of x that
// stays) and the number of reads left per execution |C|, as the pass's DOT output
// summarises them; and the program the pass makes. Loop reads count per iteration.
//
// RUN: soacc-opt %s -p 'cse,reduce-device-syncs{dot=-}' 2>&1 >/dev/null | filecheck %s --check-prefix=CUT
// RUN: soacc-opt %s -p 'cse,reduce-device-syncs' | filecheck %s

// T1, Listings 1-2 (vector norm): the reduction's result and the square root move; the
// map reads the root from its storage. Reads 1 -> 0.
// CUT: @t1_vector_norm: device {sum, len} cut {} reads 0
// CHECK-LABEL: func.func @t1_vector_norm
// CHECK:         %sum = soac.reduce
// CHECK-NEXT:    ^bb0
// CHECK:         %len_dev = soac.gpu_body -> tensor<1xf32> {
// CHECK-NEXT:      %len = math.sqrt %sum : f32
// CHECK-NEXT:      soac.yield %len : f32
// CHECK:         soac.map(%a)
// CHECK:           %len_1 = soac.index %len_dev[%{{.*}}] : tensor<1xf32>
// CHECK-NEXT:      %q = arith.divf %x_1, %len_1 : f32
func.func @t1_vector_norm(%a: tensor<?xf32>) -> tensor<?xf32> {
  %pow2 = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %sq = arith.mulf %x, %x : f32
    soac.yield %sq : f32
  }
  %zero = arith.constant 0.0 : f32
  %sum = soac.reduce(%pow2) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  %len = math.sqrt %sum : f32
  %res = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %q = arith.divf %x, %len : f32
    soac.yield %q : f32
  }
  func.return %res : tensor<?xf32>
}

// T2, Figure 10: two reads, their sum and a literal of them all move; the literal comes
// back to the host as a view (no transfer). Reads 2 -> 0, the literal's writes go too.
// CUT: @t2_figure10: device {a, b, c, B} cut {} reads 0
// CHECK-LABEL: func.func @t2_figure10
// CHECK:         %a_dev = soac.gpu_body
// CHECK:         %b_dev = soac.gpu_body
// CHECK:         %c_dev = soac.gpu_body
// CHECK:         %B_dev = soac.gpu_body -> tensor<1x2xi64>
// CHECK:           %B = soac.array [%a_2, %c_1] : tensor<2xi64>
// CHECK:         %B_1 = soac.index %B_dev[%{{.*}}] : tensor<1x2xi64>
// CHECK-NEXT:    func.return %B_1 : tensor<2xi64>
func.func @t2_figure10(%A: tensor<?xi64>) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = soac.index %A[%c0] : tensor<?xi64>
  %b = soac.index %A[%c1] : tensor<?xi64>
  %c = arith.addi %a, %b : i64
  %B = soac.array [%a, %c] : tensor<2xi64>
  func.return %B : tensor<2xi64>
}

// T3, Figure 11 (sum_cmp): a reduction's result used only by a kernel is never read.
// CUT: @t3_sum_cmp: device {s} cut {} reads 0
// CHECK-LABEL: func.func @t3_sum_cmp
// CHECK-NOT:     soac.gpu_body
// CHECK:         arith.cmpi sle, %x, %s : i64
func.func @t3_sum_cmp(%A: tensor<?xi64>) -> tensor<?xi1> {
  %zero = arith.constant 0 : i64
  %s = soac.reduce(%A) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%p: i64, %q: i64):
    %t = arith.addi %p, %q : i64
    soac.yield %t : i64
  }
  %r = soac.map(%A) : (tensor<?xi64>) -> tensor<?xi1> {
  ^bb0(%x: i64):
    %le = arith.cmpi sle, %x, %s : i64
    soac.yield %le : i1
  }
  func.return %r : tensor<?xi1>
}

// T4, Figure 5 (add): the cut is c, not d: the smallest device set. Reads 2 -> 1.
// CUT: @t4_add: device {a, b, c} cut {c} reads 1
// CHECK-LABEL: func.func @t4_add
// CHECK:         %c_dev = soac.gpu_body
// CHECK:         %c_1 = soac.index %c_dev[%{{.*}}] : tensor<1xi64>
// CHECK-NEXT:    %d = arith.addi %c_1, %x : i64
func.func @t4_add(%A: tensor<2xi64>, %x: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = soac.index %A[%c0] : tensor<2xi64>
  %b = soac.index %A[%c1] : tensor<2xi64>
  %c = arith.addi %a, %b : i64
  %d = arith.addi %c, %x : i64
  func.return %d : i64
}

// T5, Figure 3: a literal with a read value moves with the read. Reads 1 -> 0, writes
// 1 -> 0 (an array never gets an out-edge: B's own source routes nowhere).
// CUT: @t5_figure3: device {x, B} cut {} reads 0
// CHECK-LABEL: func.func @t5_figure3
// CHECK:         %B_dev = soac.gpu_body -> tensor<1x2xi64>
func.func @t5_figure3(%A: tensor<?xi64>) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %x = soac.index %A[%c0] : tensor<?xi64>
  %B = soac.array [%one, %x] : tensor<2xi64>
  func.return %B : tensor<2xi64>
}

// T6 (reduction0_dup): after CSE one read is left; the sum is returned, so it stays.
// CUT: @t6_cse_first: device {} cut {read(a)} reads 1
// CHECK-LABEL: func.func @t6_cse_first
// CHECK-NOT:     soac.gpu_body
// CHECK:         func.return
func.func @t6_cse_first(%arr: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = soac.index %arr[%c0] : tensor<3xf32>
  %b = soac.index %arr[%c0] : tensor<3xf32>
  %s = arith.addf %a, %b : f32
  func.return %s : f32
}

// T7 (reduction1_2-1): a returned sum of two reads: one gpu_body, one read.
// CUT: @t7_sum_of_two_reads: device {a, b, s} cut {s} reads 1
func.func @t7_sum_of_two_reads(%arr: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = soac.index %arr[%c0] : tensor<3xf32>
  %b = soac.index %arr[%c1] : tensor<3xf32>
  %s = arith.addf %a, %b : f32
  func.return %s : f32
}

// T8: a host-only function needs its argument on the host; a builtin (math.sqrt) does
// not, and moves like T1.
// CUT: @t8_host_only_call: device {} cut {read(a)} reads 1
// CUT: @t8_builtin: device {a, b} cut {} reads 0
func.func private @f_host(%x: i64) -> i64 {
  %arr = soac.array [%x] : tensor<1xi64>
  %c0 = arith.constant 0 : index
  %r = soac.index %arr[%c0] : tensor<1xi64>
  func.return %r : i64
}
func.func @t8_host_only_call(%A: tensor<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %a = soac.index %A[%c0] : tensor<?xi64>
  %b = func.call @f_host(%a) : (i64) -> i64
  func.return %b : i64
}
func.func @t8_builtin(%A: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %a = soac.index %A[%c0] : tensor<?xf32>
  %b = math.sqrt %a : f32
  %r = soac.map(%A) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %q = arith.divf %x, %b : f32
    soac.yield %q : f32
  }
  func.return %r : tensor<?xf32>
}

// T9: a slice's size must be on the host; a one-element slice moves like a scalar op.
// CUT: @t9_slice_size: device {} cut {read(n64)} reads 1
// CUT: @t9_one_element_slice: device {i, B} cut {} reads 0
// CHECK-LABEL: func.func @t9_one_element_slice
// CHECK:         soac.gpu_body -> tensor<1x1xi64>
// CHECK:           soac.slice %C[%i_1:%{{.*}}] : tensor<?xi64> -> tensor<1xi64>
func.func @t9_slice_size(%A: tensor<?xi64>, %C: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %n64 = soac.index %A[%c0] : tensor<?xi64>
  %n = arith.index_cast %n64 : i64 to index
  %B = soac.slice %C[%c0:%n] : tensor<?xi64> -> tensor<?xi64>
  func.return %B : tensor<?xi64>
}
func.func @t9_one_element_slice(%A: tensor<?xindex>, %C: tensor<?xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i = soac.index %A[%c0] : tensor<?xindex>
  %B = soac.slice %C[%i:%c1] : tensor<?xi64> -> tensor<1xi64>
  func.return %B : tensor<1xi64>
}

// T10: the written value moves, and the write becomes an asynchronous copy of a
// one-element slice. Reads 0, synchronous writes 0. With an index that is read, the
// study keeps the index's read (reads 1); past it (issue 18, item 6) the index moves too
// and the copy is a soac.device_update that loads it on the device: reads 0.
// CUT: @t10_scalar_write: device {v, w} cut {} reads 0
// CUT: @t10_read_index: device {v, w, j} cut {} reads 0
// CHECK-LABEL: func.func @t10_scalar_write
// CHECK:         %w_dev = soac.gpu_body
// CHECK:         %r = soac.update %B[%j:%{{.*}}] = %w_dev : tensor<?xi64>, tensor<1xi64>
func.func @t10_scalar_write(%A: tensor<?xi64>, %B: tensor<?xi64>, %j: index) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %v = soac.index %A[%c0] : tensor<?xi64>
  %w = arith.addi %v, %one : i64
  %r = soac.update %B[%j] = %w : tensor<?xi64>, i64
  func.return %r : tensor<?xi64>
}
// CHECK-LABEL: func.func @t10_read_index
// CHECK:         %j_dev = soac.gpu_body -> tensor<1xindex>
// CHECK:         %r = soac.device_update %B[%j_dev:%{{.*}}] = %w_dev : tensor<?xi64>, tensor<1xindex>, index, tensor<1xi64>
func.func @t10_read_index(%A: tensor<?xi64>, %B: tensor<?xi64>, %J: tensor<?xindex>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %v = soac.index %A[%c0] : tensor<?xi64>
  %w = arith.addi %v, %one : i64
  %j = soac.index %J[%c1] : tensor<?xindex>
  %r = soac.update %B[%j] = %w : tensor<?xi64>, i64
  func.return %r : tensor<?xi64>
}

// T11 (Listing 12): the literal with a loop-variant scalar is made on the device every
// iteration; a literal of constants only stays (and is host-only); a one-element
// literal is an ordinary op.
// CUT: @t11_literal_loop: device {lit} cut {} reads 0
// CHECK-LABEL: func.func @t11_literal_loop
// CHECK:         scf.for
// CHECK:           %lit_dev = soac.gpu_body -> tensor<1x2xi64>
// CHECK-NEXT:        %lit = soac.array [%one, %v] : tensor<2xi64>
func.func @t11_literal_loop(%A0: tensor<2xi64>, %v0: i64) -> (tensor<2xi64>, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %one = arith.constant 1 : i64
  %r:2 = scf.for %i = %c0 to %c1000 step %c1 iter_args(%A = %A0, %v = %v0) -> (tensor<2xi64>, i64) {
    %lit = soac.array [%one, %v] : tensor<2xi64>
    %v1 = arith.addi %v, %one : i64
    scf.yield %lit, %v1 : tensor<2xi64>, i64
  }
  func.return %r#0, %r#1 : tensor<2xi64>, i64
}
// CUT: @t11_constant_literal_blocks_if: device {r, e} cut {read(c)} reads 1
// CHECK-LABEL: func.func @t11_constant_literal_blocks_if
// CHECK:         %c = soac.index %A
// CHECK:         scf.if %c -> (tensor<1xi64>) {
// CHECK:           %lit = soac.array [%one, %two] : tensor<2xi64>
func.func @t11_constant_literal_blocks_if(%A: tensor<?xi1>, %k: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %c = soac.index %A[%c0] : tensor<?xi1>
  %r = scf.if %c -> (i64) {
    %one = arith.constant 1 : i64
    %two = arith.constant 2 : i64
    %lit = soac.array [%one, %two] : tensor<2xi64>
    %e = soac.index %lit[%c0] : tensor<2xi64>
    scf.yield %e : i64
  } else {
    scf.yield %k : i64
  }
  %m = soac.map(%A) : (tensor<?xi1>) -> tensor<?xi64> {
  ^bb0(%b: i1):
    soac.yield %r : i64
  }
  %s = soac.size %m[0] : tensor<?xi64>
  %s64 = arith.index_cast %s : index to i64
  func.return %s64 : i64
}

// T12: replicating a moved value replicates its storage (a kernel, no read): a column
// of the replicated one-row arrays; `replicate 1 v` of one element is the gpu_body
// storing v. (soac.replicate has one count: §5.10's [n, 1] case has no counterpart.)
// CUT: @t12_replicate: device {v} cut {} reads 0
// CHECK-LABEL: func.func @t12_replicate
// CHECK:         %[[ROWS:.*]] = soac.replicate %n, %v_dev : tensor<1xi64> -> tensor<?x1xi64>
// CHECK:         %R = soac.slice %[[ROWS]][%{{.*}}:%n, %{{.*}}] : tensor<?x1xi64> -> tensor<?xi64>
// CHECK:         %R1 = soac.gpu_body -> tensor<1xi64>
// CHECK-NOT:     soac.replicate
// CHECK:         func.return %R, %R1
func.func @t12_replicate(%A: tensor<?xi64>, %n: index) -> (tensor<?xi64>, tensor<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = soac.index %A[%c0] : tensor<?xi64>
  %R = soac.replicate %n, %v : i64 -> tensor<?xi64>
  %R1 = soac.replicate %c1, %v : i64 -> tensor<1xi64>
  func.return %R, %R1 : tensor<?xi64>, tensor<1xi64>
}

// T13: iota and copy are host-only: iota's size is read, and an if containing a copy
// cannot move whole (its condition is read).
// CUT: @t13_iota: device {} cut {read(n64)} reads 1
// CUT: @t13_copy_blocks_if: device {r, e} cut {read(c)} reads 1
func.func @t13_iota(%A: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %n64 = soac.index %A[%c0] : tensor<?xi64>
  %n = arith.index_cast %n64 : i64 to index
  %r = soac.iota %n : tensor<?xi64>
  func.return %r : tensor<?xi64>
}
func.func @t13_copy_blocks_if(%A: tensor<?xi1>, %B: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c = soac.index %A[%c0] : tensor<?xi1>
  %r = scf.if %c -> (i64) {
    %d = soac.copy %B : tensor<?xi64>
    %e = soac.index %d[%c0] : tensor<?xi64>
    scf.yield %e : i64
  } else {
    %k = arith.constant 0 : i64
    scf.yield %k : i64
  }
  %m = soac.map(%B) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %r : i64
    soac.yield %y : i64
  }
  func.return %m : tensor<?xi64>
}

// T14, Figure 13, corrected: the figure migrates `if c then [1, 2] else [2, 3]` whole,
// but by the study's own literal rule (§5.9) a literal of constants only is host-only,
// so that if cannot move and c is read (the digest notes the conflict for Listing 8).
// With a variable in the literals (made inside the branches, so copyable) the whole if
// moves as the figure shows. (if0 is a port of Futhark's test.)
// CUT: @t14_figure13_constant_literals: device {} cut {read(c)} reads 1
// CUT: @t14_figure13: device {c, x, lit1, lit2} cut {} reads 0
// CHECK-LABEL: func.func @t14_figure13
// CHECK:         %x_dev = soac.gpu_body -> tensor<1x2xi64> {
// CHECK:           %x = scf.if %c_1 -> (tensor<2xi64>) {
// CHECK:         %x_1 = soac.index %x_dev[%{{.*}}] : tensor<1x2xi64>
func.func @t14_figure13_constant_literals(%A: tensor<?xi1>) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %c = soac.index %A[%c0] : tensor<?xi1>
  %x = scf.if %c -> (tensor<2xi64>) {
    %lit = soac.array [%one, %two] : tensor<2xi64>
    scf.yield %lit : tensor<2xi64>
  } else {
    %lit = soac.array [%two, %three] : tensor<2xi64>
    scf.yield %lit : tensor<2xi64>
  }
  func.return %x : tensor<2xi64>
}
func.func @t14_figure13(%A: tensor<?xi1>, %v: i64) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %c = soac.index %A[%c0] : tensor<?xi1>
  %x = scf.if %c -> (tensor<2xi64>) {
    %lit1 = soac.array [%one, %v] : tensor<2xi64>
    scf.yield %lit1 : tensor<2xi64>
  } else {
    %lit2 = soac.array [%two, %v] : tensor<2xi64>
    scf.yield %lit2 : tensor<2xi64>
  }
  func.return %x : tensor<2xi64>
}

// T15, Figure 14: reads delayed into a branch: x and y (also used by a kernel) move, and
// their sum is read only when the branch runs. Reads 2 -> 1 (c false) or 0 (c true).
// CUT: @t15_figure14: device {x, y, s} cut {s} reads 1
// CHECK-LABEL: func.func @t15_figure14
// CHECK:         scf.if %c -> (i64) {
// CHECK:         } else {
// CHECK-NEXT:      %s_dev = soac.gpu_body
// CHECK:           %s_1 = soac.index %s_dev
// CHECK-NEXT:      scf.yield %s_1 : i64
func.func @t15_figure14(%A: tensor<?xi64>, %c: i1) -> (i64, tensor<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = soac.index %A[%c0] : tensor<?xi64>
  %y = soac.index %A[%c1] : tensor<?xi64>
  %z = scf.if %c -> (i64) {
    %k = arith.constant 42 : i64
    scf.yield %k : i64
  } else {
    %s = arith.addi %x, %y : i64
    scf.yield %s : i64
  }
  %m = soac.map(%A) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%e: i64):
    %p = arith.addi %e, %x : i64
    %q = arith.addi %p, %y : i64
    soac.yield %q : i64
  }
  func.return %z, %m : i64, tensor<?xi64>
}

// T16, Figure 15: a read delayed out of a branch; the other branch's constant is stored
// on the device. Always exactly one read.
// CUT: @t16_figure15: device {x, y, a1, z} cut {z} reads 1
// CHECK-LABEL: func.func @t16_figure15
// CHECK:         %const_dev = soac.gpu_body
// CHECK:         %y_dev = scf.if %c -> (tensor<1xi64>) {
// CHECK:           scf.yield %a1_dev : tensor<1xi64>
// CHECK:           scf.yield %const_dev : tensor<1xi64>
// CHECK:         %z_dev = soac.gpu_body
func.func @t16_figure15(%A: tensor<?xi64>, %c: i1) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = soac.index %A[%c0] : tensor<?xi64>
  %y = scf.if %c -> (i64) {
    %a1 = soac.index %A[%c1] : tensor<?xi64>
    scf.yield %a1 : i64
  } else {
    %k = arith.constant 42 : i64
    scf.yield %k : i64
  }
  %z = arith.addi %x, %y : i64
  func.return %z : i64
}

// T17, Figure 16: reads delayed out of two ifs: exactly one read whatever the branches.
// CUT: @t17_figure16: device {x, a0, y, a1, z} cut {z} reads 1
func.func @t17_figure16(%A: tensor<?xi64>, %a: i1, %b: i1) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = scf.if %a -> (i64) {
    %a0 = soac.index %A[%c0] : tensor<?xi64>
    scf.yield %a0 : i64
  } else {
    %k = arith.constant 404 : i64
    scf.yield %k : i64
  }
  %y = scf.if %b -> (i64) {
    %a1 = soac.index %A[%c1] : tensor<?xi64>
    scf.yield %a1 : i64
  } else {
    %k = arith.constant 42 : i64
    scf.yield %k : i64
  }
  %z = arith.addi %x, %y : i64
  func.return %z : i64
}

// T18, Figure 18 (two_branches): the constant becomes a device constant made once at the
// entry, the variable i is stored once where it is defined (the figure stores it at the
// end of its branch; Futhark's simplifier hoists it, as here). Worst case 2 -> 1.
// CUT: @t18_two_branches: device {x, a0, y, a1, z} cut {z} reads 1
// CHECK-LABEL: func.func @t18_two_branches
// CHECK-NEXT:    %i_dev = soac.gpu_body -> tensor<1xi64> {
// CHECK-NEXT:      soac.yield %i : i64
// CHECK:         %const_dev = soac.gpu_body -> tensor<1xi64> {
// CHECK-NEXT:      %{{.*}} = arith.constant 42 : i64
// CHECK:         %x_dev = scf.if %a
// CHECK:         %y_dev = scf.if %b
// CHECK:           scf.yield %i_dev : tensor<1xi64>
func.func @t18_two_branches(%A: tensor<2xi64>, %a: i1, %b: i1, %i: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = scf.if %a -> (i64) {
    %a0 = soac.index %A[%c0] : tensor<2xi64>
    scf.yield %a0 : i64
  } else {
    %k = arith.constant 42 : i64
    scf.yield %k : i64
  }
  %y = scf.if %b -> (i64) {
    %a1 = soac.index %A[%c1] : tensor<2xi64>
    scf.yield %a1 : i64
  } else {
    scf.yield %i : i64
  }
  %z = arith.addi %x, %y : i64
  func.return %z : i64
}

// T19, Figure 19 (the accepted inaccuracy): both branches' reads and additions move, the
// result is read: the worst case stays one read, with kernels added.
// CUT: @t19_inaccurate: device {z, x, x7, y, y505} cut {z} reads 1
func.func @t19_inaccurate(%A: tensor<2xi64>, %c: i1) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = scf.if %c -> (i64) {
    %x = soac.index %A[%c0] : tensor<2xi64>
    %k = arith.constant 7 : i64
    %x7 = arith.addi %x, %k : i64
    scf.yield %x7 : i64
  } else {
    %y = soac.index %A[%c1] : tensor<2xi64>
    %k = arith.constant 505 : i64
    %y505 = arith.addi %y, %k : i64
    scf.yield %y505 : i64
  }
  func.return %z : i64
}

// T20: an if cannot move whole when a branch has a host-only op, binds a size, or
// returns an array from outside (Listing 8's outer if); its condition is then read.
// Branch contents still move at fine grain.
// CUT: @t20_host_only_branch: device {} cut {read(c)} reads 1
// CUT: @t20_size_in_branch: device {r, e} cut {read(c), read(n64)} reads 2
// CUT: @t20_listing8_outer: device {a, e, d, l, h} cut {read(c)} reads 1
func.func @t20_host_only_branch(%A: tensor<?xi1>, %n: index) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c = soac.index %A[%c0] : tensor<?xi1>
  %r = scf.if %c -> (tensor<?xi64>) {
    %i = soac.iota %n : tensor<?xi64>
    scf.yield %i : tensor<?xi64>
  } else {
    %z = arith.constant 0 : i64
    %f = soac.replicate %n, %z : i64 -> tensor<?xi64>
    scf.yield %f : tensor<?xi64>
  }
  func.return %r : tensor<?xi64>
}
func.func @t20_size_in_branch(%A: tensor<?xi1>, %N: tensor<?xi64>, %C: tensor<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c = soac.index %A[%c0] : tensor<?xi1>
  %r = scf.if %c -> (i64) {
    %n64 = soac.index %N[%c0] : tensor<?xi64>
    %n = arith.index_cast %n64 : i64 to index
    %s = soac.slice %C[%c0:%n] : tensor<?xi64> -> tensor<?xi64>
    %e = soac.index %s[%c0] : tensor<?xi64>
    scf.yield %e : i64
  } else {
    %k = arith.constant 0 : i64
    scf.yield %k : i64
  }
  %m = soac.map(%C) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %r : i64
    soac.yield %y : i64
  }
  %l = soac.size %m[0] : tensor<?xi64>
  %l64 = arith.index_cast %l : index to i64
  func.return %l64 : i64
}
func.func @t20_listing8_outer(%A: tensor<?xi1>, %x: i64) -> tensor<3xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %c = soac.index %A[%c0] : tensor<?xi1>
  %e = soac.index %A[%c1] : tensor<?xi1>
  %a = soac.array [%one, %two, %x] : tensor<3xi64>
  %b = scf.if %c -> (tensor<3xi64>) {
    scf.yield %a : tensor<3xi64>
  } else {
    %d = scf.if %e -> (tensor<3xi64>) {
      %l = soac.array [%one, %x, %three] : tensor<3xi64>
      scf.yield %l : tensor<3xi64>
    } else {
      %h = soac.array [%two, %one, %x] : tensor<3xi64>
      scf.yield %h : tensor<3xi64>
    }
    scf.yield %d : tensor<3xi64>
  }
  func.return %b : tensor<3xi64>
}

// T21, Figure 20 / Listing 10: the index of the first element greater than m. The whole
// while loop moves with the reads before it; only its result p is read (it is returned).
// Reads 1 + one per iteration -> 1.
// CUT: @t21_figure20: device {v, l, c, cc, w, p, c1, v1, l1} cut {p} reads 1
// CHECK-LABEL: func.func @t21_figure20
// CHECK:         %e = arith.subi %n, %one : index
// CHECK:         %v_dev = soac.gpu_body
// CHECK:         %l_dev = soac.gpu_body
// CHECK:         %w_dev, %p_dev = soac.gpu_body -> tensor<1xi1>, tensor<1xindex> {
// CHECK:           %w, %p = scf.while
// CHECK-NOT:     soac.gpu_body
// CHECK:         %p_1 = soac.index %p_dev
func.func @t21_figure20(%A: tensor<?xf32>, %m: f32) -> index {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : index
  %false = arith.constant false
  %n = soac.size %A[0] : tensor<?xf32>
  %e = arith.subi %n, %one : index
  %v = soac.index %A[%c0] : tensor<?xf32>
  %l = arith.cmpf ole, %v, %m : f32
  %w, %p = scf.while (%c = %l, %i = %c0) : (i1, index) -> (i1, index) {
    scf.condition(%c) %c, %i : i1, index
  } do {
  ^bb0(%cc: i1, %ii: index):
    %i1 = arith.addi %ii, %one : index
    %a = arith.cmpi ule, %i1, %e : index
    %c1 = scf.if %a -> (i1) {
      %v1 = soac.index %A[%i1] : tensor<?xf32>
      %l1 = arith.cmpf ole, %v1, %m : f32
      scf.yield %l1 : i1
    } else {
      scf.yield %false : i1
    }
    scf.yield %c1, %i1 : i1, index
  }
  func.return %p : index
}

// T22, Figure 21: the loop body has a host-only call, so nothing moves: the three reads
// stay before the loop and none is added inside it (without isolating the loop, a, b,
// x and y would move and y would be read every iteration).
// CUT: @t22_figure21: device {} cut {read(n64), read(a), read(b)} reads 3
func.func @t22_figure21(%A: tensor<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n64 = soac.index %A[%c0] : tensor<?xi64>
  %a = soac.index %A[%c1] : tensor<?xi64>
  %b = soac.index %A[%c2] : tensor<?xi64>
  %n = arith.index_cast %n64 : i64 to index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (i64) {
    %y = arith.addi %x, %b : i64
    %z = func.call @f_host(%y) : (i64) -> i64
    scf.yield %z : i64
  }
  func.return %r : i64
}

// T23, Figure 22 / Listing 11 (subsums): the loop stays (it carries an array), the
// scalar is carried on the device from a device constant, the read and the sum move and
// the write becomes a one-element copy: no read and no synchronous write per iteration;
// s is read after the loop (it is returned).
// CUT: @t23_figure22: device {x, s, v, s1} cut {s} reads 1
// CHECK-LABEL: func.func @t23_figure22
// CHECK:         %const_dev = soac.gpu_body
// CHECK:         scf.for %i = %c0 to %n step %c1 iter_args(%B = %A, %x_dev = %const_dev)
// CHECK:           %s1_dev = soac.gpu_body
// CHECK:           %C = soac.update %B[%i:%{{.*}}] = %s1_dev : tensor<?xi64>, tensor<1xi64>
// CHECK-NEXT:      scf.yield %C, %s1_dev
func.func @t23_figure22(%A: tensor<?xi64>) -> (tensor<?xi64>, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = soac.size %A[0] : tensor<?xi64>
  %S, %s = scf.for %i = %c0 to %n step %c1 iter_args(%B = %A, %x = %zero) -> (tensor<?xi64>, i64) {
    %v = soac.index %B[%i] : tensor<?xi64>
    %s1 = arith.addi %x, %v : i64
    %C = soac.update %B[%i] = %s1 : tensor<?xi64>, i64
    scf.yield %C, %s1 : tensor<?xi64>, i64
  }
  func.return %S, %s : tensor<?xi64>, i64
}

// T24, Figure 23 (the last element of A greater than d, read as `d <= x`): the read of d
// is delayed into the loop, which moves whole; its results are read (they are returned).
// CUT: @t24_figure23: device {d, cc, vv, c3, v3, t, i, v, x, a, c2} cut {t, i, v} reads 3
// CHECK-LABEL: func.func @t24_figure23
// CHECK:         %{{.*}} = soac.gpu_body -> tensor<1xi1>, tensor<1xindex>, tensor<1xi64> {
// CHECK:           scf.while
func.func @t24_figure23(%A: tensor<?xi64>, %B: tensor<8xi64>) -> (i1, index, i64) {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0 : i64
  %false = arith.constant false
  %n = soac.size %A[0] : tensor<?xi64>
  %d = soac.index %B[%c7] : tensor<8xi64>
  %c = arith.cmpi ule, %c1, %n : index
  %t, %i, %v = scf.while (%cc = %c, %ii = %n, %vv = %zero) : (i1, index, i64) -> (i1, index, i64) {
    scf.condition(%cc) %cc, %ii, %vv : i1, index, i64
  } do {
  ^bb0(%c3: i1, %i3: index, %v3: i64):
    %i2 = arith.subi %i3, %c1 : index
    %x = soac.index %A[%i2] : tensor<?xi64>
    %a = arith.cmpi sle, %d, %x : i64
    %b = arith.cmpi ule, %c1, %i2 : index
    %c2 = arith.select %a, %false, %b : i1
    scf.yield %c2, %i2, %x : i1, index, i64
  }
  func.return %t, %i, %v : i1, index, i64
}

// T25, Figure 24a: Figure 20 with a host-only op in the loop body: the loop cannot move,
// the read in it stays every iteration, and l is read before the loop as before.
// CUT: @t25_figure24a: device {} cut {read(v), read(v1)} reads 2
func.func @t25_figure24a(%A: tensor<?xf32>, %m: f32) -> index {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : index
  %false = arith.constant false
  %n = soac.size %A[0] : tensor<?xf32>
  %e = arith.subi %n, %one : index
  %v = soac.index %A[%c0] : tensor<?xf32>
  %l = arith.cmpf ole, %v, %m : f32
  %w, %p = scf.while (%c = %l, %i = %c0) : (i1, index) -> (i1, index) {
    scf.condition(%c) %c, %i : i1, index
  } do {
  ^bb0(%cc: i1, %ii: index):
    %i1 = arith.addi %ii, %one : index
    %a = arith.cmpi ule, %i1, %e : index
    %c1 = scf.if %a -> (i1) {
      %v1 = soac.index %A[%i1] : tensor<?xf32>
      %l1 = arith.cmpf ole, %v1, %m : f32
      scf.yield %l1 : i1
    } else {
      scf.yield %false : i1
    }
    %i64 = arith.index_cast %i1 : index to i64
    %host = func.call @f_host(%i64) : (i64) -> i64
    scf.yield %c1, %i1 : i1, index
  }
  func.return %p : index
}

// T26, Figure 24b: Figure 23 with the loop blocked (a host-only op in it). With v not
// needed on the host, x, d, v and a move and a is read every iteration (the read of d
// goes, at the price of a kernel per iteration); with v returned, d is simply read.
// CUT: @t26_figure24b: device {d, vv, v3, v, x, a} cut {a} reads 1
// CUT: @t26_figure24b_v_on_host: device {} cut {read(d), read(x)} reads 2
func.func @t26_figure24b(%A: tensor<?xi64>, %B: tensor<8xi64>) -> (i1, index, tensor<?xi64>) {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0 : i64
  %false = arith.constant false
  %n = soac.size %A[0] : tensor<?xi64>
  %d = soac.index %B[%c7] : tensor<8xi64>
  %c = arith.cmpi ule, %c1, %n : index
  %t, %i, %v = scf.while (%cc = %c, %ii = %n, %vv = %zero) : (i1, index, i64) -> (i1, index, i64) {
    scf.condition(%cc) %cc, %ii, %vv : i1, index, i64
  } do {
  ^bb0(%c3: i1, %i3: index, %v3: i64):
    %i2 = arith.subi %i3, %c1 : index
    %x = soac.index %A[%i2] : tensor<?xi64>
    %a = arith.cmpi sle, %d, %x : i64
    %b = arith.cmpi ule, %c1, %i2 : index
    %c2 = arith.select %a, %false, %b : i1
    %i64 = arith.index_cast %i2 : index to i64
    %host = func.call @f_host(%i64) : (i64) -> i64
    scf.yield %c2, %i2, %x : i1, index, i64
  }
  %m = soac.map(%A) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%e: i64):
    %s = arith.addi %e, %v : i64
    soac.yield %s : i64
  }
  func.return %t, %i, %m : i1, index, tensor<?xi64>
}
func.func @t26_figure24b_v_on_host(%A: tensor<?xi64>, %B: tensor<8xi64>) -> (i1, index, i64) {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0 : i64
  %false = arith.constant false
  %n = soac.size %A[0] : tensor<?xi64>
  %d = soac.index %B[%c7] : tensor<8xi64>
  %c = arith.cmpi ule, %c1, %n : index
  %t, %i, %v = scf.while (%cc = %c, %ii = %n, %vv = %zero) : (i1, index, i64) -> (i1, index, i64) {
    scf.condition(%cc) %cc, %ii, %vv : i1, index, i64
  } do {
  ^bb0(%c3: i1, %i3: index, %v3: i64):
    %i2 = arith.subi %i3, %c1 : index
    %x = soac.index %A[%i2] : tensor<?xi64>
    %a = arith.cmpi sle, %d, %x : i64
    %b = arith.cmpi ule, %c1, %i2 : index
    %c2 = arith.select %a, %false, %b : i1
    %i64 = arith.index_cast %i2 : index to i64
    %host = func.call @f_host(%i64) : (i64) -> i64
    scf.yield %c2, %i2, %x : i1, index, i64
  }
  func.return %t, %i, %v : i1, index, i64
}

// T27: a for-in loop is a for loop with an explicit element read here (the form the
// study rewrites for-in loops to), so it behaves as T23: the read leaves the loop.
// CUT: @t27_for_in: device {acc, r, x, s} cut {r} reads 1
func.func @t27_for_in(%A: tensor<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = soac.size %A[0] : tensor<?xi64>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %x = soac.index %A[%k] : tensor<?xi64>
    %s = arith.addi %acc, %x : i64
    scf.yield %s : i64
  }
  func.return %r : i64
}

// T34: a gpu_body inside an if that moves whole is flattened: its ops run inline and
// reads of its row are its value; no nested kernel launch remains.
// CUT: @t34_nested_gpu_body: device {c, x, y} cut {x} reads 1
// CHECK-LABEL: func.func @t34_nested_gpu_body
// CHECK:         soac.gpu_body
// CHECK:           scf.if
// CHECK-NOT:         soac.gpu_body
// CHECK:         func.return
func.func @t34_nested_gpu_body(%A: tensor<?xi1>, %B: tensor<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c = soac.index %A[%c0] : tensor<?xi1>
  %x = scf.if %c -> (i64) {
    %g = soac.gpu_body -> tensor<1xi64> {
      %e = soac.index %B[%c0] : tensor<?xi64>
      %k = arith.constant 2 : i64
      %p = arith.muli %e, %k : i64
      soac.yield %p : i64
    }
    %y = soac.index %g[%c0] : tensor<1xi64>
    scf.yield %y : i64
  } else {
    %k = arith.constant 7 : i64
    scf.yield %k : i64
  }
  func.return %x : i64
}

// T35 (§8.2, future work kept as a regression of current behaviour): the cut at c, not
// at d, though the read of d could be sunk into a branch: the smallest device set.
// CUT: @t35_future_work: device {a, b, c} cut {c} reads 1
func.func @t35_future_work(%A: tensor<?xi64>, %x: i1) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k42 = arith.constant 42 : i64
  %a = soac.index %A[%c0] : tensor<?xi64>
  %b = soac.index %A[%c1] : tensor<?xi64>
  %c = arith.addi %a, %b : i64
  %d = arith.addi %c, %k42 : i64
  %e = scf.if %x -> (i64) {
    scf.yield %d : i64
  } else {
    %k = arith.constant 43 : i64
    scf.yield %k : i64
  }
  %f = func.call @f_host(%e) : (i64) -> i64
  func.return %f : i64
}

// ---- Positions the device reads (issue 18, item 6, past the study): partial indexing
// whose result only device work uses, and sub-array updates at fixed indices, need no
// index on the host: a moved index is read by a copy kernel (soac.device_index,
// soac.device_update). The sums below put the index out of range on some of the
// differential tests' random inputs, so every level must fail alike there.

// D1, Gauss-Jordan's row swap: the row at a reduction's index is copied, written over
// row 0, and row 0 is written at that index. Reads 1 -> 0: the index is computed on the
// device, the copy is the device_index (one copy, not two), the update a device_update.
// CUT: @d1_swap_at_a_device_index: device {s, p} cut {} reads 0
// CHECK-LABEL: func.func @d1_swap_at_a_device_index
// CHECK:         %s = soac.reduce
// CHECK:         %p_dev = soac.gpu_body -> tensor<1xindex> {
// CHECK-NEXT:      %p = arith.index_cast %s : i64 to index
// CHECK-NEXT:      soac.yield %p : index
// CHECK-NEXT:    }
// CHECK-NEXT:    %rowp = soac.device_index %m[%p_dev] : tensor<?x?xf32>, tensor<1xindex>
// CHECK:         %m1 = soac.update %m[%c0] = %rowp : tensor<?x?xf32>, tensor<?xf32>
// CHECK-NEXT:    %m2 = soac.device_update %m1[%p_dev] = %row0 : tensor<?x?xf32>, tensor<1xindex>, tensor<?xf32>
// CHECK-NOT:     soac.copy
// CHECK:         func.return %m2
func.func @d1_swap_at_a_device_index(%m: tensor<?x?xf32>, %col: tensor<?xi64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i64
  %s = soac.reduce(%col) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%l: i64, %r: i64):
    %t = arith.addi %l, %r : i64
    soac.yield %t : i64
  }
  %p = arith.index_cast %s : i64 to index
  %vp = soac.index %m[%p] : tensor<?x?xf32>
  %rowp = soac.copy %vp : tensor<?xf32>
  %v0 = soac.index %m[%c0] : tensor<?x?xf32>
  %row0 = soac.copy %v0 : tensor<?xf32>
  %m1 = soac.update %m[%c0] = %rowp : tensor<?x?xf32>, tensor<?xf32>
  %m2 = soac.update %m1[%p] = %row0 : tensor<?x?xf32>, tensor<?xf32>
  func.return %m2 : tensor<?x?xf32>
}

// D2: a kernel's input and a capture in another kernel's lambda; the index is mixed,
// one known on the host (k) and one on the device. Reads 1 -> 0.
// CUT: @d2_kernels_use_the_plane: device {s, p} cut {} reads 0
// CHECK-LABEL: func.func @d2_kernels_use_the_plane
// CHECK:         %plane = soac.device_index %t[%k, %p_dev] : tensor<?x?x?xf32>, index, tensor<1xindex>
// CHECK-NEXT:    %doubled = soac.map(%plane)
// CHECK:         %sums = soac.map(%a)
// CHECK:           soac.index %plane[%{{.*}}]
func.func @d2_kernels_use_the_plane(%t: tensor<?x?x?xf32>, %col: tensor<?xi64>, %a: tensor<?xindex>, %k: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %zero = arith.constant 0 : i64
  %s = soac.reduce(%col) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%l: i64, %r: i64):
    %u = arith.addi %l, %r : i64
    soac.yield %u : i64
  }
  %p = arith.index_cast %s : i64 to index
  %plane = soac.index %t[%k, %p] : tensor<?x?x?xf32>
  %doubled = soac.map(%plane) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    soac.yield %y : f32
  }
  %sums = soac.map(%a) : (tensor<?xindex>) -> tensor<?xf32> {
  ^bb0(%j: index):
    %e = soac.index %plane[%j] : tensor<?xf32>
    soac.yield %e : f32
  }
  func.return %doubled, %sums : tensor<?xf32>, tensor<?xf32>
}

// D3: the row is also returned (the host takes it as it is, at a position it must know):
// the index's read stays, and so does the view.
// CUT: @d3_a_returned_view_keeps_the_read: device {} cut {read(s)} reads 1
// CHECK-LABEL: func.func @d3_a_returned_view_keeps_the_read
// CHECK-NOT:     soac.device_index
// CHECK:         %row = soac.index %m[%p] : tensor<?x?xf32>
func.func @d3_a_returned_view_keeps_the_read(%m: tensor<?x?xf32>, %col: tensor<?xi64>) -> (tensor<?xf32>, tensor<?xf32>) {
  %zero = arith.constant 0 : i64
  %s = soac.reduce(%col) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%l: i64, %r: i64):
    %u = arith.addi %l, %r : i64
    soac.yield %u : i64
  }
  %p = arith.index_cast %s : i64 to index
  %row = soac.index %m[%p] : tensor<?x?xf32>
  %neg = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  func.return %row, %neg : tensor<?xf32>, tensor<?xf32>
}

// D4: a slice at a device offset whose only user is a kernel, and a scalar written at a
// device index, read nothing: the slice is a copy kernel that loads its offset, the write
// one thread's store. Reads 1 -> 0.
// CUT: @d4_slices_and_scalar_updates_at_device_positions: device {s, p} cut {} reads 0
// CHECK-LABEL: func.func @d4_slices_and_scalar_updates_at_device_positions
// CHECK:         %p_dev = soac.gpu_body -> tensor<1xindex>
// CHECK:         %part = soac.device_index %a[%p_dev:%c2] : tensor<?xf32>, tensor<1xindex>, index -> tensor<?xf32>
// CHECK:         %c = soac.device_update %b[%p_dev] = %x : tensor<?xf32>, tensor<1xindex>, f32
func.func @d4_slices_and_scalar_updates_at_device_positions(%a: tensor<?xf32>, %col: tensor<?xi64>, %x: f32) -> (tensor<?xf32>, tensor<?xf32>) {
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %s = soac.reduce(%col) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%l: i64, %r: i64):
    %u = arith.addi %l, %r : i64
    soac.yield %u : i64
  }
  %p = arith.index_cast %s : i64 to index
  %part = soac.slice %a[%p:%c2] : tensor<?xf32> -> tensor<?xf32>
  %twice = soac.map(%part) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%y: f32):
    %z = arith.addf %y, %y : f32
    soac.yield %z : f32
  }
  %b = soac.copy %a : tensor<?xf32>
  %c = soac.update %b[%p] = %x : tensor<?xf32>, f32
  func.return %twice, %c : tensor<?xf32>, tensor<?xf32>
}

// D5: a moved value written at a moved index and at a strided slice's device stride: a
// one-element slice update of its storage, at a device offset. Reads 2 -> 0.
// CUT: @d5_moved_value_at_a_moved_index: device {s, m, p, q} cut {} reads 0
// CHECK-LABEL: func.func @d5_moved_value_at_a_moved_index
// CHECK:         %c = soac.device_update %b[%p_dev:%{{.*}}] = %m_dev : tensor<?xf32>, tensor<1xindex>, index, tensor<1xf32>
// CHECK:         %e2 = soac.device_index %a[%c0:%c2:%q_dev] : tensor<?xf32>, index, index, tensor<1xindex> -> tensor<?xf32>
func.func @d5_moved_value_at_a_moved_index(%a: tensor<?xf32>, %col: tensor<?xi64>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %fzero = arith.constant 0.0 : f32
  %s = soac.reduce(%col) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%l: i64, %r: i64):
    %u = arith.addi %l, %r : i64
    soac.yield %u : i64
  }
  %m = soac.reduce(%a) neutral(%fzero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %u = arith.maximumf %l, %r : f32
    soac.yield %u : f32
  }
  %p = arith.index_cast %s : i64 to index
  %b = soac.copy %a : tensor<?xf32>
  %c = soac.update %b[%p] = %m : tensor<?xf32>, f32
  %q = arith.addi %p, %c2 : index
  %every = soac.slice %a[%c0:%c2:%q] : tensor<?xf32> -> tensor<?xf32>
  %e2 = soac.copy %every : tensor<?xf32>
  func.return %c, %e2 : tensor<?xf32>, tensor<?xf32>
}

// D6: what still needs the position on the host: a slice the host returns (a view, not
// device work), and a count, which sizes the result. Reads 2.
// CUT: @d6_a_returned_slice_and_a_count_keep_their_reads: device {} cut {read(s), read(t)} reads 2
// CHECK-LABEL: func.func @d6_a_returned_slice_and_a_count_keep_their_reads
// CHECK-NOT:     soac.device_
// CHECK:         func.return
func.func @d6_a_returned_slice_and_a_count_keep_their_reads(%a: tensor<?xf32>, %col: tensor<?xi64>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i64
  %s = soac.reduce(%col) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%l: i64, %r: i64):
    %u = arith.addi %l, %r : i64
    soac.yield %u : i64
  }
  %t = soac.reduce(%col) neutral(%zero : i64) commutative : (tensor<?xi64>) -> i64 {
  ^bb0(%l: i64, %r: i64):
    %u = arith.maxsi %l, %r : i64
    soac.yield %u : i64
  }
  %p = arith.index_cast %s : i64 to index
  %n = arith.index_cast %t : i64 to index
  %view = soac.slice %a[%p:%n] : tensor<?xf32> -> tensor<?xf32>
  %counted = soac.slice %a[%c0:%n] : tensor<?xf32> -> tensor<?xf32>
  %twice = soac.map(%counted) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%y: f32):
    %z = arith.addf %y, %y : f32
    soac.yield %z : f32
  }
  func.return %view, %twice : tensor<?xf32>, tensor<?xf32>
}

// Device loops (issue 18, passes/analysis/device_loops.py): a while loop that launches
// kernels and needs nothing from the host in its body keeps every value that changes on
// the device (the counter, the reduction, the condition); the one read per iteration
// is the condition's, at the top of the loop (`go`, the loop's parameter), and the count
// is read once after it. The first condition, computed before the loop from a reduction
// that nothing else uses, moves with it (no read before the loop).
// CUT: @device_loop_counter_and_reduction: device {s0, big, go, go, i, j, it, j1, s0, more, big, go} cut {go, it} reads 2
// CHECK-LABEL: func.func @device_loop_counter_and_reduction
// CHECK:         %s0 = soac.reduce
// CHECK:         %big_dev = soac.gpu_body -> tensor<1xi1>
// CHECK:         %go_dev = soac.gpu_body -> tensor<1xi1>
// CHECK:         scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<1xi1>, tensor<?xf32>, tensor<1xindex>)
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[GO:.*]] = soac.index %{{.*}}[%[[C0]]] : tensor<1xi1>
// CHECK-NEXT:      scf.condition(%[[GO]])
// CHECK:         } do {
// CHECK:           %j1_dev = soac.gpu_body -> tensor<1xindex>
// CHECK:             %j1 = arith.addi
// CHECK:           %s0_1 = soac.reduce
// CHECK:           %big_dev_1 = soac.gpu_body -> tensor<1xi1>
// CHECK-NEXT:        arith.cmpf ogt, %s0_1, %eps
// CHECK:           %[[NEXT:go_dev_.*]] = soac.gpu_body -> tensor<1xi1>
// CHECK:           scf.yield %[[NEXT]], %h, %j1_dev
// CHECK:         %it = soac.index %{{.*}}[%{{.*}}] : tensor<1xindex>
// CHECK-NEXT:    func.return %{{.*}}, %it
func.func @device_loop_counter_and_reduction(%a: tensor<?xf32>, %eps: f32, %maxit: index) -> (tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %v, %it = scf.while (%u = %a, %i = %c0) : (tensor<?xf32>, index) -> (tensor<?xf32>, index) {
    %s0 = soac.reduce(%u) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    %more = arith.cmpi ult, %i, %maxit : index
    %big = arith.cmpf ogt, %s0, %eps : f32
    %go = arith.andi %more, %big : i1
    scf.condition(%go) %u, %i : tensor<?xf32>, index
  } do {
  ^bb0(%x: tensor<?xf32>, %j: index):
    %h = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%e: f32):
      %half = arith.constant 0.5 : f32
      %y = arith.mulf %e, %half : f32
      soac.yield %y : f32
    }
    %j1 = arith.addi %j, %c1 : index
    scf.yield %h, %j1 : tensor<?xf32>, index
  }
  func.return %v, %it : tensor<?xf32>, index
}

// A counter the host needs (a slice's size) keeps the loop on the host as the cut has
// it: the reduction's result is read every iteration and the counter stays there.
// CUT: @host_loop_counter_is_a_size: device {} cut {read(s), read(s)} reads 2
// CHECK-LABEL: func.func @host_loop_counter_is_a_size
// CHECK:         scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i1, tensor<?xf32>, index)
// CHECK:           %s_1 = soac.reduce
// CHECK-NEXT:      ^bb0
// CHECK:           %go_2 = arith.cmpf ogt, %s_1, %eps : f32
// CHECK-NEXT:      scf.yield %go_2
func.func @host_loop_counter_is_a_size(%a: tensor<?xf32>, %eps: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %v, %it = scf.while (%u = %a, %i = %c1) : (tensor<?xf32>, index) -> (tensor<?xf32>, index) {
    %s = soac.reduce(%u) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    %go = arith.cmpf ogt, %s, %eps : f32
    scf.condition(%go) %u, %i : tensor<?xf32>, index
  } do {
  ^bb0(%x: tensor<?xf32>, %j: index):
    %head = soac.slice %x[%c0:%j] : tensor<?xf32> -> tensor<?xf32>
    %h = soac.map(%head) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%e: f32):
      %half = arith.constant 0.5 : f32
      %y = arith.mulf %e, %half : f32
      soac.yield %y : f32
    }
    %j1 = arith.addi %j, %c1 : index
    scf.yield %h, %j1 : tensor<?xf32>, index
  }
  func.return %v : tensor<?xf32>
}
