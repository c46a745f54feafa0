// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=COUNT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true strategy=linear-scan}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{sizes=false allocations=false},memory-reuse{report=true}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{loops=false}' | filecheck %s --check-prefix=NOLOOP
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | filecheck %s --check-prefix=RUNS
// RUNS: builtin.module
//
// memory-reuse: loops past the study: the carried block, iterating in the destination
// or a row of it (its L2), and where not (NOLOOP without).
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

// R-loop-carried-block (past the study: its reuse of consumed parameters, §5.5, for a
// loop's carried block). The body makes v for the next iteration before it last
// reads b0, so the loop cannot iterate in place; but u, made by the statement that
// last reads b0 (element by element: the kernel data-race rule) and not yielded, is
// made in the carried block: a0's block in the first iteration (the loop consumes
// it), the previous iteration's v after. One allocation per iteration instead of two,
// and two blocks live in the body instead of three.
// Past that, v is made in the block the iteration before read from (double
// buffering): the body allocates nothing.
// CHECK-LABEL: func.func @r_loop_carried_block(
// CHECK:         %v_mem = mem.alloc
// CHECK-NEXT:    scf.for {{.*}} iter_args(%b0_mem = %a0_mem, %b0 = %a0, %acc = %s0, %[[SPARE:.*]] = %v_mem)
// CHECK:           %v = mem.view %[[SPARE]]
// CHECK:           %u = mem.view %b0_mem
// CHECK:           mem.map ins(%b0, %v : {{.*}}) outs(%u :
// CHECK:           scf.yield %[[SPARE]], %v, %acc1, %b0_mem
// COUNT-LABEL: @r_loop_carried_block(
// COUNT-NEXT: %a0_mem = mem.alloc
// COUNT-NEXT: mem.copy %a0_host, %a0 :
// COUNT-NEXT: %v_mem = mem.alloc
// COUNT-NEXT: %s_dev_mem = mem.alloc
// COUNT-NEXT: %a1_host_mem = mem.alloc
// REPORT: memory-reuse: @r_loop_carried_block: 2 blocks reused (colouring), 4*dim(%a0_host, 0) bytes no longer allocated
// REPORT-NEXT: memory-reuse: @r_loop_carried_block: %u_mem reuses %b0_mem (the loop's carried block, once its array is dead) (4*dim(%a0_host, 0) bytes)
// REPORT-NEXT: memory-reuse: @r_loop_carried_block: %v_mem reuses %b0_mem of the iteration before (double buffering: the loop carries two blocks) (4*dim(%a0_host, 0) bytes)
// NOLOOP-LABEL: func.func @r_loop_carried_block(
// NOLOOP:         scf.for
// NOLOOP:           %v_mem = mem.alloc
// NOLOOP:           %u_mem = mem.alloc
func.func @r_loop_carried_block(%a0: tensor<?xi32>, %s0: i32) -> (tensor<?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1, %s1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0, %acc = %s0) -> (tensor<?xi32>, i32) {
    %v = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %u = soac.map(%b0, %v) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32, %y: i32):
      %z = arith.muli %x, %y : i32
      soac.yield %z : i32
    }
    %s = soac.reduce(%u) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb0(%l: i32, %r: i32):
      %t = arith.addi %l, %r : i32
      soac.yield %t : i32
    }
    %acc1 = arith.addi %acc, %s : i32
    scf.yield %v, %acc1 : tensor<?xi32>, i32
  }
  func.return %a1, %s1 : tensor<?xi32>, i32
}

// -----

// R-loop-carried-block-neg-late-read: b0 is read after u is made: u keeps its block
// (v is double-buffered).
// CHECK-LABEL: func.func @r_loop_carried_block_late_read(
// CHECK:         scf.for
// CHECK-NOT:       %v_mem = mem.alloc
// CHECK:           %u_mem = mem.alloc
// REPORT: memory-reuse: @r_loop_carried_block_late_read: 1 blocks reused (colouring), 0 bytes no longer allocated
func.func @r_loop_carried_block_late_read(%a0: tensor<?xi32>, %s0: i32) -> (tensor<?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1, %s1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0, %acc = %s0) -> (tensor<?xi32>, i32) {
    %v = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %u = soac.map(%b0, %v) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32, %y: i32):
      %z = arith.muli %x, %y : i32
      soac.yield %z : i32
    }
    %s = soac.reduce(%u) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb0(%l: i32, %r: i32):
      %t = arith.addi %l, %r : i32
      soac.yield %t : i32
    }
    %first = soac.index %b0[%c0] : tensor<?xi32>
    %acc0 = arith.addi %acc, %s : i32
    %acc1 = arith.addi %acc0, %first : i32
    scf.yield %v, %acc1 : tensor<?xi32>, i32
  }
  func.return %a1, %s1 : tensor<?xi32>, i32
}

