// RUN: soacc-opt %s -p convert-soac-to-mem --split-input-file | filecheck %s

// convert-soac-to-mem (lowering/convert_soac_to_mem.py): one chunk per bufferisation
// rule of the module docstring. The failure cases (programs the pass rejects) are in
// convert-soac-to-mem-errors.mlir: with --split-input-file a chunk that fails aborts
// the whole run unless --verify-diagnostics is given, so they cannot share this file.

// Rule 1: entry-point transfers. An array argument arrives as a (host block, host
// view) pair; where it is used it gets a device block (alloc of elements * bytes), a
// device view of it and a host -> device copy. An array result is copied into a fresh
// host block and returned as a (block, view) pair; scalars pass through. The level-1
// signature is kept in soacc.entry_signature.

// CHECK-LABEL: func.func @entry_transfers(
// CHECK-SAME:    [[AHM:%[a-z0-9_]+]]: !mem.block<host>, [[AH:%[a-z0-9_]+]]: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, [[S:%[a-z0-9_]+]]: f32)
// CHECK-SAME:    -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, f32)
// CHECK-SAME:    attributes {soacc.entry_signature = (tensor<?xf32>, f32) -> (tensor<?xf32>, f32)} {
// CHECK-NEXT:    [[N:%[a-z0-9_]+]] = mem.size [[AH]][0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
// CHECK-NEXT:    [[EB:%[a-z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:    [[BYTES:%[a-z0-9_]+]] = arith.muli [[N]], [[EB]] overflow<nsw> : index
// CHECK-NEXT:    [[AM:%[a-z0-9_]+]] = mem.alloc [[BYTES]] : !mem.block<device>
// CHECK-NEXT:    [[OFF:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[A:%[a-z0-9_]+]] = mem.view [[AM]]{{\[}}[[OFF]]{{\]}} sizes([[N]]) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.copy [[AH]], [[A]] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    [[M:%[a-z0-9_]+]] = mem.size [[A]][0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    [[EB2:%[a-z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:    [[RBYTES:%[a-z0-9_]+]] = arith.muli [[M]], [[EB2]] overflow<nsw> : index
// CHECK-NEXT:    [[RHM:%[a-z0-9_]+]] = mem.alloc [[RBYTES]] : !mem.block<host>
// CHECK-NEXT:    [[OFF2:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[RH:%[a-z0-9_]+]] = mem.view [[RHM]]{{\[}}[[OFF2]]{{\]}} sizes([[M]]) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
// CHECK-NEXT:    mem.copy [[A]], [[RH]] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
// CHECK-NEXT:    func.return [[RHM]], [[RH]], [[S]] : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, f32
// CHECK-NEXT:  }
func.func @entry_transfers(%a: tensor<?xf32>, %s: f32) -> (tensor<?xf32>, f32) {
  func.return %a, %s : tensor<?xf32>, f32
}

// An unused array argument is still a (host block, host view) pair, but is never
// copied to the device.

// CHECK-LABEL: func.func @unused_array_argument(
// CHECK-SAME:    [[UM:%[a-z0-9_]+]]: !mem.block<host>, [[U:%[a-z0-9_]+]]: memref<?xi32, strided<[?], offset: ?>, #mem.space<host>>, [[X:%[a-z0-9_]+]]: i32) -> i32
// CHECK-SAME:    attributes {soacc.entry_signature = (tensor<?xi32>, i32) -> i32} {
// CHECK-NOT:     mem.
// CHECK-NEXT:    func.return [[X]] : i32
func.func @unused_array_argument(%unused: tensor<?xi32>, %x: i32) -> i32 {
  func.return %x : i32
}

// -----

// Rule 2: a map's outputs are allocated (mem.alloc of elements * element bytes, then a
// mem.view with the dynamic sizes) and the map becomes mem.map ins(...) outs(...);
// lambdas with scalar rows yield scalars.

// CHECK-LABEL: func.func @map_allocates_outputs(
// CHECK:         [[A:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK:         [[B:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.copy
// CHECK-NEXT:    [[N1:%[a-z0-9_]+]] = mem.size [[A]][0]
// CHECK-NEXT:    [[EB1:%[a-z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:    [[BY1:%[a-z0-9_]+]] = arith.muli [[N1]], [[EB1]] overflow<nsw> : index
// CHECK-NEXT:    [[SUMM:%[a-z0-9_]+]] = mem.alloc [[BY1]] : !mem.block<device>
// CHECK-NEXT:    [[O1:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[SUM:%[a-z0-9_]+]] = mem.view [[SUMM]]{{\[}}[[O1]]{{\]}} sizes([[N1]]) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    [[N2:%[a-z0-9_]+]] = mem.size [[A]][0]
// CHECK-NEXT:    [[EB2:%[a-z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:    [[BY2:%[a-z0-9_]+]] = arith.muli [[N2]], [[EB2]] overflow<nsw> : index
// CHECK-NEXT:    [[LTM:%[a-z0-9_]+]] = mem.alloc [[BY2]] : !mem.block<device>
// CHECK-NEXT:    [[O2:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[LT:%[a-z0-9_]+]] = mem.view [[LTM]]{{\[}}[[O2]]{{\]}} sizes([[N2]]) : !mem.block<device> -> memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.map ins([[A]], [[B]] : memref<?xf32, {{.*}}>, memref<?xf32, {{.*}}>) outs([[SUM]], [[LT]] : memref<?xf32, {{.*}}>, memref<?xi1, {{.*}}>) {
// CHECK-NEXT:    ^bb0([[X:%[a-z0-9_]+]]: f32, [[Y:%[a-z0-9_]+]]: f32):
// CHECK-NEXT:      [[XY:%[a-z0-9_]+]] = arith.addf [[X]], [[Y]] : f32
// CHECK-NEXT:      [[C:%[a-z0-9_]+]] = arith.cmpf olt, [[X]], [[Y]] : f32
// CHECK-NEXT:      mem.yield [[XY]], [[C]] : f32, i1
// CHECK-NEXT:    }
// CHECK-NOT:     mem.alloc {{.*}} : !mem.block<device>
// CHECK:         func.return
func.func @map_allocates_outputs(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
  %sum, %lt = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %c = arith.cmpf olt, %x, %y : f32
    soac.yield %s, %c : f32, i1
  }
  func.return %sum, %lt : tensor<?xf32>, tensor<?xi1>
}

// -----

// Rule 3: a host-level reduce writes into a 0-d device view; its result, used by host
// code, becomes a mem.load (a synchronous device -> host read). A reduce whose result
// is unused gets no mem.load.

// CHECK-LABEL: func.func @reduce_at_host_level(
// CHECK-SAME:    [[Z:%[a-z0-9_]+]]: f64) -> f64
// CHECK:         [[A:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.copy
// CHECK-NEXT:    [[EB:%[a-z0-9_]+]] = arith.constant 8 : index
// CHECK-NEXT:    [[RM:%[a-z0-9_]+]] = mem.alloc [[EB]] : !mem.block<device>
// CHECK-NEXT:    [[O:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[RD:%[a-z0-9_]+]] = mem.view [[RM]]{{\[}}[[O]]{{\]}} : !mem.block<device> -> memref<f64, strided<[], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.reduce ins([[A]] : memref<?xf64, {{.*}}>) neutral([[Z]] : f64) commutative outs([[RD]] : memref<f64, strided<[], offset: ?>, #mem.space<device>>) {
// CHECK:           mem.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    [[R:%[a-z0-9_]+]] = mem.load [[RD]][] : memref<f64, strided<[], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    [[EB2:%[a-z0-9_]+]] = arith.constant 8 : index
// CHECK-NEXT:    [[UM:%[a-z0-9_]+]] = mem.alloc [[EB2]] : !mem.block<device>
// CHECK-NEXT:    [[O2:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[UD:%[a-z0-9_]+]] = mem.view [[UM]]{{\[}}[[O2]]{{\]}} : !mem.block<device> -> memref<f64, strided<[], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.reduce ins([[A]] : memref<?xf64, {{.*}}>) neutral([[Z]] : f64) outs([[UD]] : memref<f64, {{.*}}>) {
// CHECK:           mem.yield
// CHECK-NEXT:    }
// CHECK-NOT:     mem.load
// CHECK-NEXT:    func.return [[R]] : f64
func.func @reduce_at_host_level(%a: tensor<?xf64>, %z: f64) -> f64 {
  %r = soac.reduce(%a) neutral(%z : f64) commutative : (tensor<?xf64>) -> f64 {
  ^bb0(%p: f64, %q: f64):
    %pq = arith.addf %p, %q : f64
    soac.yield %pq : f64
  }
  %unused = soac.reduce(%a) neutral(%z : f64) : (tensor<?xf64>) -> f64 {
  ^bb0(%p: f64, %q: f64):
    %pq = arith.maximumf %p, %q : f64
    soac.yield %pq : f64
  }
  func.return %r : f64
}

// -----

