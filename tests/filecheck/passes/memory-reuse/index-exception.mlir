// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=COUNT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true strategy=linear-scan}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{sizes=false allocations=false},memory-reuse{report=true}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{loops=false}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | filecheck %s --check-prefix=RUNS
// RUNS: builtin.module
//
// memory-reuse: the index-access exception: a map writing where it reads, and where it
// may not.
//
// memory-reuse's lit tests are the reuse cases of the study's test list (digest §13.3,
// "mode R": allocation-size hoisting, then reuse; the combined cases are ports in
// memory-block-merging/), one file per topic in this folder. CHECK lines show which
// block each array is in, COUNT lines list every allocation and copy left, in order,
// REPORT lines what the pass says it did with its default strategy (colouring) and
// LINEAR with the study's linear scan; NOSIZE without size hoisting, NOLOOP without
// the loop steps, FULL after hoist-allocations and short-circuit too. A RUN line
// without FileCheck puts every case through that pipeline (it must not fail).
//
// Counting against the study: an entry point's used array arguments are copied into
// device blocks of the program's own (`%xs_mem`), and those are the "consumed
// parameters" reused here: the study's 0 allocations are 1 here when the result takes
// its argument's block, and so on.

// R-index-exception (Fig 6.6, multiple-pos0): ys = map (+k0) xs reads xs[i] and writes
// ys[i] only: ys takes xs's block although xs's last use makes ys.
// Expected: exception (m_ys, m_xs), ys -> m_xs; 1 allocation.
// CHECK-LABEL: func.func @r_index_exception(
// CHECK:         %xs = mem.view %ns_mem
// CHECK:         %ys = mem.view %ns_mem
// CHECK-NEXT:    mem.map ins(%xs : {{.*}}) outs(%ys :
// COUNT-LABEL: @r_index_exception(
// COUNT-NEXT: %ns_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %ns_host, %ns :
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_index_exception: 2 blocks reused (colouring), 8*dim(%ns_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_index_exception: %xs_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
// REPORT: memory-reuse: @r_index_exception: %ys_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
func.func @r_index_exception(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %xs = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k0 = soac.index %xs[%c0] : tensor<?xi32>
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k0 : i32
    soac.yield %y : i32
  }
  func.return %ys : tensor<?xi32>
}

// -----

// multiple-pos1: three arrays in a row, all in one block.
// Expected (multiple-pos1): 1 allocation.
// CHECK-LABEL: func.func @r_index_exception3(
// CHECK:         %zs = mem.view %ns_mem
// CHECK-NEXT:    mem.map ins(%ys : {{.*}}) outs(%zs :
// COUNT-LABEL: @r_index_exception3(
// COUNT-NEXT: %ns_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %ns_host, %ns :
// COUNT-NEXT: %zs_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %zs, %zs_host :
// REPORT: memory-reuse: @r_index_exception3: 3 blocks reused (colouring), 12*dim(%ns_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_index_exception3: %xs_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
// REPORT: memory-reuse: @r_index_exception3: %ys_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
// REPORT: memory-reuse: @r_index_exception3: %zs_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
func.func @r_index_exception3(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %xs = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k0 = soac.index %xs[%c0] : tensor<?xi32>
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k0 : i32
    soac.yield %y : i32
  }
  %k1 = soac.index %ys[%c0] : tensor<?xi32>
  %zs = soac.map(%ys) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %k1 : i32
    soac.yield %y : i32
  }
  func.return %zs : tensor<?xi32>
}

// -----

// R-index-neg (input-reuse/difficult-neg0): xs is used again after ys is made.
// Expected (difficult-neg0): ys does not take xs's block (xs is read again); 1 allocation.
// Here zs takes it, as both die as zs is made lane by lane.
// CHECK-LABEL: func.func @r_index_neg(
// CHECK:         %ys = mem.view %ys_mem
// CHECK:         %zs = mem.view %xs_mem
// COUNT-LABEL: @r_index_neg(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %ys_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %zs_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %zs, %zs_host :
// REPORT: memory-reuse: @r_index_neg: 1 blocks reused (colouring), 4*dim(%xs_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_index_neg: %zs_mem reuses %xs_mem (4*dim(%xs_host, 0) bytes)
func.func @r_index_neg(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %ys[%c0] : tensor<?xi32>
  %zs = soac.map(%xs, %ys) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    %t = arith.addi %s, %k : i32
    soac.yield %t : i32
  }
  func.return %zs : tensor<?xi32>
}

// -----

// R-mismatched-index (interfering-neg1): ys[i] = t[n-i-1] + k: no exception.
// Expected: no exception for ys, no reuse; 2 allocations.
// CHECK-LABEL: func.func @r_mismatched_index(
// CHECK:         %ys = mem.view %ys_mem
// COUNT-LABEL: @r_mismatched_index(
// COUNT-NEXT: %t0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %t0_host, %t0 :
// COUNT-NEXT: %is_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %ys_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_mismatched_index: 1 blocks reused (colouring), 4*dim(%t0_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_mismatched_index: %t_mem reuses %t0_mem (4*dim(%t0_host, 0) bytes)
func.func @r_mismatched_index(%t0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %t0[0] : tensor<?xi32>
  %t = soac.map(%t0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %t[%c0] : tensor<?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %ys = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %last = arith.subi %n, %c1 : index
    %j = arith.subi %last, %i : index
    %e = soac.index %t[%j] : tensor<?xi32>
    %s = arith.addi %e, %k : i32
    soac.yield %s : i32
  }
  func.return %ys : tensor<?xi32>
}

// -----

// A lane that yields its input element to a second output reads it when the lane
// ends, after it has written the first output: the first output must not take the
// input's block (index-access exception refused); the second may (each lane writes
// back the element it read). Found by benchmarks/memory.py on canny.
// CHECK-LABEL: func.func @r_pass_through(
// CHECK:         %ps = mem.view %ps_mem
// CHECK:         %vs = mem.view %xs_mem
// COUNT-LABEL: @r_pass_through(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %ps_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NOT: mem.alloc
// REPORT: memory-reuse: @r_pass_through: %vs_mem reuses %xs_mem
func.func @r_pass_through(%xs: tensor<?xi32>) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ps, %vs = soac.map(%xs) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  ^bb0(%x: i32):
    %p = arith.addi %x, %one : i32
    soac.yield %p, %x : i32, i32
  }
  %a = soac.index %ps[%c0] : tensor<?xi32>
  %b = soac.index %vs[%c0] : tensor<?xi32>
  func.return %a, %b : i32, i32
}