// -----

// R-loop-carried-block-neg-kept: a0 is read after the loop, so the loop may not
// overwrite the block it starts from: u keeps its block.
// CHECK-LABEL: func.func @r_loop_carried_block_kept(
// CHECK:         scf.for
// CHECK:           %v_mem = mem.alloc
// CHECK:           %u_mem = mem.alloc
// REPORT: memory-reuse: @r_loop_carried_block_kept: 0 blocks reused
func.func @r_loop_carried_block_kept(%a0: tensor<?xi32>, %s0: i32) -> (tensor<?xi32>, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1, %s1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0, %acc = %s0) -> (tensor<?xi32>, i32) {
    %v = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %u = soac.map(%b0, %v) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32, %y: i32):
      %z = arith.muli %x, %y : i32
      soac.yield %z : i32
    }
    %s = soac.reduce(%u) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb0(%l: i32, %r: i32):
      %t = arith.addi %l, %r : i32
      soac.yield %t : i32
    }
    %acc1 = arith.addi %acc, %s : i32
    scf.yield %v, %acc1 : tensor<?xi32>, i32
  }
  %last = soac.index %a0[%c0] : tensor<?xi32>
  func.return %a1, %s1, %last : tensor<?xi32>, i32, i32
}

// -----

// R-loop-into-destination (past the study: its L2, Fig 9.4 ixfun-merge-param, which it
// left disabled): the loop's result is the second half of a concat. The loop starts
// from a copy of a0 made in x's second half (x's block moves above the loop) and
// iterates there in place (the map reads b0[i] before writing b1[i]); b1's block,
// made every iteration, and the copy of a1 into x go. Two device blocks, a0's and x's.
// CHECK-LABEL: func.func @r_loop_into_destination(
// CHECK:         %x_mem = mem.alloc
// CHECK:         %a1 = mem.slice %x[
// CHECK-NEXT:    mem.copy %a0, %a1
// CHECK-NEXT:    scf.for %i = %c0 to {{%[0-9]+}} step %c1 {
// CHECK:           mem.map ins(%a1 : {{.*}}) outs(%a1 :
// COUNT-LABEL: @r_loop_into_destination(
// COUNT-NEXT: %a0_mem = mem.alloc
// COUNT-NEXT: mem.copy %a0_host, %a0 :
// COUNT-NEXT: %x_mem = mem.alloc
// COUNT-NEXT: mem.copy %a0, %a1 :
// COUNT-NEXT: mem.copy %a0, {{%[0-9]+}} :
// COUNT-NEXT: %x_host_mem = mem.alloc
// REPORT: memory-reuse: @r_loop_into_destination: 1 blocks reused (colouring), 4*dim(%a0_host, 0) bytes no longer allocated
// REPORT-NEXT: memory-reuse: @r_loop_into_destination: %b1_mem reuses part of %x_mem (the loop iterates in its destination) (4*dim(%a0_host, 0) bytes)
// NOLOOP-LABEL: func.func @r_loop_into_destination(
// NOLOOP:         scf.for
// NOLOOP:           %b1_mem = mem.alloc
func.func @r_loop_into_destination(%a0: tensor<?xi32>) -> tensor<?xi32> {
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
  %x = soac.concat %a0, %a1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %x : tensor<?xi32>
}

// -----