// Rule 3, inside a lambda: a reduce whose rows are lanes of an enclosing map returns
// its scalar directly (mem.reduce with a result): no 0-d allocation, no mem.load.

// CHECK-LABEL: func.func @reduce_in_lambda(
// CHECK-SAME:    [[Z:%[a-z0-9_]+]]: f64)
// CHECK:         mem.map ins([[M:%[a-z0-9_]+]] : memref<?x8xf64, {{.*}}>) outs([[OUT:%[a-z0-9_]+]] : memref<?xf64, {{.*}}>) {
// CHECK-NEXT:    ^bb0([[ROW:%[a-z0-9_]+]]: memref<8xf64, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:      [[RS:%[a-z0-9_]+]] = mem.reduce ins([[ROW]] : memref<8xf64, {{.*}}>) neutral([[Z]] : f64) commutative -> f64 {
// CHECK:             mem.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      mem.yield [[RS]] : f64
// CHECK-NEXT:    }
func.func @reduce_in_lambda(%m: tensor<?x8xf64>, %z: f64) -> tensor<?xf64> {
  %sums = soac.map(%m) : (tensor<?x8xf64>) -> tensor<?xf64> {
  ^bb0(%row: tensor<8xf64>):
    %rs = soac.reduce(%row) neutral(%z : f64) commutative : (tensor<8xf64>) -> f64 {
    ^bb1(%p: f64, %q: f64):
      %pq = arith.addf %p, %q : f64
      soac.yield %pq : f64
    }
    soac.yield %rs : f64
  }
  func.return %sums : tensor<?xf64>
}

// -----

// Rule 4: a host-level soac.index of a scalar becomes a mem.load from the device view.

// CHECK-LABEL: func.func @index_at_host_level(
// CHECK-SAME:    [[I:%[a-z0-9_]+]]: index, [[J:%[a-z0-9_]+]]: index) -> i64
// CHECK:         [[A:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?x4xi64, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.copy
// CHECK-NEXT:    [[E:%[a-z0-9_]+]] = mem.load [[A]]{{\[}}[[I]], [[J]]{{\]}} : memref<?x4xi64, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    func.return [[E]] : i64
func.func @index_at_host_level(%a: tensor<?x4xi64>, %i: index, %j: index) -> i64 {
  %e = soac.index %a[%i, %j] : tensor<?x4xi64>
  func.return %e : i64
}

// -----

// Rule 5: in-place update. The source of soac.update is made in the same block and
// has no other use: the value is stored into the source's own view, with no new
// allocation and no copy.

// CHECK-LABEL: func.func @update_in_place(
// CHECK-SAME:    [[N:%[a-z0-9_]+]]: index, [[I:%[a-z0-9_]+]]: index, [[X:%[a-z0-9_]+]]: f32, [[Y:%[a-z0-9_]+]]: f32)
// CHECK:         [[ZM:%[a-z0-9_]+]] = mem.alloc {{.*}} : !mem.block<device>
// CHECK-NEXT:    [[O:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[Z:%[a-z0-9_]+]] = mem.view [[ZM]]{{\[}}[[O]]{{\]}} sizes([[N]])
// CHECK-NEXT:    mem.fill [[X]], [[Z]]
// CHECK-NOT:     mem.alloc
// CHECK-NOT:     mem.copy
// CHECK-NEXT:    mem.store [[Y]], [[Z]]{{\[}}[[I]]{{\]}} : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// the result leaves from the same view
// CHECK-NOT:     mem.alloc {{.*}} : !mem.block<device>
// CHECK:         mem.copy [[Z]], {{%[a-z0-9_]+}} : memref<?xf32, {{.*}}#mem.space<device>>, memref<?xf32, {{.*}}#mem.space<host>>
func.func @update_in_place(%n: index, %i: index, %x: f32, %y: f32) -> tensor<?xf32> {
  %z = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %u = soac.update %z[%i] = %y : tensor<?xf32>, f32
  func.return %u : tensor<?xf32>
}

// An entry point's array argument is the program's own device copy: with no other use
// it is updated in place too.

// CHECK-LABEL: func.func @update_entry_argument_in_place(
// CHECK-SAME:    [[I:%[a-z0-9_]+]]: index, [[Y:%[a-z0-9_]+]]: f32)
// CHECK:         [[A:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.copy {{%[a-z0-9_]+}}, [[A]] : memref<?xf32, {{.*}}#mem.space<host>>, memref<?xf32, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.store [[Y]], [[A]]{{\[}}[[I]]{{\]}}
// CHECK-NOT:     mem.alloc {{.*}} : !mem.block<device>
// CHECK:         mem.copy [[A]], {{%[a-z0-9_]+}} : memref<?xf32, {{.*}}#mem.space<device>>, memref<?xf32, {{.*}}#mem.space<host>>
func.func @update_entry_argument_in_place(%a: tensor<?xf32>, %i: index, %y: f32) -> tensor<?xf32> {
  %u = soac.update %a[%i] = %y : tensor<?xf32>, f32
  func.return %u : tensor<?xf32>
}

// -----

// Rule 5 with reads first: the update consumes its source, so element reads and sizes
// of it done before the update (in the same block, or inside an op before it) do not
// stop it writing in place. A tridiagonal solve's loop reads b[i - 1] and b[i] and
// then updates b[i]: its array is stored into, never copied, and as the loop then
// yields what it was given, it carries nothing (the array is b throughout).

// CHECK-LABEL: func.func @update_in_place_after_reads(
// CHECK:         [[B:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.fill {{%[a-z0-9_]+}}, [[B]]
// CHECK-NOT:     mem.copy
// CHECK:         scf.for [[I:%[a-z0-9_]+]] = {{.*}} step {{%[a-z0-9_]+}} {
// CHECK-NEXT:      [[IM:%[a-z0-9_]+]] = arith.subi [[I]]
// CHECK-NEXT:      [[P:%[a-z0-9_]+]] = mem.load [[B]]{{\[}}[[IM]]{{\]}}
// CHECK-NEXT:      [[Q:%[a-z0-9_]+]] = mem.load [[B]]{{\[}}[[I]]{{\]}}
// CHECK-NEXT:      [[D:%[a-z0-9_]+]] = arith.subf [[Q]], [[P]]
// CHECK-NEXT:      mem.store [[D]], [[B]]{{\[}}[[I]]{{\]}}
// CHECK-NEXT:    }
// CHECK:         mem.copy [[B]], {{%[a-z0-9_]+}} : {{.*}}#mem.space<host>>
func.func @update_in_place_after_reads(%n: index, %x: f32) -> tensor<?xf32> {
  %c1 = arith.constant 1 : index
  %b = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %m = soac.size %b[0] : tensor<?xf32>
  %r = scf.for %i = %c1 to %m step %c1 iter_args(%bb = %b) -> (tensor<?xf32>) {
    %im = arith.subi %i, %c1 : index
    %p = soac.index %bb[%im] : tensor<?xf32>
    %q = soac.index %bb[%i] : tensor<?xf32>
    %d = arith.subf %q, %p : f32
    %bb2 = soac.update %bb[%i] = %d : tensor<?xf32>, f32
    scf.yield %bb2 : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// The same loop starting from an array it may not overwrite (here one returned as well):
// the start is copied once, before the loop, which then updates the copy in place,
// instead of copying the array in every iteration.

// CHECK-LABEL: func.func @update_loop_copies_its_start_once(
// CHECK:         [[B:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.fill {{%[a-z0-9_]+}}, [[B]]
// CHECK:         [[C:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.copy [[B]], [[C]] : memref<?xf32, {{.*}}#mem.space<device>>, memref<?xf32, {{.*}}#mem.space<device>>
// CHECK-NEXT:    scf.for [[I:%[a-z0-9_]+]] = {{.*}} step {{%[a-z0-9_]+}} {
// CHECK-NOT:       mem.alloc
// CHECK-NOT:       mem.copy
// CHECK:           mem.store {{%[a-z0-9_]+}}, [[C]]{{\[}}[[I]]{{\]}}
// CHECK-NEXT:    }
func.func @update_loop_copies_its_start_once(%n: index, %x: f32) -> (tensor<?xf32>, tensor<?xf32>) {
  %c1 = arith.constant 1 : index
  %b = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %r = scf.for %i = %c1 to %n step %c1 iter_args(%bb = %b) -> (tensor<?xf32>) {
    %im = arith.subi %i, %c1 : index
    %p = soac.index %bb[%im] : tensor<?xf32>
    %bb2 = soac.update %bb[%i] = %p : tensor<?xf32>, f32
    scf.yield %bb2 : tensor<?xf32>
  }
  func.return %r, %b : tensor<?xf32>, tensor<?xf32>
}

// A read after the update would see the new value: the update copies.

// CHECK-LABEL: func.func @update_copies_source_read_after(
// CHECK:         [[Z:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK:         mem.copy [[Z]], [[U:%[a-z0-9_]+]] : memref<?xf32, {{.*}}#mem.space<device>>, memref<?xf32, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.store {{%[a-z0-9_]+}}, [[U]]
// CHECK-NEXT:    mem.load [[Z]]
func.func @update_copies_source_read_after(%n: index, %i: index, %x: f32, %y: f32) -> (tensor<?xf32>, f32) {
  %z = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %u = soac.update %z[%i] = %y : tensor<?xf32>, f32
  %e = soac.index %z[%i] : tensor<?xf32>
  func.return %u, %e : tensor<?xf32>, f32
}

// A slice taken before the update is a view of the source that outlives the read: the
// update copies.

// CHECK-LABEL: func.func @update_copies_source_sliced_before(
// CHECK:         [[Z:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK:         mem.slice [[Z]]
// CHECK:         mem.copy [[Z]], [[U:%[a-z0-9_]+]] : memref<?x?xf32, {{.*}}#mem.space<device>>, memref<?x?xf32, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.store {{%[a-z0-9_]+}}, [[U]]
func.func @update_copies_source_sliced_before(%n: index, %i: index, %x: f32, %y: f32) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %v = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %z = soac.replicate %n, %v : tensor<?xf32> -> tensor<?x?xf32>
  %row = soac.index %z[%i] : tensor<?x?xf32>
  %u = soac.update %z[%i, %i] = %y : tensor<?x?xf32>, f32
  func.return %u, %row : tensor<?x?xf32>, tensor<?xf32>
}

// -----

// Rule 6: copying update, when the source is used again afterwards: a new block of the
// source's size, a device -> device copy, then the store into the copy. The source's
// view is left untouched.

// CHECK-LABEL: func.func @update_copies_source_used_again(
// CHECK-SAME:    [[N:%[a-z0-9_]+]]: index, [[I:%[a-z0-9_]+]]: index, [[X:%[a-z0-9_]+]]: f32, [[Y:%[a-z0-9_]+]]: f32)
// CHECK:         [[Z:%[a-z0-9_]+]] = mem.view {{.*}} sizes([[N]])
// CHECK-NEXT:    mem.fill [[X]], [[Z]]
// CHECK-NEXT:    [[S:%[a-z0-9_]+]] = mem.size [[Z]][0]
// CHECK-NEXT:    [[EB:%[a-z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:    [[BY:%[a-z0-9_]+]] = arith.muli [[S]], [[EB]] overflow<nsw> : index
// CHECK-NEXT:    [[UM:%[a-z0-9_]+]] = mem.alloc [[BY]] : !mem.block<device>
// CHECK-NEXT:    [[O:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[U:%[a-z0-9_]+]] = mem.view [[UM]]{{\[}}[[O]]{{\]}} sizes([[S]])
// CHECK-NEXT:    mem.copy [[Z]], [[U]] : memref<?xf32, {{.*}}#mem.space<device>>, memref<?xf32, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.store [[Y]], [[U]]{{\[}}[[I]]{{\]}}
// CHECK-NOT:     mem.store
// CHECK:         mem.copy [[U]], {{%[a-z0-9_]+}} : {{.*}}#mem.space<host>>
// CHECK:         mem.copy [[Z]], {{%[a-z0-9_]+}} : {{.*}}#mem.space<host>>
func.func @update_copies_source_used_again(%n: index, %i: index, %x: f32, %y: f32) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %u = soac.update %z[%i] = %y : tensor<?xf32>, f32
  func.return %u, %z : tensor<?xf32>, tensor<?xf32>
}

