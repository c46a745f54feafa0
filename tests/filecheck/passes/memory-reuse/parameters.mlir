// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=COUNT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true strategy=linear-scan}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{sizes=false allocations=false},memory-reuse{report=true}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{loops=false}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | filecheck %s --check-prefix=RUNS
// RUNS: builtin.module
//
// memory-reuse: an entry point's consumed parameters reused (input reuse), with the
// sizes the program asserts.
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

// R-unique-param (input-reuse/simple-pos0): map (+1) xs, in xs's (device) block.
// Expected: ys -> m_xs; 0 allocations (here xs's device block).
// CHECK-LABEL: func.func @r_unique_param(
// CHECK:         %ys = mem.view %xs_mem
// CHECK-NEXT:    mem.map ins(%xs : {{.*}}) outs(%ys :
// COUNT-LABEL: @r_unique_param(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_unique_param: 1 blocks reused (colouring), 4*dim(%xs_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_unique_param: %ys_mem reuses %xs_mem (4*dim(%xs_host, 0) bytes)
func.func @r_unique_param(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %one = arith.constant 1.0 : f32
  %ys = soac.map(%xs) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %one : f32
    soac.yield %y : f32
  }
  func.return %ys : tensor<?xf32>
}

// -----

// R-unique-param-type-size (different-type-sizes): an i64 result cannot be built in
// the i32 argument's block (lanes would overlap).
// Expected: no reuse (element size differs); 1 allocation.
// CHECK-LABEL: func.func @r_unique_param_type_size(
// CHECK:         %ys = mem.view %ys_mem
// COUNT-LABEL: @r_unique_param_type_size(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %ys_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_unique_param_type_size: 0 blocks reused (colouring), 0 bytes no longer allocated
func.func @r_unique_param_type_size(%xs: tensor<?xi32>) -> tensor<?xi64> {
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi64> {
  ^bb0(%x: i32):
    %y = arith.extsi %x : i32 to i64
    soac.yield %y : i64
  }
  func.return %ys : tensor<?xi64>
}

// -----

// R-assert-tracking (unique-input-assert-tracking): x: *[n], y: [n]; k = x[0]; map (+k) y.
// Here nothing says the two sizes are equal: z takes x's block with the max of both.
// Expected: z -> m_x via the size equality assert; 0 allocations. Here y's block
// is freed by the map (an exception) and taken: the same count.
// CHECK-LABEL: func.func @r_assert_tracking(
// CHECK:         %z = mem.view %y_mem
// COUNT-LABEL: @r_assert_tracking(
// COUNT-NEXT: %x_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %x_host, %x :
// COUNT-NEXT: %y_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %y_host, %y :
// COUNT-NEXT: %z_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %z, %z_host :
// REPORT: memory-reuse: @r_assert_tracking: 1 blocks reused (colouring), 4*dim(%y_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_assert_tracking: %z_mem reuses %y_mem (4*dim(%y_host, 0) bytes)
func.func @r_assert_tracking(%x: tensor<?xi32>, %y: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %k = soac.index %x[%c0] : tensor<?xi32>
  %z = soac.map(%y) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%e: i32):
    %f = arith.addi %e, %k : i32
    soac.yield %f : i32
  }
  func.return %z : tensor<?xi32>
}

// -----

// R-assert-tracking, with a fact: zipping x and y makes the map check that their sizes
// are equal, so z takes x's block (an index-access exception) without a max.
// Expected: z -> m_x without a max: the map checks that x and y have one size.
// CHECK-LABEL: func.func @r_assert_fact(
// CHECK-NOT:     arith.maxui
// CHECK:         %z = mem.view %x_mem
// COUNT-LABEL: @r_assert_fact(
// COUNT-NEXT: %x_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %x_host, %x :
// COUNT-NEXT: %y_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %y_host, %y :
// COUNT-NEXT: %z_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %z, %z_host :
// REPORT: memory-reuse: @r_assert_fact: 1 blocks reused (colouring), 4*dim(%x_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_assert_fact: %z_mem reuses %x_mem (4*dim(%x_host, 0) bytes)
func.func @r_assert_fact(%x: tensor<?xi32>, %y: tensor<?xi32>) -> tensor<?xi32> {
  %z = soac.map(%x, %y) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%a: i32, %b: i32):
    %f = arith.addi %a, %b : i32
    soac.yield %f : i32
  }
  func.return %z : tensor<?xi32>
}

// -----

// R-unique-interfering (unique-input): shifted writes u[i] = t[i-1] + k make z
// interfere with x; v may take x's block, not z's.
// Expected: z does not take m_x (lane i reads x[i-1]); v -> m_x; 1 allocation.
// CHECK-LABEL: func.func @r_unique_interfering(
// CHECK:         %z = mem.view %z_mem
// CHECK:         %w = mem.view %x_mem
// COUNT-LABEL: @r_unique_interfering(
// COUNT-NEXT: %x_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %x_host, %x :
// COUNT-NEXT: %is_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %z_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %w_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %w, %w_host :
// REPORT: memory-reuse: @r_unique_interfering: 1 blocks reused (colouring), 4*dim(%x_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_unique_interfering: %w_mem reuses %x_mem (4*dim(%x_host, 0) bytes)
func.func @r_unique_interfering(%x: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %n = soac.size %x[0] : tensor<?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %z = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %first = arith.cmpi eq, %i, %c0 : index
    %v = scf.if %first -> (i32) {
      scf.yield %zero : i32
    } else {
      %p = arith.subi %i, %c1 : index
      %t = soac.index %x[%p] : tensor<?xi32>
      %s = arith.addi %t, %one : i32
      scf.yield %s : i32
    }
    soac.yield %v : i32
  }
  %k = soac.index %z[%c1] : tensor<?xi32>
  %w = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %first = arith.cmpi eq, %i, %c0 : index
    %v = scf.if %first -> (i32) {
      scf.yield %zero : i32
    } else {
      %p = arith.subi %i, %c1 : index
      %t = soac.index %z[%p] : tensor<?xi32>
      %s = arith.addi %t, %k : i32
      scf.yield %s : i32
    }
    soac.yield %v : i32
  }
  func.return %w : tensor<?xi32>
}