// R-loop-into-destination-neg-late-read: the body reads b0 after it writes b1, so the
// loop cannot iterate in place, in its destination or anywhere: it double-buffers and
// its result is copied into x.
// CHECK-LABEL: func.func @r_loop_into_destination_late_read(
// CHECK:         scf.for
// CHECK:           %b1_mem = mem.alloc
// CHECK:         mem.copy %a1, {{%[0-9]+}}
// REPORT: memory-reuse: @r_loop_into_destination_late_read: 0 blocks reused
func.func @r_loop_into_destination_late_read(%a0: tensor<?xi32>) -> tensor<?xi32> {
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
    %first = soac.index %b0[%c0] : tensor<?xi32>
    %b2 = soac.update %b1[%c0] = %first : tensor<?xi32>, i32
    scf.yield %b2 : tensor<?xi32>
  }
  %x = soac.concat %a0, %a1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %x : tensor<?xi32>
}

// -----

// R-loop-into-destination-neg-too-large: x is three times a1. Moving x's block above
// the loop would make it live through the loop at more than twice the body's block,
// whose double buffer is all it would replace: the peak could rise, so the loop keeps
// its own blocks and its result is copied.
// CHECK-LABEL: func.func @r_loop_into_destination_too_large(
// CHECK:         scf.for
// CHECK:           %b1_mem = mem.alloc
// CHECK:         %x_mem = mem.alloc
// CHECK:         mem.copy %a1, {{%[0-9]+}}
// REPORT: memory-reuse: @r_loop_into_destination_too_large: 0 blocks reused
func.func @r_loop_into_destination_too_large(%a0: tensor<?xi32>) -> tensor<?xi32> {
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
  %x = soac.concat %a0, %a1, %a0 : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %x : tensor<?xi32>
}

// -----

// R-loop-into-destination-neg-read-in-body: the body reads m[1][0], the row the loop's
// result is copied into, so the loop may not iterate in that row (it would read its own
// array; a regression test: the wrong result was [15, 16, 17, 18] for row 1). It
// iterates in a0's block instead, which it consumes.
// CHECK-LABEL: func.func @r_loop_into_destination_read_in_body(
// CHECK:         scf.for
// CHECK:         mem.copy %a0, {{%[0-9]+}}
// REPORT: memory-reuse: @r_loop_into_destination_read_in_body: 1 blocks reused
// REPORT-NEXT: memory-reuse: @r_loop_into_destination_read_in_body: %b1_mem reuses %a0_mem (the loop's carried block) (4*dim(%a0_host, 0) bytes)
func.func @r_loop_into_destination_read_in_body(%a0: tensor<?xi32>, %k: index) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %z = arith.constant 0 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %zr = soac.replicate %n, %z : i32 -> tensor<?xi32>
  %m = soac.replicate %k, %zr : tensor<?xi32> -> tensor<?x?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %old = soac.index %m[%c1, %c0] : tensor<?x?xi32>
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      %y1 = arith.addi %y, %old : i32
      soac.yield %y1 : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  %m2 = soac.update %m[%c1] = %a1 : tensor<?x?xi32>, tensor<?xi32>
  func.return %m2 : tensor<?x?xi32>
}

// -----

// R-loop-into-row: the loop's result is written as a row of m, which is made before
// the loop: the loop starts from a copy of a0 in m[1] and iterates there (m does not
// move); the body reads nothing of m.
// CHECK-LABEL: func.func @r_loop_into_row(
// CHECK:         %m_mem = mem.alloc
// CHECK:         %a1 = mem.slice %m[%c1]
// CHECK-NEXT:    mem.copy %a0, %a1
// CHECK-NEXT:    scf.for
// CHECK:           mem.map ins(%a1 : {{.*}}) outs(%a1 :
// REPORT: memory-reuse: @r_loop_into_row: 1 blocks reused
// REPORT-NEXT: memory-reuse: @r_loop_into_row: %b1_mem reuses part of %m_mem (the loop iterates in its destination) (4*dim(%a0_host, 0) bytes)
func.func @r_loop_into_row(%a0: tensor<?xi32>, %k: index) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %z = arith.constant 0 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %zr = soac.replicate %n, %z : i32 -> tensor<?xi32>
  %m = soac.replicate %k, %zr : tensor<?xi32> -> tensor<?x?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  %m2 = soac.update %m[%c1] = %a1 : tensor<?x?xi32>, tensor<?xi32>
  func.return %m2 : tensor<?x?xi32>
}