// -----

// Rule 6: copying update, when the source is a parameter of a private function: the
// caller may still hold the array, so the update writes into a copy.

// CHECK-LABEL: func.func private @update_copies_private_parameter(
// CHECK-SAME:    [[VM:%[a-z0-9_]+]]: !mem.block<device>, [[V:%[a-z0-9_]+]]: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, [[Y:%[a-z0-9_]+]]: f32)
// CHECK-SAME:    -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:    [[C0:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[S:%[a-z0-9_]+]] = mem.size [[V]][0]
// CHECK-NEXT:    [[EB:%[a-z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:    [[BY:%[a-z0-9_]+]] = arith.muli [[S]], [[EB]] overflow<nsw> : index
// CHECK-NEXT:    [[UM:%[a-z0-9_]+]] = mem.alloc [[BY]] : !mem.block<device>
// CHECK-NEXT:    [[O:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[U:%[a-z0-9_]+]] = mem.view [[UM]]{{\[}}[[O]]{{\]}} sizes([[S]])
// CHECK-NEXT:    mem.copy [[V]], [[U]]
// CHECK-NEXT:    mem.store [[Y]], [[U]]{{\[}}[[C0]]{{\]}}
// CHECK-NEXT:    func.return [[UM]], [[U]] : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
func.func private @update_copies_private_parameter(%v: tensor<?xf32>, %y: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %u = soac.update %v[%c0] = %y : tensor<?xf32>, f32
  func.return %u : tensor<?xf32>
}

// -----

// Rule 6: copying update, when the source is defined outside the loop the update is
// in: writing in place would change it for every later iteration, so each iteration
// copies it.

