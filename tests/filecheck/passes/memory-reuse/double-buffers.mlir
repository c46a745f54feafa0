// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func|scf.for|scf.while|mem.alloc|mem.copy' | filecheck %s --check-prefix=COUNT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{loops=false}' | grep -E 'func.func|scf.for|scf.while|mem.alloc|mem.copy' | filecheck %s --check-prefix=NOLOOP
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func|scf.for|scf.while|mem.alloc|mem.copy' | filecheck %s --check-prefix=FULL
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse{strategy=linear-scan}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{double_buffers=false}' | grep -E 'func.func|scf.for|scf.while|mem.alloc|mem.copy' | filecheck %s --check-prefix=NODB
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{carried_updates=false}' | grep -E 'func.func|scf.for|scf.while|mem.alloc|mem.copy' | filecheck %s --check-prefix=NOCU
// RUNS: builtin.module
//
// memory-reuse: loops past the study, as Futhark's pipeline does them: an in-place
// update of a carried array the body no longer needs (`update_carried_in_place`, the
// whole copy of the carried array goes), and double buffering (`double_buffer`: a body
// that cannot make its next array in the carried block writes it into the block the
// iteration before read from, carried beside it). NOLOOP without the loop steps, FULL
// after short-circuit too, NODB and NOCU with each step off. COUNT lines list every loop, allocation and copy left, in order.

// A row swap: rows p and k of the carried matrix are copied, then written back
// swapped, then every row has its first element subtracted (each lane reads that
// element before the group of threads sharing the row writes it, and a barrier
// follows: the map may build its output in its input's block). The swap updates the
// carried matrix itself, which is dead after the whole copy the lowering makes, and
// the loop then iterates in place (L3): no whole copy, one matrix.
// FULL shows where it is not done: short-circuit builds the copied rows directly in
// the new matrix, so the body reads the carried rows after the whole copy (updating
// in place would overwrite row k before it is read).
// CHECK-LABEL: func.func @swap_rows(
// CHECK:         scf.for %k0 = %c0 to %steps step %c1 {
// CHECK:           mem.copy %rowp, %[[AT_K:.*]] :
// CHECK:           %[[AT_P:.*]] = mem.slice %m0[%p]
// CHECK-NEXT:      mem.copy %rowk, %[[AT_P]] :
// CHECK:           %next = mem.view %m0_mem
// CHECK:           mem.map ins(%m0 : {{.*}}) outs(%next :
// COUNT-LABEL: @swap_rows(
// COUNT-NEXT: %m0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %m0_host, %m0 :
// COUNT-NEXT: scf.for
// COUNT-NEXT: %rowp_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %vp, %rowp :
// COUNT-NEXT: %rowk_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %vk, %rowk :
// COUNT-NEXT: mem.copy %rowp, %{{.*}} :
// COUNT-NEXT: mem.copy %rowk, %{{.*}} :
// COUNT-NEXT: %r_host_mem = mem.alloc {{.*}} : !mem.block<host>
// NOLOOP-LABEL: @swap_rows(
// NOLOOP: scf.for
// NOLOOP: %sw1_mem = mem.alloc
// NOLOOP-NEXT: mem.copy %m, %sw1 :
// NOCU-LABEL: @swap_rows(
// NOCU: scf.for
// NOCU: %sw1_mem = mem.alloc
// NOCU-NEXT: mem.copy %m0, %sw1 :
// FULL-LABEL: @swap_rows(
// FULL: scf.for
// FULL-NEXT: %sw1_mem = mem.alloc
// FULL-NEXT: mem.copy %m0, %sw1 :
// REPORT: memory-reuse: @swap_rows: 1 copies removed from loops
// REPORT: memory-reuse: @swap_rows: %sw1_mem reuses %m's block (the loop's carried array, dead after its copy: updated in place) (4*dim(%m0_host, 0)*dim(%m0_host, 1) bytes)
// REPORT: memory-reuse: @swap_rows: %next_mem reuses %m0_mem (the loop's carried block) (4*dim(%m0_host, 0)*dim(%m0_host, 1) bytes)
func.func @swap_rows(%m0: tensor<?x?xf32>, %steps: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %m0[0] : tensor<?x?xf32>
  %last = arith.subi %n, %c1 : index
  %r = scf.for %k0 = %c0 to %steps step %c1 iter_args(%m = %m0) -> (tensor<?x?xf32>) {
    %k = arith.remui %k0, %n : index
    %p = arith.subi %last, %k : index
    %vp = soac.index %m[%p] : tensor<?x?xf32>
    %vk = soac.index %m[%k] : tensor<?x?xf32>
    %rowp = soac.copy %vp : tensor<?xf32>
    %rowk = soac.copy %vk : tensor<?xf32>
    %sw1 = soac.update %m[%k] = %rowp : tensor<?x?xf32>, tensor<?xf32>
    %sw2 = soac.update %sw1[%p] = %rowk : tensor<?x?xf32>, tensor<?xf32>
    %next = soac.map(%sw2) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%row: tensor<?xf32>):
      %f = soac.index %row[%c0] : tensor<?xf32>
      %reduced = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%x: f32):
        %d = arith.subf %x, %f : f32
        soac.yield %d : f32
      }
      soac.yield %reduced : tensor<?xf32>
    }
    scf.yield %next : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?xf32>
}


