// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=COUNT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true strategy=linear-scan}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{sizes=false allocations=false},memory-reuse{report=true}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{loops=false}' | filecheck %s --check-prefix=NOLOOP
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=FULL
// RUNS: builtin.module
//
// memory-reuse: loops: blocks made outside and inside, iterating in place (the study's
// L3; NOLOOP without), the copy before and the disjoint read, the full pipeline (FULL).
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

// R-loop-outside (Fig 6.3, copy-from-outside): t is made before the loop and read in
// every iteration: nothing in the loop may take its block.
// Expected: no reuse of t's block inside the loop. Here v, the next iteration's acc,
// is made in init's block (the loop iterates in place: init's block is the loop's, and
// it no longer carries acc), so u keeps a block of its own: 3 device blocks, as when v
// takes u's block.
// CHECK-LABEL: func.func @r_loop_outside(
// CHECK:         %t = mem.view %t_mem
// CHECK:         scf.for %i = %c0 to %k step %c1 {
// CHECK:           %u = mem.view %u_mem
// CHECK:           %v = mem.view %init_mem
// CHECK:         mem.copy %init, %res_host
// COUNT-LABEL: @r_loop_outside(
// COUNT-NEXT: %t_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %init_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %u_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %res_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %init, %res_host :
// REPORT: memory-reuse: @r_loop_outside: 1 blocks reused (colouring), 4*%k bytes no longer allocated
// REPORT: memory-reuse: @r_loop_outside: %v_mem reuses %init_mem (the loop's carried block) (4*%k bytes)
func.func @r_loop_outside(%k: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = soac.iota %k : tensor<?xi32>
  %init = soac.iota %k : tensor<?xi32>
  %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %init) -> (tensor<?xi32>) {
    %u = soac.map(%acc, %t) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      soac.yield %s : i32
    }
    %v = soac.map(%u) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%a: i32):
      %s = arith.muli %a, %a : i32
      soac.yield %s : i32
    }
    scf.yield %v : tensor<?xi32>
  }
  func.return %res : tensor<?xi32>
}

// -----

// R-loop-inner (reuse/loop/loop1): in the body, xs2 takes xs1's block.
// Expected: xs2 -> m_xs1; 2 allocations. Here xs2 is made in the carried block instead
// (the map reads xs[i] before writing xs2[i], and the loop consumes xs0's device
// block): the loop iterates in place, also 2 allocations.
// CHECK-LABEL: func.func @r_loop_inner(
// CHECK:         scf.for %it = %c0 to {{%[0-9]+}} step %c1 {
// CHECK:           %xs1 = mem.view %xs1_mem
// CHECK:           %xs2 = mem.view %xs0_mem
// COUNT-LABEL: @r_loop_inner(
// COUNT-NEXT: %xs0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs0_host, %xs0 :
// COUNT-NEXT: %xs1_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %r_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %xs0, %r_host :
// REPORT: memory-reuse: @r_loop_inner: 1 blocks reused (colouring), 4*dim(%xs0_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_loop_inner: %xs2_mem reuses %xs0_mem (the loop's carried block) (4*dim(%xs0_host, 0) bytes)
func.func @r_loop_inner(%xs0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %xs0[0] : tensor<?xi32>
  %r = scf.for %it = %c0 to %n step %c1 iter_args(%xs = %xs0) -> (tensor<?xi32>) {
    %xs1 = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %k = soac.index %xs1[%c0] : tensor<?xi32>
    %xs2 = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %k : i32
      soac.yield %y : i32
    }
    scf.yield %xs2 : tensor<?xi32>
  }
  func.return %r : tensor<?xi32>
}

// -----

// R-loop-in-place (the study's L3, Fig 9.5 ixfun-analysis-across-iterations): each
// iteration's b1 reads b0[i] before it writes b1[i], and the loop consumes a0's
// (device) block: b1 is made in the carried block, and the loop needs no block of
// its own. The study could not do this (two allocations, b1 and the double buffer).
// CHECK-LABEL: func.func @r_loop_in_place(
// CHECK:         scf.for %i = %c0 to {{%[0-9]+}} step %c1 {
// CHECK:           %b1 = mem.view %a0_mem
// CHECK:           mem.map ins(%a0 : {{.*}}) outs(%b1 :
// CHECK:         mem.copy %a0, %a1_host
// COUNT-LABEL: @r_loop_in_place(
// COUNT-NEXT: %a0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %a0_host, %a0 :
// COUNT-NEXT: %a1_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %a0, %a1_host :
// REPORT: memory-reuse: @r_loop_in_place: 1 blocks reused (colouring), 4*dim(%a0_host, 0) bytes no longer allocated
// REPORT-NEXT: memory-reuse: @r_loop_in_place: %b1_mem reuses %a0_mem (the loop's carried block) (4*dim(%a0_host, 0) bytes)
// NOLOOP-LABEL: func.func @r_loop_in_place(
// NOLOOP:         scf.for
// NOLOOP:           %b1_mem = mem.alloc
func.func @r_loop_in_place(%a0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  func.return %a1 : tensor<?xi32>
}

