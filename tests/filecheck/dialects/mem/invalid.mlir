// RUN: soacc-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// One chunk per mem verifier error (dialects/mem.py, and the helpers it shares with
// soac: check_lambda and SliceSpec.verify), in the order of the file, then the parse
// errors of the custom syntax. Generic syntax is used where the custom syntax cannot
// express the mistake. check_view's "must be a memref view" is not reachable: every
// operand and result it is given is already constrained to a memref by IRDL.

// ---- check_view (every memref of the dialect), shown on mem.view's result

func.func @view_element_type(%blk: !mem.block<device>, %o: index, %n: index) {
  %v = mem.view %blk[%o] sizes(%n) : !mem.block<device> -> memref<?xi8, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.view result has element type i8; expected one of i1, i32, i64, index, f32, f64

// -----

func.func @view_without_space(%blk: !mem.block<device>, %o: index, %n: index) {
  %v = mem.view %blk[%o] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>>
  func.return
}

// CHECK: mem.view result memref<?xf32, strided<[?], offset: ?>> has no #mem.space<...> memory space

// -----

func.func @view_with_integer_space(%blk: !mem.block<device>, %o: index, %n: index) {
  %v = mem.view %blk[%o] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, 1 : i64>
  func.return
}

// CHECK: mem.view result memref<?xf32, strided<[?], offset: ?>, 1 : i64> has no #mem.space<...> memory space

// -----

func.func @view_identity_layout(%blk: !mem.block<device>, %o: index, %n: index) {
  %v = mem.view %blk[%o] sizes(%n) : !mem.block<device> -> memref<?x4xf32, #mem.space<device>>
  func.return
}

// CHECK: mem.view result memref<?x4xf32, #mem.space<device>> must have a fully dynamic strided layout (strided<[?, ...], offset: ?>)

// -----

func.func @view_static_stride(%blk: !mem.block<device>, %o: index, %n: index) {
  %v = mem.view %blk[%o] sizes(%n) : !mem.block<device> -> memref<?x4xf32, strided<[?, 1], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.view result memref<?x4xf32, strided<[?, 1], offset: ?>, #mem.space<device>> must have a fully dynamic strided layout (strided<[?, ...], offset: ?>)

// -----

// (a static offset of 0 prints as no offset)
func.func @view_static_offset(%blk: !mem.block<device>, %o: index, %n: index) {
  %v = mem.view %blk[%o] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: 0>, #mem.space<device>>
  func.return
}

// CHECK: mem.view result memref<?xf32, strided<[?]>, #mem.space<device>> must have a fully dynamic strided layout (strided<[?, ...], offset: ?>)

// -----

// ---- mem.view

func.func @view_space_differs_from_block(%blk: !mem.block<device>, %o: index, %n: index) {
  %v = mem.view %blk[%o] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  func.return
}

// CHECK: mem.view of a block in device memory gives memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>; the spaces must agree

// -----

func.func @view_device_number_differs_from_block(%blk: !mem.block<device 2>, %o: index, %n: index) {
  %v = mem.view %blk[%o] sizes(%n) : !mem.block<device 2> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.view of a block in device 2 memory gives memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>; the spaces must agree

// -----

func.func @view_too_many_sizes(%blk: !mem.block<device>, %o: index, %n: index) {
  %v = mem.view %blk[%o] sizes(%n, %n) : !mem.block<device> -> memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.view result memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>> has 1 dynamic dimension(s) but 2 sizes are given

// -----

func.func @view_missing_sizes(%blk: !mem.block<device>, %o: index) {
  %v = mem.view %blk[%o] : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.view result memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> has 2 dynamic dimension(s) but 0 sizes are given

// -----

func.func @view_wrong_stride_count(%blk: !mem.block<device>, %o: index, %n: index) {
  %v = mem.view %blk[%o] sizes(%n) strides(%n) : !mem.block<device> -> memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.view gives 1 strides for a view of rank 2

// -----

func.func @view_outside_its_block() {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %blk = mem.alloc %c64 : !mem.block<device>
  %v = mem.view %blk[%c0] : !mem.block<device> -> memref<4x8xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.view covers bytes [0, 128) of a block of 64 bytes

// -----

func.func @view_past_the_end_of_its_block() {
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %blk = mem.alloc %c64 : !mem.block<host>
  %v = mem.view %blk[%c8] : !mem.block<host> -> memref<4x2xf64, strided<[?, ?], offset: ?>, #mem.space<host>>
  func.return
}

// CHECK: mem.view covers bytes [8, 72) of a block of 64 bytes

// -----

func.func @view_at_a_negative_offset() {
  %cm4 = arith.constant -4 : index
  %c64 = arith.constant 64 : index
  %blk = mem.alloc %c64 : !mem.block<device>
  %v = mem.view %blk[%cm4] : !mem.block<device> -> memref<i32, strided<[], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.view covers bytes [-4, 0) of a block of 64 bytes

// -----

// ---- mem.slice (and SliceSpec.verify)

func.func @slice_of_a_0d_view(%v: memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  %r = "mem.slice"(%v) <{kinds = array<i64>}> : (memref<f32, strided<[], offset: ?>, #mem.space<device>>) -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.slice source must have rank >= 1, found memref<f32, strided<[], offset: ?>, #mem.space<device>>

// -----

func.func @slice_bad_kind(%v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index) {
  %r = "mem.slice"(%v, %i) <{kinds = array<i64: 3>}> : (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index) -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.slice: slice kinds must be 0, 1 or 2, found [3]

// -----

func.func @slice_operand_count(%v: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %i: index) {
  %r = "mem.slice"(%v, %i, %i) <{kinds = array<i64: 0, 1>}> : (memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, index, index) -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.slice: the slice kinds need 3 index operands, found 2

// -----

func.func @slice_too_many_entries(%v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index) {
  %r = mem.slice %v[%i, %i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.slice: 2 slice entries for an array of rank 1

// -----

func.func @slice_result_rank(%v: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %i: index) {
  %r = mem.slice %v[%i] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.slice result has type memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>; expected a view of rank 1 of f32 in the source's space

// -----

func.func @slice_result_space(%v: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %i: index) {
  %r = mem.slice %v[%i] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  func.return
}

// CHECK: mem.slice result has type memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>; expected a view of rank 1 of f32 in the source's space

// -----

// ---- mem.transpose

func.func @transpose_of_a_0d_view(%v: memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  %t = "mem.transpose"(%v) <{permutation = array<i64>}> : (memref<f32, strided<[], offset: ?>, #mem.space<device>>) -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.transpose input must have rank >= 1, found memref<f32, strided<[], offset: ?>, #mem.space<device>>

// -----

func.func @transpose_repeated_dimension(%m: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  %t = mem.transpose %m [0, 0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.transpose permutation [0, 0] is not a permutation of the 2 dimensions of memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>

// -----

func.func @transpose_wrong_result(%m: memref<2x3xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  %t = mem.transpose %m [1, 0] : memref<2x3xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<2x3xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.transpose result has type memref<2x3xf32, strided<[?, ?], offset: ?>, #mem.space<device>>; expected memref<3x2xf32, strided<[?, ?], offset: ?>, #mem.space<device>>

// -----

// ---- mem.size

func.func @size_dim_out_of_range(%m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  %n = mem.size %m[2] : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.size dimension 2 is out of range for a view of rank 2

// -----

func.func @size_of_a_0d_view(%v: memref<f32, strided<[], offset: ?>, #mem.space<host>>) {
  %n = mem.size %v[0] : memref<f32, strided<[], offset: ?>, #mem.space<host>>
  func.return
}

// CHECK: mem.size dimension 0 is out of range for a view of rank 0

// -----

// ---- mem.copy

func.func @copy_shape_mismatch(%h: memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>, %d: memref<5xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.copy %h, %d : memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<5xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.copy between memref<4xf32, strided<[?], offset: ?>, #mem.space<host>> and memref<5xf32, strided<[?], offset: ?>, #mem.space<device>>: shapes and element types must agree

// -----

func.func @copy_rank_mismatch(%h: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %d: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  mem.copy %h, %d : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.copy between memref<?xf32, strided<[?], offset: ?>, #mem.space<host>> and memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>: shapes and element types must agree

// -----

func.func @copy_element_type_mismatch(%h: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %d: memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.copy %h, %d : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.copy between memref<?xf32, strided<[?], offset: ?>, #mem.space<host>> and memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>: shapes and element types must agree

// -----

func.func @copy_from_a_plain_memref(%h: memref<?xf32>, %d: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.copy %h, %d : memref<?xf32>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.copy source memref<?xf32> has no #mem.space<...> memory space

// -----

// ---- mem.load and mem.store

func.func @load_index_count(%m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %i: index) -> f32 {
  %x = mem.load %m[%i] : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return %x : f32
}

// CHECK: mem.load has 1 indices for a view of rank 2

// -----

func.func @load_result_type(%v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index) -> f64 {
  %x = "mem.load"(%v, %i) : (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index) -> f64
  func.return %x : f64
}

// CHECK: mem.load result has type f64; expected f32

// -----

func.func @store_index_count(%v: memref<f32, strided<[], offset: ?>, #mem.space<host>>, %x: f32, %i: index) {
  mem.store %x, %v[%i] : memref<f32, strided<[], offset: ?>, #mem.space<host>>
  func.return
}

// CHECK: mem.store has 1 indices for a view of rank 0

// -----

func.func @store_type_mismatch(%v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %x: f64, %i: index) {
  "mem.store"(%x, %v, %i) : (f64, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index) -> ()
  func.return
}

// CHECK: mem.store of a f64 into a view of f32

// -----

// ---- mem.yield (trait HasParent)

func.func @yield_outside_lambda(%x: f32) {
  mem.yield %x : f32
}

// CHECK: 'mem.yield' expects parent op to be one of 'mem.map', 'mem.reduce', 'mem.scan', 'mem.hist', 'mem.gpu_body'

// -----

// ---- mem.map (and the shared helpers _check_same_outer, _check_kernel_space, check_lambda)

func.func @map_no_inputs(%o: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(:) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0:
    %z = arith.constant 0.0 : f32
    mem.yield %z : f32
  }
  func.return
}

// CHECK: mem.map needs at least one input array

// -----

func.func @map_indexed_without_row_number(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %o: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) indexed {
  ^bb0(%x: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.map lambda parameters are (f32); expected (f32, index)

// -----

func.func @map_0d_input(%a: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %o: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%a : memref<f32, strided<[], offset: ?>, #mem.space<device>>) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.map input 0 must have rank >= 1, found memref<f32, strided<[], offset: ?>, #mem.space<device>>

// -----

func.func @host_map_captures_device_memory(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %o: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %d: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) indexed {
  ^bb0(%x: f32, %i: index):
    %y = mem.load %d[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.yield %y : f32
  }
  func.return
}

// CHECK: mem.map uses arrays in device, host memory; a kernel runs in one place (the host, or one device) and all its arrays, given or captured, must be there

// -----

func.func @map_output_on_host_memory(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %o: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) {
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) {
  ^bb0(%x: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.map uses arrays in device, host memory; a kernel runs in one place

// -----

func.func @map_outer_mismatch(%a: memref<3xf32, strided<[?], offset: ?>, #mem.space<device>>, %o: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%a : memref<3xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%o : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.map input/output 1 has outer size 4, but an earlier one has 3; all must match

// -----

func.func @map_on_two_devices(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %o: memref<?xf32, strided<[?], offset: ?>, #mem.space<device 2>>) {
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device 2>>) {
  ^bb0(%x: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.map uses arrays in device, device 2 memory; a kernel runs in one place

// -----

func.func @map_lambda_without_output_row(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %o: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%o : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.map lambda parameters are (f32); expected (f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>)

// -----

func.func @map_lambda_not_ending_in_yield(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %o: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    llvm.unreachable
  }
  func.return
}

// CHECK: mem.map lambda must end with mem.yield

// -----

func.func @map_lambda_yields_wrong_type(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %o: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    %i = arith.constant 0 : i32
    mem.yield %i : i32
  }
  func.return
}

// CHECK: mem.map lambda yields (i32); expected (f32)

// -----

// ---- mem.reduce and mem.scan (_OperatorOp._verify_operator)

func.func @reduce_no_inputs(%z: f32, %r: memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  "mem.reduce"(%r) <{operandSegmentSizes = array<i32: 0, 0, 1>}> ({
  ^bb0:
    mem.yield
  }) : (memref<f32, strided<[], offset: ?>, #mem.space<device>>) -> ()
  func.return
}

// CHECK: mem.reduce needs at least one input array

// -----

func.func @reduce_outer_mismatch(%a: memref<3xf32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) -> (f32, f32) {
  %s, %t = mem.reduce ins(%a, %b : memref<3xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z, %z : f32, f32) -> f32, f32 {
  ^bb0(%x1: f32, %y1: f32, %x2: f32, %y2: f32):
    mem.yield %x1, %y1 : f32, f32
  }
  func.return %s, %t : f32, f32
}

// CHECK: mem.reduce input 1 has outer size 4, but an earlier one has 3; all must match

// -----

func.func @reduce_neutral_count(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32, %r: memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z, %z : f32, f32) outs(%r : memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32, %y: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.reduce has 1 input array(s) but 2 neutral element(s)

// -----

func.func @reduce_neutral_type(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f64, %r: memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : f64) outs(%r : memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32, %y: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.reduce neutral element 0 has type f64; expected f32

// -----

func.func @reduce_with_outs_and_results(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32, %r: memref<f32, strided<[], offset: ?>, #mem.space<device>>) -> f32 {
  %s = mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : f32) outs(%r : memref<f32, strided<[], offset: ?>, #mem.space<device>>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    mem.yield %x : f32
  }
  func.return %s : f32
}

// CHECK: mem.reduce needs one output per input (and then no results)

// -----

func.func @reduce_output_count(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32, %r: memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : f32) outs(%r, %r : memref<f32, strided<[], offset: ?>, #mem.space<device>>, memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32, %y: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.reduce needs one output per input (and then no results)

// -----

func.func @reduce_output_of_rank_1(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32, %r: memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : f32) outs(%r : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32, %y: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.reduce output 0 has type memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>, which does not fit input memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>

// -----

func.func @reduce_output_on_host(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32, %r: memref<f32, strided<[], offset: ?>, #mem.space<host>>) {
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : f32) outs(%r : memref<f32, strided<[], offset: ?>, #mem.space<host>>) {
  ^bb0(%x: f32, %y: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.reduce uses arrays in device, host memory; a kernel runs in one place

// -----

func.func @reduce_result_type(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) -> f64 {
  %s = mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : f32) -> f64 {
  ^bb0(%x: f32, %y: f32):
    mem.yield %x : f32
  }
  func.return %s : f64
}

// CHECK: mem.reduce without outputs gives scalar results of its inputs' element types

// -----

func.func @reduce_no_outputs_no_results(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) {
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : f32) {
  ^bb0(%x: f32, %y: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.reduce without outputs gives scalar results of its inputs' element types

// -----

func.func @reduce_rows_to_an_ssa_result(%a: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %z: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) -> memref<4xf32, strided<[?], offset: ?>, #mem.space<device>> {
  %s = mem.reduce ins(%a : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) neutral(%z : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) -> memref<4xf32, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%x: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %y: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
    mem.yield %x : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
  }
  func.return %s : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
}

// CHECK: mem.reduce without outputs gives scalar results of its inputs' element types

// -----

func.func @reduce_on_two_devices(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device 2>>, %z: f32, %r: memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device 2>>) neutral(%z : f32) outs(%r : memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32, %y: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.reduce uses arrays in device, device 2 memory; a kernel runs in one place

// -----

func.func @reduce_operator_parameters(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32, %r: memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : f32) outs(%r : memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.reduce lambda parameters are (f32); expected (f32, f32)

// -----

func.func @scan_without_outs(%a: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %z: i32) {
  "mem.scan"(%a, %z) <{operandSegmentSizes = array<i32: 1, 1, 0>}> ({
  ^bb0(%x: i32, %y: i32):
    mem.yield %x : i32
  }) : (memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, i32) -> ()
  func.return
}

// CHECK: mem.scan needs one output per input

// -----

func.func @scan_output_of_rank_0(%a: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %z: i32, %p: memref<i32, strided<[], offset: ?>, #mem.space<device>>) {
  mem.scan ins(%a : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : i32) outs(%p : memref<i32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: i32, %y: i32):
    mem.yield %x : i32
  }
  func.return
}

// CHECK: mem.scan output 0 has type memref<i32, strided<[], offset: ?>, #mem.space<device>>, which does not fit input memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>

// -----

func.func @scan_operator_yields_wrong_type(%a: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %z: i32, %p: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.scan ins(%a : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : i32) outs(%p : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: i32, %y: i32):
    %e = arith.extsi %x : i32 to i64
    mem.yield %e : i64
  }
  func.return
}

// CHECK: mem.scan lambda yields (i64); expected (i32)

// -----

// ---- mem.scatter and mem.hist (_check_index_view)

func.func @scatter_float_indices(%d: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.scatter %d[%is] = %vs : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.scatter indices must be a rank-1 view of index, i32 or i64, found memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>

// -----

func.func @scatter_boolean_indices(%d: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.scatter %d[%is] = %vs : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.scatter indices must be a rank-1 view of index, i32 or i64, found memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>

// -----

func.func @scatter_indices_of_rank_2(%d: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?x1xindex, strided<[?, ?], offset: ?>, #mem.space<device>>, %vs: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.scatter %d[%is] = %vs : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x1xindex, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.scatter indices must be a rank-1 view of index, i32 or i64, found memref<?x1xindex, strided<[?, ?], offset: ?>, #mem.space<device>>

// -----

func.func @scatter_rows_mismatch(%d: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %is: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?x5xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  mem.scatter %d[%is] = %vs : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, memref<?x5xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.scatter values memref<?x5xf32, strided<[?, ?], offset: ?>, #mem.space<device>> do not have the rows of memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>

// -----

func.func @scatter_into_host_memory(%d: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %is: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.scatter %d[%is] = %vs : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.scatter uses arrays in device, host memory; a kernel runs in one place

// -----

func.func @scatter_on_two_devices(%d: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xindex, strided<[?], offset: ?>, #mem.space<device 2>>, %vs: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.scatter %d[%is] = %vs : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device 2>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.scatter uses arrays in device, device 2 memory; a kernel runs in one place

// -----

func.func @hist_values_rows_mismatch(%b: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %z: i64) {
  mem.hist %b[%is], %vs neutral(%z : i64) : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%x: i64, %y: i64):
    mem.yield %x : i64
  }
  func.return
}

// CHECK: mem.hist values memref<?xi32, strided<[?], offset: ?>, #mem.space<device>> do not have the rows of memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>

// -----

func.func @hist_neutral_type(%b: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %z: i32) {
  mem.hist %b[%is], %vs neutral(%z : i32) : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%x: i64, %y: i64):
    mem.yield %x : i64
  }
  func.return
}

// CHECK: mem.hist neutral element has type i32; expected i64

// -----

func.func @hist_index_of_i1(%b: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %z: i64) {
  mem.hist %b[%is], %vs neutral(%z : i64) : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%x: i64, %y: i64):
    mem.yield %x : i64
  }
  func.return
}

// CHECK: mem.hist indices must be a rank-1 view of index, i32 or i64, found memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>

// -----

func.func @hist_on_two_devices(%b: memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>, %is: memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>, %vs: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %z: i64) {
  mem.hist %b[%is], %vs neutral(%z : i64) : memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%x: i64, %y: i64):
    mem.yield %x : i64
  }
  func.return
}

// CHECK: mem.hist uses arrays in device, device 2 memory; a kernel runs in one place

// -----

func.func @hist_operator_yields_nothing(%b: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %z: i64) {
  mem.hist %b[%is], %vs neutral(%z : i64) : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%x: i64, %y: i64):
    mem.yield
  }
  func.return
}

// CHECK: mem.hist lambda yields (); expected (i64)

// -----

// ---- mem.gpu_body

func.func @gpu_body_output_with_two_rows(%r: memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>, %x: f32) {
  mem.gpu_body outs(%r : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.gpu_body output 0 has type memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>; outputs have one row

// -----

func.func @gpu_body_0d_output(%r: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %x: f32) {
  mem.gpu_body outs(%r : memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
    mem.yield %x : f32
  }
  func.return
}

// CHECK: mem.gpu_body output 0 must have rank >= 1, found memref<f32, strided<[], offset: ?>, #mem.space<device>>

// -----

func.func @gpu_body_yield_count(%r: memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>, %x: f32) {
  mem.gpu_body outs(%r : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    mem.yield %x, %x : f32, f32
  }
  func.return
}

// CHECK: mem.gpu_body lambda yields (f32, f32); expected (f32)

// -----

func.func @gpu_body_not_ending_in_yield(%r: memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.gpu_body outs(%r : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    llvm.unreachable
  }
  func.return
}

// CHECK: mem.gpu_body lambda must end with mem.yield

// -----

// ---- mem.iota, mem.fill, mem.array

func.func @iota_of_f32(%v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.iota outs(%v : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>)
  func.return
}

// CHECK: mem.iota output must be a rank-1 view of index, i32 or i64, found memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>

// -----

func.func @iota_of_i1(%v: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.iota outs(%v : memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>)
  func.return
}

// CHECK: mem.iota output must be a rank-1 view of index, i32 or i64, found memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>

// -----

func.func @iota_of_rank_2(%v: memref<?x2xindex, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  mem.iota outs(%v : memref<?x2xindex, strided<[?, ?], offset: ?>, #mem.space<device>>)
  func.return
}

// CHECK: mem.iota output must be a rank-1 view of index, i32 or i64, found memref<?x2xindex, strided<[?, ?], offset: ?>, #mem.space<device>>

// -----

func.func @fill_type_mismatch(%v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %x: f64) {
  mem.fill %x, %v : f64, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.fill of a f64 into rows of f32

// -----

func.func @fill_row_size_mismatch(%m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %row: memref<5xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.fill %row, %m : memref<5xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.fill of a memref<5xf32, strided<[?], offset: ?>, #mem.space<device>> into rows of memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>

// -----

func.func @fill_0d_output(%v: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %x: f32) {
  mem.fill %x, %v : f32, memref<f32, strided<[], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: mem.fill output must have rank >= 1, found memref<f32, strided<[], offset: ?>, #mem.space<device>>

// -----

func.func @array_count_mismatch(%v: memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>, %x: f32) {
  mem.array [%x, %x, %x] outs(%v : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>)
  func.return
}

// CHECK: mem.array writes 3 rows into memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>

// -----

func.func @array_element_type(%v: memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>, %x: f32, %y: f64) {
  "mem.array"(%x, %y, %v) : (f32, f64, memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
  func.return
}

// CHECK: mem.array element 1 has type f64; expected f32

// -----

func.func @array_0d_output(%v: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %x: f32) {
  "mem.array"(%x, %v) : (f32, memref<f32, strided<[], offset: ?>, #mem.space<device>>) -> ()
  func.return
}

// CHECK: mem.array output must have rank >= 1, found memref<f32, strided<[], offset: ?>, #mem.space<device>>

// -----

func.func @array_identity_layout(%v: memref<2xf32, #mem.space<device>>, %x: f32) {
  mem.array [%x, %x] outs(%v : memref<2xf32, #mem.space<device>>)
  func.return
}

// CHECK: mem.array output memref<2xf32, #mem.space<device>> must have a fully dynamic strided layout (strided<[?, ...], offset: ?>)

// -----

// ---- parse errors of the custom syntax

func.func @space_gpu(%v: memref<?xf32, strided<[?], offset: ?>, #mem.space<gpu>>) {
  func.return
}

// CHECK: a memory space is `host`, `device` or `device N`, not `gpu`

// -----

func.func @block_space_shared(%b: !mem.block<shared>) {
  func.return
}

// CHECK: a memory space is `host`, `device` or `device N`, not `shared`

// -----

func.func @load_scalar_type(%v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index) {
  %x = mem.load %v[%i] : f32
  func.return
}

// CHECK: mem.load needs a memref type, got f32

// -----

func.func @load_tensor_type(%v: tensor<?xf32>, %i: index) {
  %x = mem.load %v[%i] : tensor<?xf32>
  func.return
}

// CHECK: mem.load needs a memref type, got tensor<?xf32>

// -----

func.func @store_scalar_type(%v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %x: f32, %i: index) {
  mem.store %x, %v[%i] : f32
  func.return
}

// CHECK: mem.store needs a memref type, got f32

// -----

func.func @array_0d_output_type(%v: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %x: f32) {
  mem.array [%x] outs(%v : memref<f32, strided<[], offset: ?>, #mem.space<device>>)
  func.return
}

// CHECK: mem.array needs a memref output of rank >= 1, got memref<f32, strided<[], offset: ?>, #mem.space<device>>

// -----

func.func @array_scalar_output_type(%x: f32) {
  mem.array [%x] outs(%x : f32)
  func.return
}

// CHECK: mem.array needs a memref output of rank >= 1, got f32

// -----

func.func @slice_entry_four_parts(%v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index) {
  %r = mem.slice %v[%i:%i:%i:%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// CHECK: a slice entry is %i, %offset:%count or %offset:%count:%stride

// -----

// ---- The fused kernels (mem.redomap, mem.scanomap, mem.scatteromap, mem.histomap)

func.func @redomap_no_inputs(%s: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %z: f32) {
  "mem.redomap"(%z, %s) <{commutative = array<i1: true>, operandSegmentSizes = array<i32: 0, 1, 1, 0>}> ({
  ^bb0:
    mem.yield %z : f32
  }, {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  }) : (f32, memref<f32, strided<[], offset: ?>, #mem.space<device>>) -> ()
  func.return
}

// CHECK: mem.redomap needs at least one input array (or, indexed, its row count)

// -----

// An indexed fused op's map lambda takes the row number last.
func.func @scanomap_indexed_without_row_number(%n: index, %o: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) {
  %z = arith.constant 0 : i32
  mem.scanomap outs(%o : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) indexed(%n) map {
  ^bb0:
    mem.yield %z : i32
  } scan(%z : i32) commutative {
  ^bb0(%l: i32, %r: i32):
    mem.yield %l : i32
  }
  func.return
}

// CHECK: mem.scanomap map lambda parameters are (); expected (index)

// -----

func.func @scatteromap_row_count_not_an_index(%n: i32, %o: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.scatteromap %o : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>> indexed(%n) map {
  ^bb0(%i: index):
    mem.yield %i, %n : index, i32
  }
  func.return
}

// CHECK: operand is used with type index, but has been previously used or defined with type i32

// -----

func.func @redomap_no_output_for_the_reduced_value(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) {
  mem.redomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x: f32):
    mem.yield %x : f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  }
  func.return
}

// CHECK: mem.redomap has 0 outputs; expected 1 for the reduced values, then the mapped outputs

// -----

func.func @redomap_lambda_params(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %s: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %z: f32) {
  mem.redomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%s : memref<f32, strided<[], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x: f64):
    mem.yield %z : f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  }
  func.return
}

// CHECK: mem.redomap map lambda parameters are (f64); expected (f32)

// -----

func.func @redomap_reduced_output_not_0d(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) {
  mem.redomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x: f32):
    mem.yield %x : f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  }
  func.return
}

// CHECK: mem.redomap output 0 has type memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>; expected a 0-d view of f32

// -----

func.func @redomap_result_types(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) {
  %r = mem.redomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> i32 map {
  ^bb0(%x: f32):
    mem.yield %x : f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  }
  func.return
}

// CHECK: mem.redomap results must be the reduced values (the operators' operand types)

// -----

func.func @redomap_mapped_output_rows(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %s: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %o: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) {
  mem.redomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%s, %o : memref<f32, strided<[], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x: f32):
    mem.yield %x, %x : f32, f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  }
  func.return
}

// CHECK: mem.redomap output 1 has rows of i64, but the lambda yields f32

// -----

func.func @scanomap_output_count(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) {
  mem.scanomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x: f32):
    mem.yield %x, %x : f32, f32
  } scan(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  }
  func.return
}

// CHECK: mem.scanomap has 1 outputs for 2 values per row

// -----

func.func @scanomap_post_params(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) {
  mem.scanomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x: f32):
    mem.yield %x, %x : f32, f32
  } scan(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  } post {
  ^bb0(%p: f32):
    mem.yield %p : f32
  }
  func.return
}

// CHECK: mem.scanomap post lambda parameters are (f32); expected (f32, f32)

// -----

func.func @scatteromap_index(%d: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.scatteromap %d : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x: f32):
    mem.yield %x, %x : f32, f32
  }
  func.return
}

// CHECK: mem.scatteromap map lambda must yield an index (index, i32 or i64), then an element of memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, then the mapped values

// -----

func.func @histomap_neutral(%h: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %z: f64, %x: f32) {
  mem.histomap %h : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> ins(%is : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%i: i64):
    mem.yield %i, %x : i64, f32
  } hist(%z : f64) {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  }
  func.return
}

// CHECK: mem.histomap neutral element has type f64; expected f32

// -----

func.func @redomap_parse_views(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) {
  mem.redomap ins(%a, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x: f32):
    mem.yield %x : f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  }
  func.return
}

// CHECK: 2 ins views but 1 types

// -----

func.func @histomap_parse_neutral(%h: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %z: f32) {
  mem.histomap %h : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> ins(%is : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%i: i64):
    mem.yield %i, %z : i64, f32
  } hist(%z, %z : f32, f32) {
  ^bb0(%l: f32, %r: f32):
    mem.yield %l : f32
  }
  func.return
}

// CHECK: mem.histomap takes one neutral element, found 2

// -----

// (mem.threshold's verifier: a name, and a default that is a size)
func.func @threshold_without_a_name() -> index {
  %t = mem.threshold "" default 32
  func.return %t : index
}

// CHECK: mem.threshold needs a name

// -----

func.func @threshold_below_zero() -> index {
  %t = mem.threshold "map0.tiled_from" default -1
  func.return %t : index
}

// CHECK: mem.threshold's default is a size, not -1