// -----

// Gauss–Jordan's elimination after the swap: row k becomes the pivot row, every other
// row is reduced by it. Alone, memory-reuse makes each lambda's reduced row in a
// scratch row and the loop iterates in place as above. After short-circuit (FULL)
// the lambda builds its row directly in the output, inside a branch, so the map
// cannot build its output in its input's block; short-circuit also put the whole
// copy before the copies of rows p and k out of the carried matrix, and the copy
// moves after them. The loop then carries a second block for the next matrix
// (double buffering): the body allocates no matrix and copies none.
// CHECK-LABEL: func.func @swap_rows_pivot(
// CHECK:         scf.for %k0 = %c0 to %steps step %c1 {
// CHECK:           %next = mem.view %m0_mem
// CHECK:           mem.map ins(%is, %m0 : {{.*}}) outs(%next :
// FULL-LABEL: @swap_rows_pivot(
// FULL-NEXT: %m0_mem = mem.alloc {{.*}} : !mem.block<device>
// FULL-NEXT: mem.copy %m0_host, %m0 :
// FULL-NEXT: %next_mem = mem.alloc {{.*}} : !mem.block<device>
// FULL-NEXT: scf.for {{.*}} iter_args(%m_mem = %m0_mem, %m = %m0, %[[SPARE:.*]] = %next_mem)
// FULL-NEXT: %rowp_mem = mem.alloc
// FULL-NEXT: mem.copy %vp, %rowp :
// FULL-NEXT: %rowk_mem = mem.alloc
// FULL-NEXT: mem.copy %vk, %rowk :
// FULL-NEXT: mem.copy %rowp, %{{.*}} :
// FULL-NEXT: mem.copy %rowk, %{{.*}} :
// FULL-NEXT: mem.copy %rowp, %next_row :
// FULL-NEXT: %r_host_mem = mem.alloc
// REPORT: memory-reuse: @swap_rows_pivot: 1 copies removed from loops
// REPORT: memory-reuse: @swap_rows_pivot: %sw1_mem reuses %m's block (the loop's carried array, dead after its copy: updated in place) (4*dim(%m0_host, 0)*dim(%m0_host, 1) bytes)
// REPORT: memory-reuse: @swap_rows_pivot: %next_mem reuses %m0_mem (the loop's carried block) (4*dim(%m0_host, 0)*dim(%m0_host, 1) bytes)
func.func @swap_rows_pivot(%m0: tensor<?x?xf32>, %steps: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %m0[0] : tensor<?x?xf32>
  %last = arith.subi %n, %c1 : index
  %r = scf.for %k0 = %c0 to %steps step %c1 iter_args(%m = %m0) -> (tensor<?x?xf32>) {
    %k = arith.remui %k0, %n : index
    %p = arith.subi %last, %k : index
    %vp = soac.index %m[%p] : tensor<?x?xf32>
    %vk = soac.index %m[%k] : tensor<?x?xf32>
    %rowp = soac.copy %vp : tensor<?xf32>
    %rowk = soac.copy %vk : tensor<?xf32>
    %sw1 = soac.update %m[%k] = %rowp : tensor<?x?xf32>, tensor<?xf32>
    %sw2 = soac.update %sw1[%p] = %rowk : tensor<?x?xf32>, tensor<?xf32>
    %is = soac.iota %n : tensor<?xindex>
    %next = soac.map(%is, %sw2) : (tensor<?xindex>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%i: index, %row: tensor<?xf32>):
      %isk = arith.cmpi eq, %i, %k : index
      %new = scf.if %isk -> (tensor<?xf32>) {
        scf.yield %rowp : tensor<?xf32>
      } else {
        %f = soac.index %row[%k] : tensor<?xf32>
        %reduced = soac.map(%row, %rowp) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
        ^bb1(%x: f32, %y: f32):
          %fy = arith.mulf %f, %y : f32
          %d = arith.subf %x, %fy : f32
          soac.yield %d : f32
        }
        scf.yield %reduced : tensor<?xf32>
      }
      soac.yield %new : tensor<?xf32>
    }
    scf.yield %next : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// The swap where the matrix the loop starts from is also returned: the loop may not