// -----

// R-loop-in-place-neg-late-read: b0 is read after b1 is written: no in-place
// iteration. b1 is made in the block the iteration before read from (double
// buffering, past the study: the body allocates nothing).
// CHECK-LABEL: func.func @r_loop_in_place_late_read(
// CHECK:         %b1_mem = mem.alloc
// CHECK-NEXT:    scf.for {{.*}} iter_args(%b0_mem = %a0_mem, %b0 = %a0, %[[SPARE:.*]] = %b1_mem)
// CHECK-NOT:       mem.alloc
// CHECK:           scf.yield %[[SPARE]], %{{.*}}, %b0_mem
// REPORT: memory-reuse: @r_loop_in_place_late_read: 1 blocks reused
// REPORT: memory-reuse: @r_loop_in_place_late_read: %b1_mem reuses %b0_mem of the iteration before (double buffering: the loop carries two blocks)
func.func @r_loop_in_place_late_read(%a0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %k = soac.index %b0[%i] : tensor<?xi32>
    %b2 = soac.update %b1[%c0] = %k : tensor<?xi32>, i32
    scf.yield %b2 : tensor<?xi32>
  }
  func.return %a1 : tensor<?xi32>
}

// -----

// R-loop-in-place-neg-reversed: lane i reads b0[n-1-i]: no index-access exception,
// no in-place iteration (double buffering instead).
// CHECK-LABEL: func.func @r_loop_in_place_reversed(
// CHECK:         %b1_mem = mem.alloc
// CHECK-NEXT:    scf.for {{.*}} iter_args(%b0_mem = %a0_mem, %b0 = %a0, %[[SPARE:.*]] = %b1_mem)
// CHECK-NOT:       mem.alloc
// CHECK:           scf.yield %[[SPARE]], %{{.*}}, %b0_mem
// REPORT: memory-reuse: @r_loop_in_place_reversed: 1 blocks reused
// REPORT: memory-reuse: @r_loop_in_place_reversed: %b1_mem reuses %b0_mem of the iteration before (double buffering: the loop carries two blocks)
func.func @r_loop_in_place_reversed(%a0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %a0[0] : tensor<?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
    ^bb0(%j: index):
      %last = arith.subi %n, %c1 : index
      %r = arith.subi %last, %j : index
      %x = soac.index %b0[%r] : tensor<?xi32>
      soac.yield %x : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  func.return %a1 : tensor<?xi32>
}

// -----

// R-loop-in-place-neg-kept: a0 is read after the loop, so the loop must not
// overwrite its block; the body copies nothing, so no copy is moved before it either.
// CHECK-LABEL: func.func @r_loop_in_place_kept(
// CHECK:         scf.for
// CHECK:           %b1_mem = mem.alloc
// CHECK:           scf.yield %b1_mem
// REPORT: memory-reuse: @r_loop_in_place_kept: 0 blocks reused
func.func @r_loop_in_place_kept(%a0: tensor<?xi32>) -> (tensor<?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  %k = soac.index %a0[%c0] : tensor<?xi32>
  func.return %a1, %k : tensor<?xi32>, i32
}

// -----

// R-loop-copy-before (LocVolCalib's tridagSeq): each lane updates a copy of its row
// in a loop, the copy written out in every iteration (y2 = copy y with [i] = ...). The
// row is not the loop's to overwrite, so the copy is made once, before the loop, into a
// block the loop then iterates in. b, made by the lane itself, is updated in place by
// convert-soac-to-mem already (its other uses are reads before the update), which also
// does this for a loop that updates its unowned start with no copy written.
// CHECK-LABEL: func.func @r_loop_copy_before(
// CHECK:           %b_mem = mem.alloc
// CHECK:           %y_mem = mem.alloc
// CHECK-NEXT:      %y_1 = mem.view %y_mem
// CHECK-NEXT:      mem.copy %ur, %y_1 :
// CHECK-NEXT:      scf.for %i = %c1 to {{%[0-9]+}} step %c1 {
// CHECK-NOT:         mem.alloc
// CHECK-NOT:         mem.copy
// CHECK:             mem.store %nb, %b[%i]
// CHECK-NOT:         mem.copy
// CHECK:             %yc = mem.view %y_mem
// CHECK-NOT:         mem.copy
// CHECK:           mem.map ins(%y_1, %b :
// REPORT: memory-reuse: @r_loop_copy_before: 1 copies removed from loops
// REPORT-NEXT: memory-reuse: @r_loop_copy_before: %yc_mem reuses %y_mem (the loop's carried block, copied into once before the loop)
func.func @r_loop_copy_before(%u: tensor<?x?xf32>, %v: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c1 = arith.constant 1 : index
  %m = soac.size %u[1] : tensor<?x?xf32>
  %r = soac.map(%u, %v) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%ur: tensor<?xf32>, %vr: tensor<?xf32>):
    %b = soac.map(%vr) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.addf %x, %x : f32
      soac.yield %y : f32
    }
    %yf, %bf = scf.for %i = %c1 to %m step %c1 iter_args(%y = %ur, %bb = %b) -> (tensor<?xf32>, tensor<?xf32>) {
      %im = arith.subi %i, %c1 : index
      %bm = soac.index %bb[%im] : tensor<?xf32>
      %bi = soac.index %bb[%i] : tensor<?xf32>
      %nb = arith.subf %bi, %bm : f32
      %bb2 = soac.update %bb[%i] = %nb : tensor<?xf32>, f32
      %yi = soac.index %y[%i] : tensor<?xf32>
      %ym = soac.index %y[%im] : tensor<?xf32>
      %ny = arith.subf %yi, %ym : f32
      %yc = soac.copy %y : tensor<?xf32>
      %y2 = soac.update %yc[%i] = %ny : tensor<?xf32>, f32
      scf.yield %y2, %bb2 : tensor<?xf32>, tensor<?xf32>
    }
    %s = soac.map(%yf, %bf) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %z: f32):
      %w = arith.addf %x, %z : f32
      soac.yield %w : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// R-loop-disjoint-read (LUD, the study's runtime regression §10.6): each iteration