// CHECK-LABEL: func.func @update_copies_source_outside_loop(
// CHECK-SAME:    [[Y:%[a-z0-9_]+]]: f32)
// CHECK:         [[Z:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.fill {{%[a-z0-9_]+}}, [[Z]]
// CHECK:         scf.for [[K:%[a-z0-9_]+]] = {{.*}} {
// CHECK-NEXT:      [[S:%[a-z0-9_]+]] = mem.size [[Z]][0]
// CHECK-NEXT:      arith.constant 4 : index
// CHECK-NEXT:      [[BY:%[a-z0-9_]+]] = arith.muli
// CHECK-NEXT:      [[UM:%[a-z0-9_]+]] = mem.alloc [[BY]] : !mem.block<device>
// CHECK-NEXT:      [[O:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:      [[U:%[a-z0-9_]+]] = mem.view [[UM]]{{\[}}[[O]]{{\]}} sizes([[S]])
// CHECK-NEXT:      mem.copy [[Z]], [[U]]
// CHECK-NEXT:      mem.store [[Y]], [[U]]{{\[}}[[K]]{{\]}}
// CHECK-NEXT:      scf.yield [[UM]], [[U]] : !mem.block<device>, memref<?xf32, {{.*}}>
// CHECK-NEXT:    }
func.func @update_copies_source_outside_loop(%n: index, %x: f32, %y: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %init = soac.replicate %n, %y : f32 -> tensor<?xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<?xf32>) {
    %u = soac.update %z[%k] = %y : tensor<?xf32>, f32
    scf.yield %u : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// -----

// Rule 7: scatter in place. The destination is made in this block and has no other
// use: mem.scatter writes into its view, with no allocation or copy.

// CHECK-LABEL: func.func @scatter_in_place(
// CHECK:         [[IDX:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xi32, {{.*}}#mem.space<device>>
// CHECK:         [[VALS:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf64, {{.*}}#mem.space<device>>
// CHECK:         [[D:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf64, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.fill {{%[a-z0-9_]+}}, [[D]]
// CHECK-NOT:     mem.alloc
// CHECK-NOT:     mem.copy
// CHECK-NEXT:    mem.scatter [[D]]{{\[}}[[IDX]]{{\]}} = [[VALS]] : memref<?xf64, {{.*}}>, memref<?xi32, {{.*}}>, memref<?xf64, {{.*}}>
// CHECK-NOT:     mem.alloc {{.*}} : !mem.block<device>
// CHECK:         mem.copy [[D]], {{%[a-z0-9_]+}} : {{.*}}#mem.space<host>>
func.func @scatter_in_place(%n: index, %x: f64, %idx: tensor<?xi32>, %vals: tensor<?xf64>) -> tensor<?xf64> {
  %d = soac.replicate %n, %x : f64 -> tensor<?xf64>
  %s = soac.scatter %d[%idx] = %vals : tensor<?xf64>, tensor<?xi32>, tensor<?xf64>
  func.return %s : tensor<?xf64>
}

// -----

// Rule 7: copying scatter. The destination is used again afterwards: the scatter
// writes into a fresh copy of it.

// CHECK-LABEL: func.func @scatter_copies_destination_used_again(
// CHECK:         [[IDX:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xi32, {{.*}}#mem.space<device>>
// CHECK:         [[VALS:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf64, {{.*}}#mem.space<device>>
// CHECK:         [[D:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf64, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.fill {{%[a-z0-9_]+}}, [[D]]
// CHECK-NEXT:    [[S:%[a-z0-9_]+]] = mem.size [[D]][0]
// CHECK-NEXT:    arith.constant 8 : index
// CHECK-NEXT:    [[BY:%[a-z0-9_]+]] = arith.muli
// CHECK-NEXT:    [[CM:%[a-z0-9_]+]] = mem.alloc [[BY]] : !mem.block<device>
// CHECK-NEXT:    [[O:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[C:%[a-z0-9_]+]] = mem.view [[CM]]{{\[}}[[O]]{{\]}} sizes([[S]])
// CHECK-NEXT:    mem.copy [[D]], [[C]] : memref<?xf64, {{.*}}#mem.space<device>>, memref<?xf64, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.scatter [[C]]{{\[}}[[IDX]]{{\]}} = [[VALS]]
// CHECK:         mem.copy [[C]], {{%[a-z0-9_]+}} : {{.*}}#mem.space<host>>
// CHECK:         mem.copy [[D]], {{%[a-z0-9_]+}} : {{.*}}#mem.space<host>>
func.func @scatter_copies_destination_used_again(%n: index, %x: f64, %idx: tensor<?xi32>, %vals: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
  %d = soac.replicate %n, %x : f64 -> tensor<?xf64>
  %s = soac.scatter %d[%idx] = %vals : tensor<?xf64>, tensor<?xi32>, tensor<?xf64>
  func.return %s, %d : tensor<?xf64>, tensor<?xf64>
}

// -----

// Rule 8: slices, transposes and partial indexes are views of their source: mem.slice,
// mem.transpose and mem.slice of the same view, with no allocation or copy.

// CHECK-LABEL: func.func @views_not_copies(
// CHECK-SAME:    [[O:%[a-z0-9_]+]]: index, [[C:%[a-z0-9_]+]]: index)
// CHECK:         [[M:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.copy {{%[a-z0-9_]+}}, [[M]]
// CHECK-NOT:     mem.alloc
// CHECK-NOT:     mem.copy
// CHECK-NEXT:    [[T:%[a-z0-9_]+]] = mem.transpose [[M]] [1, 0] : memref<?x?xf32, {{.*}}> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    [[S:%[a-z0-9_]+]] = mem.slice [[T]]{{\[}}[[O]]:[[C]], [[O]]{{\]}} : memref<?x?xf32, {{.*}}> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    [[R:%[a-z0-9_]+]] = mem.slice [[M]]{{\[}}[[C]]{{\]}} : memref<?x?xf32, {{.*}}> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    [[E:%[a-z0-9_]+]] = mem.load [[S]]{{\[}}[[O]]{{\]}}
// CHECK-NEXT:    [[F:%[a-z0-9_]+]] = mem.load [[R]]{{\[}}[[O]]{{\]}}
// CHECK-NEXT:    [[EF:%[a-z0-9_]+]] = arith.addf [[E]], [[F]] : f32
// CHECK-NEXT:    func.return [[EF]] : f32
func.func @views_not_copies(%m: tensor<?x?xf32>, %o: index, %c: index) -> f32 {
  %t = soac.transpose %m [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %s = soac.slice %t[%o:%c, %o] : tensor<?x?xf32> -> tensor<?xf32>
  %row = soac.index %m[%c] : tensor<?x?xf32>
  %e = soac.index %s[%o] : tensor<?xf32>
  %f = soac.index %row[%o] : tensor<?xf32>
  %ef = arith.addf %e, %f : f32
  func.return %ef : f32
}

// -----

// Rule 9: scf.if with an array result yields a (block, view) pair: the block of the
// result is existential (whichever branch ran). No copy is inserted to unify them.

// CHECK-LABEL: func.func @if_yields_block_and_view(
// CHECK-SAME:    [[P:%[a-z0-9_]+]]: i1
// CHECK:         [[AM:%[a-z0-9_]+]] = mem.alloc {{.*}} : !mem.block<device>
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    [[A:%[a-z0-9_]+]] = mem.view [[AM]]
// CHECK-NEXT:    mem.copy {{%[a-z0-9_]+}}, [[A]]
// CHECK-NEXT:    [[RM:%[a-z0-9_]+]], [[R:%[a-z0-9_]+]] = scf.if [[P]] -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:      scf.yield [[AM]], [[A]] : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    } else {
// CHECK:           [[ZM:%[a-z0-9_]+]] = mem.alloc {{.*}} : !mem.block<device>
// CHECK-NEXT:      arith.constant 0 : index
// CHECK-NEXT:      [[Z:%[a-z0-9_]+]] = mem.view [[ZM]]
// CHECK-NEXT:      mem.fill {{%[a-z0-9_]+}}, [[Z]]
// CHECK-NEXT:      scf.yield [[ZM]], [[Z]] : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    }
// CHECK-NEXT:    mem.size [[R]][0]
// CHECK-NOT:     mem.copy {{.*}}#mem.space<device>>, memref<?xf32, {{.*}}#mem.space<device>>
// CHECK:         mem.copy [[R]], {{%[a-z0-9_]+}} : {{.*}}#mem.space<host>>
func.func @if_yields_block_and_view(%p: i1, %a: tensor<?xf32>, %n: index, %x: f32) -> tensor<?xf32> {
  %r = scf.if %p -> (tensor<?xf32>) {
    scf.yield %a : tensor<?xf32>
  } else {
    %z = soac.replicate %n, %x : f32 -> tensor<?xf32>
    scf.yield %z : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// -----

// Rule 10: scf.for carries an array as a (block, view) pair of iter_args: each
// iteration yields the block and view of the array it made. (A loop that updates its
// array in place yields what it was given, and carries nothing: see
// update_in_place_after_reads.)

// CHECK-LABEL: func.func @for_carries_block_and_view(
// CHECK-SAME:    [[X:%[a-z0-9_]+]]: f32)
// CHECK:         [[IM:%[a-z0-9_]+]] = mem.alloc {{.*}} : !mem.block<device>
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    [[I:%[a-z0-9_]+]] = mem.view [[IM]]
// CHECK-NEXT:    mem.fill [[X]], [[I]]
// CHECK-NEXT:    [[RM:%[a-z0-9_]+]], [[R:%[a-z0-9_]+]] = scf.for [[K:%[a-z0-9_]+]] = {{%[a-z0-9_]+}} to {{%[a-z0-9_]+}} step {{%[a-z0-9_]+}} iter_args([[ACCM:%[a-z0-9_]+]] = [[IM]], [[ACC:%[a-z0-9_]+]] = [[I]]) -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK:           [[UM:%[a-z0-9_]+]] = mem.alloc {{.*}} : !mem.block<device>
// CHECK:           [[U:%[a-z0-9_]+]] = mem.view [[UM]]
// CHECK-NEXT:      mem.map ins([[ACC]] : {{.*}}) outs([[U]] :
// CHECK:           scf.yield [[UM]], [[U]] : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    }
// CHECK-NEXT:    mem.size [[R]][0]
func.func @for_carries_block_and_view(%n: index, %x: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<?xf32>) {
    %u = soac.map(%acc) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32):
      %f = arith.addf %e, %x : f32
      soac.yield %f : f32
    }
    scf.yield %u : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// -----

// Rule 11: scf.while carries an array as a (block, view) pair, through the before
// region, scf.condition, the after region and scf.yield, and returns the pair.
// (The update in the body currently writes into a copy: in-place updates of a
// while-carried array are not attempted, so that is not checked here.)

// CHECK-LABEL: func.func @while_carries_block_and_view(
// CHECK:         [[IM:%[a-z0-9_]+]] = mem.alloc {{.*}} : !mem.block<device>
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    [[I:%[a-z0-9_]+]] = mem.view [[IM]]
// CHECK-NEXT:    mem.fill {{%[a-z0-9_]+}}, [[I]]
// CHECK-NEXT:    [[RM:%[a-z0-9_]+]], [[R:%[a-z0-9_]+]], {{%[a-z0-9_]+}} = scf.while ([[V0M:%[a-z0-9_]+]] = [[IM]], [[V0:%[a-z0-9_]+]] = [[I]], [[K0:%[a-z0-9_]+]] = {{%[a-z0-9_]+}}) : (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index) -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index) {
// CHECK-NEXT:      [[GO:%[a-z0-9_]+]] = arith.cmpi ult, [[K0]], {{%[a-z0-9_]+}} : index
// CHECK-NEXT:      scf.condition([[GO]]) [[V0M]], [[V0]], [[K0]] : !mem.block<device>, memref<?xf32, {{.*}}>, index
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0([[VM:%[a-z0-9_]+]]: !mem.block<device>, [[V:%[a-z0-9_]+]]: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, [[K:%[a-z0-9_]+]]: index):
// CHECK:           mem.store {{%[a-z0-9_]+}}, [[U:%[a-z0-9_]+]]{{\[}}[[K]]{{\]}}
// CHECK-NEXT:      [[K1:%[a-z0-9_]+]] = arith.addi [[K]], {{%[a-z0-9_]+}} : index
// CHECK-NEXT:      scf.yield [[UM:%[a-z0-9_]+]], [[U]], [[K1]] : !mem.block<device>, memref<?xf32, {{.*}}>, index
// CHECK-NEXT:    }
// CHECK-NEXT:    mem.size [[R]][0]
func.func @while_carries_block_and_view(%n: index, %x: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %r, %k = scf.while (%v0 = %init, %i0 = %c0) : (tensor<?xf32>, index) -> (tensor<?xf32>, index) {
    %go = arith.cmpi ult, %i0, %n : index
    scf.condition(%go) %v0, %i0 : tensor<?xf32>, index
  } do {
  ^bb0(%v: tensor<?xf32>, %i: index):
    %u = soac.update %v[%i] = %x : tensor<?xf32>, f32
    %i1 = arith.addi %i, %c1 : index
    scf.yield %u, %i1 : tensor<?xf32>, index
  }
  func.return %r : tensor<?xf32>
}

// -----

// Rule 12: a map whose rows are arrays. The whole output is allocated outside the
// lambda; each output row is a lambda parameter, and the inner soac.map that makes the
// yielded row writes directly into it (its outs is the row parameter): no allocation
// inside the lambda.

// CHECK-LABEL: func.func @map_builds_rows_in_place(
// CHECK-SAME:    [[KK:%[a-z0-9_]+]]: i64)
// CHECK:         [[M:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.copy
// CHECK-NEXT:    [[D0:%[a-z0-9_]+]] = mem.size [[M]][0]
// CHECK-NEXT:    [[D1:%[a-z0-9_]+]] = mem.size [[M]][1]
// CHECK-NEXT:    [[B0:%[a-z0-9_]+]] = arith.muli [[D0]], [[D1]] overflow<nsw> : index
// CHECK-NEXT:    [[EB:%[a-z0-9_]+]] = arith.constant 8 : index
// CHECK-NEXT:    [[B1:%[a-z0-9_]+]] = arith.muli [[B0]], [[EB]] overflow<nsw> : index
// CHECK-NEXT:    [[RM:%[a-z0-9_]+]] = mem.alloc [[B1]] : !mem.block<device>
// CHECK-NEXT:    [[O:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[R:%[a-z0-9_]+]] = mem.view [[RM]]{{\[}}[[O]]{{\]}} sizes([[D0]], [[D1]])
// CHECK-NEXT:    mem.map ins([[M]] : memref<?x?xi64, {{.*}}>) outs([[R]] : memref<?x?xi64, {{.*}}>) {
// CHECK-NEXT:    ^bb0([[ROW:%[a-z0-9_]+]]: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, [[OUT:%[a-z0-9_]+]]: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-NOT:       mem.alloc
// CHECK-NEXT:      mem.map ins([[ROW]] : memref<?xi64, {{.*}}>) outs([[OUT]] : memref<?xi64, {{.*}}>) {
// CHECK-NEXT:      ^bb0([[E:%[a-z0-9_]+]]: i64):
// CHECK-NEXT:        [[EK:%[a-z0-9_]+]] = arith.muli [[E]], [[KK]] : i64
// CHECK-NEXT:        mem.yield [[EK]] : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      mem.yield [[OUT]] : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    }
func.func @map_builds_rows_in_place(%m: tensor<?x?xi64>, %k: i64) -> tensor<?x?xi64> {
  %r = soac.map(%m) : (tensor<?x?xi64>) -> tensor<?x?xi64> {
  ^bb0(%row: tensor<?xi64>):
    %inner = soac.map(%row) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%e: i64):
      %ek = arith.muli %e, %k : i64
      soac.yield %ek : i64
    }
    soac.yield %inner : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}

// -----

// Rule 13: concat allocates its result once (the sum of the input sizes) and copies
// each input into a mem.slice of it, at a running offset.

// CHECK-LABEL: func.func @concat_one_alloc(
// CHECK:         [[A:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xi32, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.copy
// CHECK:         [[B:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<4xi32, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.copy
// CHECK-NEXT:    [[NA:%[a-z0-9_]+]] = mem.size [[A]][0]
// CHECK-NEXT:    [[NB:%[a-z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:    [[N:%[a-z0-9_]+]] = arith.addi [[NA]], [[NB]] overflow<nsw> : index
// CHECK-NEXT:    [[EB:%[a-z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:    [[BY:%[a-z0-9_]+]] = arith.muli [[N]], [[EB]] overflow<nsw> : index
// CHECK-NEXT:    [[RM:%[a-z0-9_]+]] = mem.alloc [[BY]] : !mem.block<device>
// CHECK-NEXT:    [[O:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[R:%[a-z0-9_]+]] = mem.view [[RM]]{{\[}}[[O]]{{\]}} sizes([[N]])
// CHECK-NEXT:    [[OFF0:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[CA:%[a-z0-9_]+]] = mem.size [[A]][0]
// CHECK-NEXT:    [[PA:%[a-z0-9_]+]] = mem.slice [[R]]{{\[}}[[OFF0]]:[[CA]]{{\]}} : memref<?xi32, {{.*}}> -> memref<?xi32, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.copy [[A]], [[PA]]
// CHECK-NEXT:    [[OFF1:%[a-z0-9_]+]] = arith.addi [[OFF0]], [[CA]] : index
// CHECK-NEXT:    [[CB:%[a-z0-9_]+]] = mem.size [[B]][0]
// CHECK-NEXT:    [[PB:%[a-z0-9_]+]] = mem.slice [[R]]{{\[}}[[OFF1]]:[[CB]]{{\]}} : memref<?xi32, {{.*}}> -> memref<4xi32, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.copy [[B]], [[PB]]
// CHECK-NOT:     mem.alloc {{.*}} : !mem.block<device>
// CHECK:         mem.copy [[R]], {{%[a-z0-9_]+}} : {{.*}}#mem.space<host>>
func.func @concat_one_alloc(%a: tensor<?xi32>, %b: tensor<4xi32>) -> tensor<?xi32> {
  %r = soac.concat %a, %b : (tensor<?xi32>, tensor<4xi32>) -> tensor<?xi32>
  func.return %r : tensor<?xi32>
}

// -----

// Rule 14: iota, replicate and array literals allocate their result and fill it with
// mem.iota, mem.fill and mem.array.

// CHECK-LABEL: func.func @array_makers(
// CHECK-SAME:    [[N:%[a-z0-9_]+]]: index, [[X:%[a-z0-9_]+]]: f32, [[E1:%[a-z0-9_]+]]: i64, [[E2:%[a-z0-9_]+]]: i64)
// CHECK-NEXT:    [[EB1:%[a-z0-9_]+]] = arith.constant 8 : index
// CHECK-NEXT:    [[BY1:%[a-z0-9_]+]] = arith.muli [[N]], [[EB1]] overflow<nsw> : index
// CHECK-NEXT:    [[IOM:%[a-z0-9_]+]] = mem.alloc [[BY1]] : !mem.block<device>
// CHECK-NEXT:    [[O1:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[IO:%[a-z0-9_]+]] = mem.view [[IOM]]{{\[}}[[O1]]{{\]}} sizes([[N]]) : !mem.block<device> -> memref<?xindex, {{.*}}>
// CHECK-NEXT:    mem.iota outs([[IO]] : memref<?xindex, {{.*}}>)
// CHECK-NEXT:    [[EB2:%[a-z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:    [[BY2:%[a-z0-9_]+]] = arith.muli [[N]], [[EB2]] overflow<nsw> : index
// CHECK-NEXT:    [[REPM:%[a-z0-9_]+]] = mem.alloc [[BY2]] : !mem.block<device>
// CHECK-NEXT:    [[O2:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[REP:%[a-z0-9_]+]] = mem.view [[REPM]]{{\[}}[[O2]]{{\]}} sizes([[N]]) : !mem.block<device> -> memref<?xf32, {{.*}}>
// CHECK-NEXT:    mem.fill [[X]], [[REP]] : f32, memref<?xf32, {{.*}}>
// CHECK-NEXT:    [[TWO:%[a-z0-9_]+]] = arith.constant 2 : index
// CHECK-NEXT:    [[EB3:%[a-z0-9_]+]] = arith.constant 8 : index
// CHECK-NEXT:    [[BY3:%[a-z0-9_]+]] = arith.muli [[TWO]], [[EB3]] overflow<nsw> : index
// CHECK-NEXT:    [[LITM:%[a-z0-9_]+]] = mem.alloc [[BY3]] : !mem.block<device>
// CHECK-NEXT:    [[O3:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[LIT:%[a-z0-9_]+]] = mem.view [[LITM]]{{\[}}[[O3]]{{\]}} : !mem.block<device> -> memref<2xi64, {{.*}}>
// CHECK-NEXT:    mem.array {{\[}}[[E1]], [[E2]]{{\]}} outs([[LIT]] : memref<2xi64, {{.*}}>)
func.func @array_makers(%n: index, %x: f32, %e1: i64, %e2: i64) -> (tensor<?xindex>, tensor<?xf32>, tensor<2xi64>) {
  %io = soac.iota %n : tensor<?xindex>
  %rep = soac.replicate %n, %x : f32 -> tensor<?xf32>
  %lit = soac.array [%e1, %e2] : tensor<2xi64>
  func.return %io, %rep, %lit : tensor<?xindex>, tensor<?xf32>, tensor<2xi64>
}

// -----

// Rule 15: gpu_body allocates its one-row outputs and becomes mem.gpu_body outs(...);
// its body reads device memory directly (mem.load inside the body, not on the host).

// CHECK-LABEL: func.func @gpu_body_outputs(
// CHECK-SAME:    [[J:%[a-z0-9_]+]]: index)
// CHECK:         [[A:%[a-z0-9_]+]] = mem.view {{.*}} -> memref<?xf32, {{.*}}#mem.space<device>>
// CHECK-NEXT:    mem.copy
// CHECK-NEXT:    [[ONE:%[a-z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:    [[EB:%[a-z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:    [[BY:%[a-z0-9_]+]] = arith.muli [[ONE]], [[EB]] overflow<nsw> : index
// CHECK-NEXT:    [[OM:%[a-z0-9_]+]] = mem.alloc [[BY]] : !mem.block<device>
// CHECK-NEXT:    [[O:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    [[OUT:%[a-z0-9_]+]] = mem.view [[OM]]{{\[}}[[O]]{{\]}} : !mem.block<device> -> memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.gpu_body outs([[OUT]] : memref<1xf32, {{.*}}>) {
// CHECK-NEXT:      [[EL:%[a-z0-9_]+]] = mem.load [[A]]{{\[}}[[J]]{{\]}}
// CHECK-NEXT:      mem.yield [[EL]] : f32
// CHECK-NEXT:    }
func.func @gpu_body_outputs(%a: tensor<?xf32>, %j: index) -> tensor<1xf32> {
  %one = soac.gpu_body -> tensor<1xf32> {
    %el = soac.index %a[%j] : tensor<?xf32>
    soac.yield %el : f32
  }
  func.return %one : tensor<1xf32>
}

// -----

// Rule 16: a private function called from an entry point takes and returns device
// (block, view) pairs, stays private (no entry signature, no transfers) and is called
// with the caller's device pair.

// CHECK-LABEL: func.func private @double(
// CHECK-SAME:    [[VM:%[a-z0-9_]+]]: !mem.block<device>, [[V:%[a-z0-9_]+]]: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>)
// CHECK-SAME:    -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NOT:     soacc.entry_signature
// CHECK-NOT:     #mem.space<host>
// CHECK:         mem.map ins([[V]] : {{.*}}) outs([[R:%[a-z0-9_]+]] : {{.*}})
// CHECK:         func.return [[RM:%[a-z0-9_]+]], [[R]] : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:  }
func.func private @double(%v: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.map(%v) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %d = arith.addf %x, %x : f32
    soac.yield %d : f32
  }
  func.return %r : tensor<?xf32>
}

// CHECK-LABEL: func.func @calls_private(
// CHECK-SAME:    attributes {soacc.entry_signature = (tensor<?xf32>) -> tensor<?xf32>}
// CHECK:         [[AM:%[a-z0-9_]+]] = mem.alloc {{.*}} : !mem.block<device>
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    [[A:%[a-z0-9_]+]] = mem.view [[AM]]
// CHECK-NEXT:    mem.copy
// CHECK-NEXT:    [[CM:%[a-z0-9_]+]], [[C:%[a-z0-9_]+]] = func.call @double([[AM]], [[A]]) : (!mem.block<device>, memref<?xf32, {{.*}}#mem.space<device>>) -> (!mem.block<device>, memref<?xf32, {{.*}}#mem.space<device>>)
// CHECK-NEXT:    mem.size [[C]][0]
func.func @calls_private(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = func.call @double(%a) : (tensor<?xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// -----

// Rule 17: the fused combinators (made by soac-fusion) keep their lambdas.

// Fused combinators keep their lambdas: soac.redomap becomes mem.redomap, which writes
// its reduced value to a 0-d device view (read by the host: a synchronous read) and its
// mapped rows to an allocated array; no array of the lambda's operands exists.

// CHECK-LABEL: func.func @redomap(
// CHECK:         %sq = mem.view %sq_mem[{{%[0-9]+}}] sizes({{%[0-9]+}}) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK:         %sum_dev = mem.view %sum_dev_mem[{{%[0-9]+}}] : !mem.block<device> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
// CHECK-NEXT:    mem.redomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%sum_dev, %sq : memref<f32, strided<[], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
// CHECK-NEXT:    ^bb0(%x: f32):
// CHECK-NEXT:      %y = arith.mulf %x, %x : f32
// CHECK-NEXT:      mem.yield %y, %y : f32, f32
// CHECK-NEXT:    } reduce(%zero : f32) commutative {
// CHECK-NEXT:    ^bb0(%l: f32, %r: f32):
// CHECK-NEXT:      %s = arith.addf %l, %r : f32
// CHECK-NEXT:      mem.yield %s : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %sum = mem.load %sum_dev[] : memref<f32, strided<[], offset: ?>, #mem.space<device>>
func.func @redomap(%a: tensor<?xf32>) -> (f32, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %sum, %sq = soac.redomap(%a) : (tensor<?xf32>) -> (f32, tensor<?xf32>) map {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y, %y : f32, f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  func.return %sum, %sq : f32, tensor<?xf32>
}

// -----

// Inside a lambda (a segmented redomap) the reduced values are SSA results; a mapped
// array of rows gets its output row as a lambda parameter, and the row the lambda makes
// there is built in place.

// CHECK-LABEL: func.func @nested_redomap(
// CHECK:         mem.map ins(%m : {{.*}}) outs(%sums, %pairs : {{.*}}) {
// CHECK-NEXT:    ^bb0(%row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %pairs_row: memref<?x2xf32, strided<[?, ?], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:      %s = mem.redomap ins(%row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%pairs_row : memref<?x2xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) -> f32 map {
// CHECK-NEXT:      ^bb0(%x: f32, %p_row: memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:        mem.array [%x, %x] outs(%p_row : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>)
// CHECK-NEXT:        mem.yield %x, %p_row : f32, memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:      } reduce(%zero : f32) commutative {
// CHECK:           mem.yield %s, %pairs_row : f32, memref<?x2xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
func.func @nested_redomap(%m: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?x?x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %sums, %pairs = soac.map(%m) : (tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?x?x2xf32>) {
  ^bb0(%row: tensor<?xf32>):
    %s, %p = soac.redomap(%row) : (tensor<?xf32>) -> (f32, tensor<?x2xf32>) map {
    ^bb1(%x: f32):
      %pair = soac.array [%x, %x] : tensor<2xf32>
      soac.yield %x, %pair : f32, tensor<2xf32>
    } reduce(%zero : f32) commutative {
    ^bb1(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    soac.yield %s, %p : f32, tensor<?x2xf32>
  }
  func.return %sums, %pairs : tensor<?xf32>, tensor<?x?x2xf32>
}

// -----

// A scanomap with a post lambda writes the post lambda's rows.

// CHECK-LABEL: func.func @scanomap_post(
// CHECK:         mem.scanomap ins(%a : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) outs(%excl : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) map {
// CHECK-NEXT:    ^bb0(%x: i32):
// CHECK-NEXT:      mem.yield %x, %x : i32, i32
// CHECK-NEXT:    } scan(%zero : i32) commutative {
// CHECK:         } post {
// CHECK-NEXT:    ^bb0(%p: i32, %y: i32):
// CHECK-NEXT:      %e = arith.subi %p, %y : i32
// CHECK-NEXT:      mem.yield %e : i32
// CHECK-NEXT:    }
func.func @scanomap_post(%a: tensor<?xi32>) -> tensor<?xi32> {
  %zero = arith.constant 0 : i32
  %excl = soac.scanomap(%a) : (tensor<?xi32>) -> tensor<?xi32> map {
  ^bb0(%x: i32):
    soac.yield %x, %x : i32, i32
  } scan(%zero : i32) commutative {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  } post {
  ^bb0(%p: i32, %y: i32):
    %e = arith.subi %p, %y : i32
    soac.yield %e : i32
  }
  func.return %excl : tensor<?xi32>
}

// -----

// scatteromap and histomap update their destination in place when it may be consumed
// (here fresh replicates), as scatter and hist do.

// CHECK-LABEL: func.func @scatteromap_histomap(
// CHECK:         mem.fill %zero, %d
// CHECK-NEXT:    mem.scatteromap %d : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> ins(%is, %a : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
// CHECK-NEXT:    ^bb0(%i: i64, %x: f32):
// CHECK-NEXT:      mem.yield %i, %x : i64, f32
// CHECK-NEXT:    }
// CHECK:         mem.fill %izero, %h0
// CHECK-NEXT:    mem.histomap %h0 : memref<8xi32, strided<[?], offset: ?>, #mem.space<device>> ins(%is : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>) map {
// CHECK-NEXT:    ^bb0(%i_1: i64):
// CHECK-NEXT:      mem.yield %i_1, %one : i64, i32
// CHECK-NEXT:    } hist(%izero : i32) {
// CHECK:         mem.copy %d, %r_host
// CHECK:         mem.copy %h0, %h_host
func.func @scatteromap_histomap(%is: tensor<?xi64>, %a: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<8xi32>) {
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c8 = arith.constant 8 : index
  %d = soac.replicate %n, %zero : f32 -> tensor<?xf32>
  %r = soac.scatteromap %d(%is, %a) : tensor<?xf32>, (tensor<?xi64>, tensor<?xf32>) -> tensor<?xf32> map {
  ^bb0(%i: i64, %x: f32):
    soac.yield %i, %x : i64, f32
  }
  %h0 = soac.replicate %c8, %izero : i32 -> tensor<8xi32>
  %h = soac.histomap %h0(%is) : tensor<8xi32>, (tensor<?xi64>) -> tensor<8xi32> map {
  ^bb0(%i: i64):
    soac.yield %i, %one : i64, i32
  } hist(%izero : i32) {
  ^bb0(%l: i32, %s: i32):
    %t = arith.addi %l, %s : i32
    soac.yield %t : i32
  }
  func.return %r, %h : tensor<?xf32>, tensor<8xi32>
}

// -----

// Rule 18: the sizes a map needs before it runs (its rows' size). A row size chosen by
// a condition known before the map is computed there, from what the condition reads:
// here a reduction the lambda captures, whose result is in device memory (read once,
// synchronously), so the rows are allocated with the size the condition picks, not
// either branch's.

// CHECK-LABEL: func.func @row_size_by_captured_reduction(
// CHECK:         mem.reduce ins(%a
// CHECK-SAME:      outs(%s_dev
// CHECK:         [[N:%[a-z0-9_]+]] = mem.size %a[0]
// CHECK-NEXT:    [[S:%[a-z0-9_]+]] = mem.load %s_dev[]
// CHECK-NEXT:    [[C:%[a-z0-9_]+]] = arith.cmpf olt, [[S]], %z : f32
// CHECK-NEXT:    [[W:%[a-z0-9_]+]] = scf.if [[C]] -> (index) {
// CHECK-NEXT:      scf.yield %n : index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %m : index
// CHECK-NEXT:    }
// CHECK:         %r = mem.view %r_mem[{{%[0-9]+}}] sizes([[N]], [[W]])
// CHECK-NEXT:    mem.map ins(%a
func.func @row_size_by_captured_reduction(%a: tensor<?xf32>, %n: index, %m: index) -> tensor<?x?xf32> {
  %z = arith.constant 0.0 : f32
  %s = soac.reduce(%a) neutral(%z : f32) : (tensor<?xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    %t = arith.addf %x, %y : f32
    soac.yield %t : f32
  }
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%e: f32):
    %c = arith.cmpf olt, %s, %z : f32
    %row = scf.if %c -> (tensor<?xf32>) {
      %p = soac.replicate %n, %e : f32 -> tensor<?xf32>
      scf.yield %p : tensor<?xf32>
    } else {
      %q = soac.replicate %m, %s : f32 -> tensor<?xf32>
      scf.yield %q : tensor<?xf32>
    }
    soac.yield %row : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// A row size that depends on the row (a per-row condition, a per-row count) is the
// first row's, computed before the map from row 0 of its input; with no rows it is what
// level 1 gives (the false branch; a per-row count is 0). Such a row is built in memory
// of its own and copied into its output row, so a row whose size differs is found when
// written (as level 1 finds it), not silently cut.

// CHECK-LABEL: func.func @row_size_by_first_row(
// CHECK:         [[N:%[a-z0-9_]+]] = mem.size %a[0]
// CHECK:         [[NONEMPTY:%[a-z0-9_]+]] = arith.cmpi ne, {{%[0-9]+}}, {{%[0-9]+}} : index
// CHECK-NEXT:    [[W:%[a-z0-9_]+]] = scf.if [[NONEMPTY]] -> (index) {
// CHECK-NEXT:      [[ZERO:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:      [[E0:%[a-z0-9_]+]] = mem.load %a[[[ZERO]]]
// CHECK-NEXT:      [[C:%[a-z0-9_]+]] = arith.cmpf olt, [[E0]], %z : f32
// CHECK-NEXT:      [[W0:%[a-z0-9_]+]] = scf.if [[C]] -> (index) {
// CHECK-NEXT:        scf.yield %n : index
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %m : index
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield [[W0]] : index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %m : index
// CHECK-NEXT:    }
// CHECK:         %r = mem.view %r_mem[{{%[0-9]+}}] sizes([[N]], [[W]])

// CHECK-LABEL: func.func @row_size_per_row(
// CHECK:         [[W:%[a-z0-9_]+]] = scf.if {{%[0-9]+}} -> (index) {
// CHECK-NEXT:      [[ZERO:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:      [[K0:%[a-z0-9_]+]] = mem.load %ns[[[ZERO]]]
// CHECK-NEXT:      scf.yield [[K0]] : index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      [[NONE:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:      scf.yield [[NONE]] : index
// CHECK-NEXT:    }
// CHECK:         mem.map ins(%ns
// CHECK-NEXT:    ^bb0(%n: index, %r_row: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK:           %io_mem = mem.alloc
// CHECK-NEXT:      [[ZERO2:%[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:      %io = mem.view %io_mem[[[ZERO2]]] sizes(%n)
// CHECK-NEXT:      mem.iota outs(%io
// CHECK-NEXT:      mem.yield %io
func.func @row_size_by_first_row(%a: tensor<?xf32>, %n: index, %m: index) -> tensor<?x?xf32> {
  %z = arith.constant 0.0 : f32
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%e: f32):
    %c = arith.cmpf olt, %e, %z : f32
    %row = scf.if %c -> (tensor<?xf32>) {
      %p = soac.replicate %n, %e : f32 -> tensor<?xf32>
      scf.yield %p : tensor<?xf32>
    } else {
      %q = soac.replicate %m, %e : f32 -> tensor<?xf32>
      scf.yield %q : tensor<?xf32>
    }
    soac.yield %row : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

func.func @row_size_per_row(%ns: tensor<?xindex>) -> tensor<?x?xindex> {
  %r = soac.map(%ns) : (tensor<?xindex>) -> tensor<?x?xindex> {
  ^bb0(%n: index):
    %io = soac.iota %n : tensor<?xindex>
    soac.yield %io : tensor<?xindex>
  }
  func.return %r : tensor<?x?xindex>
}

// -----

// A row size that is the size of a captured array, though the lambda asks for it
// (soac.size inside the lambda), does not depend on the row: it is computed before the
// map, from the array (here an `if`'s result, whose size only running it tells).

// CHECK-LABEL: func.func @row_size_of_captured_array(
// CHECK:         %bb = scf.if %p
// CHECK:         [[K:%[a-z0-9_]+]] = mem.size %bb[0]
// CHECK:         %r = mem.view %r_mem[{{%[0-9]+}}] sizes({{%[0-9]+}}, [[K]])
// CHECK-NEXT:    mem.map ins(%a
func.func @row_size_of_captured_array(%a: tensor<?xf32>, %b: tensor<?xf32>, %p: i1) -> tensor<?x?xindex> {
  %bb = scf.if %p -> (tensor<?xf32>) {
    scf.yield %a : tensor<?xf32>
  } else {
    scf.yield %b : tensor<?xf32>
  }
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xindex> {
  ^bb0(%e: f32):
    %k = soac.size %bb[0] : tensor<?xf32>
    %io = soac.iota %k : tensor<?xindex>
    soac.yield %io : tensor<?xindex>
  }
  func.return %r : tensor<?x?xindex>
}

// -----

// A loop in a lambda keeps the size of the row it yields although it also carries an
// array that doubles (used inside only): the induction drops the array whose size
// changes and proves the others', so the rows are allocated with %n.

// CHECK-LABEL: func.func @loop_keeps_row_beside_growing_array(
// CHECK:         %r = mem.view %r_mem[{{%[0-9]+}}] sizes({{%[0-9]+}}, %n)
// CHECK-NEXT:    mem.map ins(%a
// CHECK:           scf.for
func.func @loop_keeps_row_beside_growing_array(%a: tensor<?xf32>, %n: index, %k: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%e: f32):
    %init = soac.replicate %n, %e : f32 -> tensor<?xf32>
    %row0 = soac.replicate %n, %z : f32 -> tensor<?xf32>
    %grown, %row = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %init, %rw = %row0) -> (tensor<?xf32>, tensor<?xf32>) {
      %cat = soac.concat %acc, %acc : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %s = soac.reduce(%cat) neutral(%z : f32) : (tensor<?xf32>) -> f32 {
      ^bb1(%x: f32, %y: f32):
        %t = arith.addf %x, %y : f32
        soac.yield %t : f32
      }
      %rw2 = soac.map(%rw) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb2(%v: f32):
        %w = arith.addf %v, %s : f32
        soac.yield %w : f32
      }
      scf.yield %cat, %rw2 : tensor<?xf32>, tensor<?xf32>
    }
    soac.yield %row : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// Inside a loop that keeps the size of the array it carries, the carried array has the
// size it starts with: an `if` whose branches yield a row of it or a row of that size
// gives one size (the carried array's, no read of the first row).

// CHECK-LABEL: func.func @row_size_kept_by_loop(
// CHECK:         scf.for
// CHECK-NEXT:      [[N:%[a-z0-9_]+]] = mem.size %cents[0]
// CHECK-NEXT:      [[D:%[a-z0-9_]+]] = mem.size %cents[1]
// CHECK-NOT:       mem.load
// CHECK:           %new = mem.view %new_mem[{{%[0-9]+}}] sizes([[N]], [[D]])
// CHECK-NEXT:      mem.map ins(%cents
func.func @row_size_kept_by_loop(%init: tensor<?x?xf32>, %iters: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %d = soac.size %init[1] : tensor<?x?xf32>
  %final = scf.for %it = %c0 to %iters step %c1 iter_args(%cents = %init) -> (tensor<?x?xf32>) {
    %new = soac.map(%cents) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%old: tensor<?xf32>):
      %first = soac.index %old[%c0] : tensor<?xf32>
      %keep = arith.cmpf olt, %first, %z : f32
      %row = scf.if %keep -> (tensor<?xf32>) {
        scf.yield %old : tensor<?xf32>
      } else {
        %fresh = soac.replicate %d, %z : f32 -> tensor<?xf32>
        scf.yield %fresh : tensor<?xf32>
      }
      soac.yield %row : tensor<?xf32>
    }
    scf.yield %new : tensor<?x?xf32>
  }
  func.return %final : tensor<?x?xf32>
}

// -----

// A scan husk (lowering/soac_to_mem_husks.py): a first run in which each device scans
// its rows into the result's rows and copies its last row into its slot (where it
// has rows); then, where more than one device had rows, on device 0 the inclusive
// scan of the busy devices' totals (the carries) and a run over the same devices
// (devices(%busy)) in which each device but the first combines its rows in place
// with the carry before it, in a kernel.
// CHECK-LABEL: func.func @scan_husk(
// CHECK:         %devices = husk.devices : index
// CHECK:         %ys_totals = mem.view %ys_totals_mem
// CHECK:         %busy_devices = husk.run size(%m) (%xs : {{.*}}) outs(%ys : {{.*}}) slots(%ys_totals : {{.*}}) -> index {
// CHECK-NEXT:    ^bb0(%device: index, %offset: index, %size: index, %part: {{.*}}, %ys_rows: {{.*}}, %ys_total: memref<i32, strided<[], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:      mem.scan ins(%part : {{.*}}) neutral(%zero : i32) outs(%ys_rows : {{.*}})
// CHECK:           [[HAS:%[0-9]+]] = arith.cmpi ugt, %size, {{%[0-9]+}} : index
// CHECK-NEXT:      scf.if [[HAS]] {
// CHECK-NEXT:        [[LAST:%[0-9]+]] = arith.subi %size, {{%[0-9]+}} : index
// CHECK-NEXT:        [[ROW:%[0-9]+]] = mem.slice %ys_rows[[[LAST]]]
// CHECK-NEXT:        mem.copy [[ROW]], %ys_total
// CHECK:         [[BUSY_TOTALS:%[0-9]+]] = mem.slice %ys_totals[{{%[0-9]+}}:%busy_devices]
// CHECK:         %ys_carries = mem.view %ys_carries_mem[{{%[0-9]+}}] sizes(%devices)
// CHECK:         %split = arith.cmpi ugt, %busy_devices, {{%[0-9]+}} : index
// CHECK-NEXT:    scf.if %split {
// CHECK:           [[BUSY_CARRIES:%[0-9]+]] = mem.slice %ys_carries[{{%[0-9]+}}:%busy_devices]
// CHECK-NEXT:      mem.scan ins([[BUSY_TOTALS]] : {{.*}}) neutral(%zero : i32) outs([[BUSY_CARRIES]] : {{.*}})
// CHECK:           husk.run size(%m) devices(%busy_devices) (%ys : {{.*}}) outs(%ys : {{.*}}) -> index
// CHECK-NEXT:      ^bb0(%device_1: index, %offset_1: index, %size_1: index, %ys_rows_1: {{.*}}, {{%[0-9]+}}: {{.*}}):
// CHECK:           [[LATER:%[0-9]+]] = arith.cmpi ugt, %device_1, {{%[0-9]+}} : index
// CHECK-NEXT:      scf.if [[LATER]] {
// CHECK-NEXT:        %devices_before = arith.subi %device_1, {{%[0-9]+}} : index
// CHECK-NEXT:        mem.map ins(%ys_rows_1 : {{.*}}) outs(%ys_rows_1 : {{.*}}) {
// CHECK-NEXT:        ^bb0([[Y:%[0-9]+]]: i32):
// CHECK-NEXT:          [[C:%[0-9]+]] = mem.load %ys_carries[%devices_before]
// CHECK-NEXT:          [[T:%.*]] = arith.addi [[C]], [[Y]] : i32
// CHECK-NEXT:          mem.yield [[T]] : i32
func.func @scan_husk(%xs: tensor<?xi32>, %m: index) -> tensor<?xi32> {
  %zero = arith.constant 0 : i32
  %ys = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) scan -> (tensor<?xi32>) {
  ^bb0(%offset: index, %size: index, %part: tensor<?xi32>):
    %q = soac.scan(%part) neutral(%zero : i32) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb2(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      soac.yield %t : i32
    }
    husk.yield %q : tensor<?xi32>
  } reduce {
  ^bb1(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    husk.yield %t : i32
  }
  func.return %ys : tensor<?xi32>
}

// -----

// A scatter husk whose body is one map: a run in which every device but the first
// maps its rows to their pairs (and mapped rows); device 0's rows (the first
// partition of the devices the run used) in one fused kernel into the destination;
// then, where the run used more than one device, the others' pairs.
// CHECK-LABEL: func.func @scatter_husk(
// CHECK:         %busy_devices = husk.run size(%m) (%xs : {{.*}}) outs(%indices, %values, %q : {{.*}}) -> index {
// CHECK-NEXT:    ^bb0(%device: index, %offset: index, %size: index, %part: {{.*}}, %indices_rows: {{.*}}, %values_rows: {{.*}}, %q_rows: {{.*}}):
// CHECK:           [[LATER:%[0-9]+]] = arith.cmpi ugt, %device, {{%[0-9]+}} : index
// CHECK-NEXT:      scf.if [[LATER]] {
// CHECK-NEXT:        mem.map ins(%part : {{.*}}) outs(%indices_rows, %values_rows, %q_rows : {{.*}})
// CHECK:         [[USED:%[0-9]+]] = arith.maxui %busy_devices, [[ONE:%[0-9]+]] : index
// CHECK-NEXT:    [[MOST:%[0-9]+]] = arith.ceildivui %m, [[USED]] : index
// CHECK-NEXT:    %device_0_rows = arith.minui [[MOST]], %m : index
// CHECK:         [[XS0:%[0-9]+]] = mem.slice %xs[{{%[0-9]+}}:%device_0_rows]
// CHECK-NEXT:    [[Q0:%[0-9]+]] = mem.slice %q[{{%[0-9]+}}:%device_0_rows]
// CHECK-NEXT:    mem.scatteromap %dest : {{.*}} ins([[XS0]] : {{.*}}) outs([[Q0]] : {{.*}}) map
// CHECK:         [[SPLIT:%[0-9]+]] = arith.cmpi ugt, %busy_devices, [[ONE]] : index
// CHECK-NEXT:    scf.if [[SPLIT]] {
// CHECK-NEXT:      [[REST:%[0-9]+]] = arith.subi %m, %device_0_rows : index
// CHECK-NEXT:      [[IS:%[0-9]+]] = mem.slice %indices[%device_0_rows:[[REST]]]
// CHECK-NEXT:      [[VS:%[0-9]+]] = mem.slice %values[%device_0_rows:[[REST]]]
// CHECK-NEXT:      mem.scatter %dest[[[IS]]] = [[VS]]
func.func @scatter_husk(%dest: tensor<?xf32>, %xs: tensor<?xi64>, %m: index) -> (tensor<?xf32>, tensor<?xi64>) {
  %r, %q = husk.husk size(%m) (%xs : tensor<?xi64>) scatter(%dest : tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>) {
  ^bb0(%offset: index, %size: index, %part: tensor<?xi64>):
    %is, %vs, %sq = soac.map(%part) : (tensor<?xi64>) -> (tensor<?xi64>, tensor<?xf32>, tensor<?xi64>) {
    ^bb1(%x: i64):
      %f = arith.sitofp %x : i64 to f32
      %s = arith.muli %x, %x : i64
      soac.yield %x, %f, %s : i64, f32, i64
    }
    husk.yield %is, %vs, %sq : tensor<?xi64>, tensor<?xf32>, tensor<?xi64>
  } reduce {
  }
  func.return %r, %q : tensor<?xf32>, tensor<?xi64>
}