// overwrite it, so the whole copy stays (one before the loop would do, but its sizes
// are the carried matrix's, known only in the body), and no second block is carried.
// COUNT-LABEL: @swap_rows_kept(
// COUNT-NEXT: %m0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %m0_host, %m0 :
// COUNT-NEXT: scf.for
// COUNT: %sw1_mem = mem.alloc
// COUNT-NEXT: mem.copy %m, %sw1 :
// REPORT-NOT: @swap_rows_kept: 1 copies removed
// REPORT-NOT: @swap_rows_kept: {{.*}} double buffering
func.func @swap_rows_kept(%m0: tensor<?x?xf32>, %steps: index) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %m0[0] : tensor<?x?xf32>
  %last = arith.subi %n, %c1 : index
  %r = scf.for %k0 = %c0 to %steps step %c1 iter_args(%m = %m0) -> (tensor<?x?xf32>) {
    %k = arith.remui %k0, %n : index
    %p = arith.subi %last, %k : index
    %vp = soac.index %m[%p] : tensor<?x?xf32>
    %vk = soac.index %m[%k] : tensor<?x?xf32>
    %rowp = soac.copy %vp : tensor<?xf32>
    %rowk = soac.copy %vk : tensor<?xf32>
    %sw1 = soac.update %m[%k] = %rowp : tensor<?x?xf32>, tensor<?xf32>
    %sw2 = soac.update %sw1[%p] = %rowk : tensor<?x?xf32>, tensor<?xf32>
    %next = soac.map(%sw2) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%row: tensor<?xf32>):
      %f = soac.index %row[%c0] : tensor<?xf32>
      %reduced = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%x: f32):
        %d = arith.subf %x, %f : f32
        soac.yield %d : f32
      }
      soac.yield %reduced : tensor<?xf32>
    }
    scf.yield %next : tensor<?x?xf32>
  }
  func.return %r, %m0 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// The carried matrix is read after its copy (its old first row is summed into the
// result): it is not dead, so the whole copy stays in the loop. The next matrix is
// still double-buffered.
// COUNT-LABEL: @read_after_copy(
// COUNT: scf.for
// COUNT: %sw1_mem = mem.alloc
// COUNT-NEXT: mem.copy %m, %sw1 :
// COUNT-NOT: %next_mem = mem.alloc
// COUNT: %r_host_mem = mem.alloc
// REPORT-NOT: @read_after_copy: 1 copies removed
// REPORT: memory-reuse: @read_after_copy: %next_mem reuses %m_mem of the iteration before (double buffering
func.func @read_after_copy(%m0: tensor<?x?xf32>, %steps: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %m0[0] : tensor<?x?xf32>
  %last = arith.subi %n, %c1 : index
  %r = scf.for %k0 = %c0 to %steps step %c1 iter_args(%m = %m0) -> (tensor<?x?xf32>) {
    %k = arith.remui %k0, %n : index
    %vk = soac.index %m[%last] : tensor<?x?xf32>
    %rowk = soac.copy %vk : tensor<?xf32>
    %sw1 = soac.update %m[%k] = %rowk : tensor<?x?xf32>, tensor<?xf32>
    %first = soac.index %m[%c0] : tensor<?x?xf32>
    %next = soac.map(%sw1, %first) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32> {
    ^bb0(%row: tensor<?xf32>, %g: f32):
      %f = soac.index %row[%c0] : tensor<?xf32>
      %reduced = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%x: f32):
        %d = arith.subf %x, %f : f32
        %e = arith.addf %d, %g : f32
        soac.yield %e : f32
      }
      soac.yield %reduced : tensor<?xf32>
    }
    scf.yield %next : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// A stencil: each element of the next vector reads two of the carried one, so it