// replaces the rows below row k by a map of them that also reads row k. The map reads
// each row before writing it, and reads row k, which no lane writes: the loop updates
// the matrix in place (no copy of it per iteration, no second block).
// Here (memory-reuse alone) the copy of m in every iteration goes; with
// short-circuit first (FULL), upd is made in place too, reading row k meanwhile.
// CHECK-LABEL: func.func @r_loop_disjoint_read(
// CHECK:         scf.for %k = %c0 to %last step %c1 {
// CHECK:           %m2 = mem.view %a_mem
// CHECK:         mem.copy %a, %r_host
// REPORT: memory-reuse: @r_loop_disjoint_read: 1 copies removed from loops
// FULL-LABEL: func.func @r_loop_disjoint_read(
// FULL-NEXT:    %a_mem = mem.alloc {{.*}} : !mem.block<device>
// FULL-NEXT:    mem.copy %a_host, %a :
// FULL-NEXT:    %r_host_mem = mem.alloc {{.*}} : !mem.block<host>
// FULL-NEXT:    mem.copy %a, %r_host :
func.func @r_loop_disjoint_read(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %a[0] : tensor<?x?xf32>
  %last = arith.subi %n, %c1 : index
  %r = scf.for %k = %c0 to %last step %c1 iter_args(%m = %a) -> (tensor<?x?xf32>) {
    %prow = soac.index %m[%k] : tensor<?x?xf32>
    %k1 = arith.addi %k, %c1 : index
    %cnt = arith.subi %n, %k1 : index
    %below = soac.slice %m[%k1:%cnt] : tensor<?x?xf32> -> tensor<?x?xf32>
    %upd = soac.map(%below) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%row: tensor<?xf32>):
      %new = soac.map(%row, %prow) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%e: f32, %p: f32):
        %v = arith.subf %e, %p : f32
        soac.yield %v : f32
      }
      soac.yield %new : tensor<?xf32>
    }
    %m2 = soac.update %m[%k1:%cnt] = %upd : tensor<?x?xf32>, tensor<?x?xf32>
    scf.yield %m2 : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// R-loop-gpu-body (the study's Listing 12 after reduce-device-syncs): each iteration
// makes an array literal in a gpu_body, whose result is a 1-row array, and carries its
// row 0. The row has the layout of the array the loop starts from, and nothing reads
// the carried array: the gpu_body writes into the loop's carried block, and the loop
// allocates nothing per iteration and carries no array.
// CHECK-LABEL: func.func @r_loop_gpu_body(
// CHECK:         scf.for
// CHECK-NOT:       mem.alloc
// CHECK:           %lit_dev = mem.view %A0_mem
// CHECK:           mem.gpu_body outs(%lit_dev
// REPORT: memory-reuse: @r_loop_gpu_body: %lit_dev_mem reuses %A0_mem (the loop's carried block) (16 bytes)
func.func @r_loop_gpu_body(%A0: tensor<2xi64>, %v0: i64, %n: index) -> (tensor<2xi64>, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %A, %v = scf.for %i = %c0 to %n step %c1 iter_args(%a = %A0, %w = %v0) -> (tensor<2xi64>, i64) {
    %w1 = arith.addi %w, %one : i64
    %lit_dev = soac.gpu_body -> tensor<1x2xi64> {
      %lit = soac.array [%one, %w] : tensor<2xi64>
      soac.yield %lit : tensor<2xi64>
    }
    %row = soac.index %lit_dev[%c0] : tensor<1x2xi64>
    scf.yield %row, %w1 : tensor<2xi64>, i64
  }
  func.return %A, %v : tensor<2xi64>, i64
}