// cannot be made in the carried block; it is made in the block the iteration before
// read from. NOLOOP allocates it in every iteration.
// CHECK-LABEL: func.func @stencil(
// CHECK:         %y_mem = mem.alloc
// CHECK-NEXT:    %r_mem, %r, %{{.*}} = scf.for %it = %c0 to %steps step %c1 iter_args(%x_mem = %x0_mem, %x = %x0, %[[SPARE:.*]] = %y_mem)
// CHECK:           %y = mem.view %[[SPARE]]
// CHECK:           scf.yield %[[SPARE]], %y, %x_mem :
// COUNT-LABEL: @stencil(
// COUNT-NEXT: %x0_mem = mem.alloc
// COUNT-NEXT: mem.copy %x0_host, %x0 :
// COUNT-NEXT: %y_mem = mem.alloc
// COUNT-NEXT: scf.for
// COUNT-NEXT: %is_mem = mem.alloc
// COUNT-NEXT: %r_host_mem = mem.alloc
// NODB-LABEL: @stencil(
// NODB: scf.for
// NODB-NEXT: %is_mem = mem.alloc
// NODB-NEXT: %y_mem = mem.alloc
// NOLOOP-LABEL: @stencil(
// NOLOOP: scf.for
// NOLOOP-NEXT: %is_mem = mem.alloc
// NOLOOP-NEXT: %y_mem = mem.alloc
// REPORT: memory-reuse: @stencil: %y_mem reuses %x_mem of the iteration before (double buffering: the loop carries two blocks) (4*dim(%x0_host, 0) bytes)
func.func @stencil(%x0: tensor<?xf32>, %steps: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %x0[0] : tensor<?xf32>
  %last = arith.subi %n, %c1 : index
  %r = scf.for %it = %c0 to %steps step %c1 iter_args(%x = %x0) -> (tensor<?xf32>) {
    %is = soac.iota %n : tensor<?xindex>
    %y = soac.map(%is) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb0(%i: index):
      %j = arith.addi %i, %c1 : index
      %k = arith.minui %j, %last : index
      %a = soac.index %x[%i] : tensor<?xf32>
      %b = soac.index %x[%k] : tensor<?xf32>
      %s = arith.addf %a, %b : f32
      soac.yield %s : f32
    }
    scf.yield %y : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// -----

// The stencil where the vector the loop starts from is also returned: the loop may
// not write into its block, and a spare block would cost as much as the allocation it
// saves: the body allocates its next vector as before.
// COUNT-LABEL: @stencil_kept(
// COUNT-NEXT: %x0_mem = mem.alloc
// COUNT-NEXT: mem.copy %x0_host, %x0 :
// COUNT-NEXT: scf.for
// COUNT-NEXT: %is_mem = mem.alloc
// COUNT-NEXT: %y_mem = mem.alloc
// REPORT-NOT: @stencil_kept: {{.*}} double buffering
func.func @stencil_kept(%x0: tensor<?xf32>, %steps: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %x0[0] : tensor<?xf32>
  %last = arith.subi %n, %c1 : index
  %r = scf.for %it = %c0 to %steps step %c1 iter_args(%x = %x0) -> (tensor<?xf32>) {
    %is = soac.iota %n : tensor<?xindex>
    %y = soac.map(%is) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb0(%i: index):
      %j = arith.addi %i, %c1 : index
      %k = arith.minui %j, %last : index
      %a = soac.index %x[%i] : tensor<?xf32>
      %b = soac.index %x[%k] : tensor<?xf32>
      %s = arith.addf %a, %b : f32
      soac.yield %s : f32
    }
    scf.yield %y : tensor<?xf32>
  }
  func.return %r, %x0 : tensor<?xf32>, tensor<?xf32>
}

// -----

// A while loop is not double-buffered: one whose condition is on the device runs as a
// device loop, which carries its arrays in blocks of its own.
// COUNT-LABEL: @stencil_while(
// COUNT-NEXT: %x0_mem = mem.alloc
// COUNT-NEXT: mem.copy %x0_host, %x0 :
// COUNT-NEXT: scf.while
// COUNT: %y_mem = mem.alloc
// REPORT-NOT: @stencil_while: {{.*}} double buffering
func.func @stencil_while(%x0: tensor<?xf32>, %steps: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %x0[0] : tensor<?xf32>
  %last = arith.subi %n, %c1 : index
  %r:2 = scf.while (%it = %c0, %x = %x0) : (index, tensor<?xf32>) -> (index, tensor<?xf32>) {
    %go = arith.cmpi ult, %it, %steps : index
    scf.condition(%go) %it, %x : index, tensor<?xf32>
  } do {
  ^bb0(%i0: index, %xb: tensor<?xf32>):
    %is = soac.iota %n : tensor<?xindex>
    %y = soac.map(%is) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb1(%i: index):
      %j = arith.addi %i, %c1 : index
      %k = arith.minui %j, %last : index
      %a = soac.index %xb[%i] : tensor<?xf32>
      %b = soac.index %xb[%k] : tensor<?xf32>
      %s = arith.addf %a, %b : f32
      soac.yield %s : f32
    }
    %next = arith.addi %i0, %c1 : index
    scf.yield %next, %y : index, tensor<?xf32>
  }
  func.return %r#1 : tensor<?xf32>
}
