// RUN: soacc-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// One chunk per soac verifier error (dialects/soac.py), in the order of the file, then
// the parse errors of the custom syntax. Generic syntax is used where the custom
// syntax cannot express the mistake.

// ---- soac.map (and the shared helpers _check_array, _check_same_outer, _check_lambda)

func.func @map_no_inputs() {
  %r = soac.map() : () -> tensor<?xf32> {
  ^bb0:
    %z = arith.constant 0.0 : f32
    soac.yield %z : f32
  }
  func.return
}

// CHECK: soac.map needs at least one input array

// -----

func.func @map_rank0_input(%a: tensor<f32>) {
  %r = soac.map(%a) : (tensor<f32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.map input 0 must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @map_bad_element_type(%a: tensor<?xi8>) {
  %r = soac.map(%a) : (tensor<?xi8>) -> tensor<?xi8> {
  ^bb0(%x: i8):
    soac.yield %x : i8
  }
  func.return
}

// CHECK: soac.map input 0 has element type i8; expected one of i1, i32, i64, index, f32, f64

// -----

func.func @map_rank0_result(%a: tensor<?xf32>) {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<f32> {
  ^bb0(%x: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.map result 0 must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @map_outer_mismatch(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  %r = soac.map(%a, %b) : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32> {
  ^bb0(%x: f32, %y: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.map input 1 has outer size 4, but an earlier one has 3; all must have the same outer size

// -----

func.func @map_result_outer_mismatch(%a: tensor<?xf32>, %b: tensor<3xf32>) {
  %r = soac.map(%a, %b) : (tensor<?xf32>, tensor<3xf32>) -> tensor<5xf32> {
  ^bb0(%x: f32, %y: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.map result 0 has outer size 5, but the inputs have 3

// -----

func.func @map_bad_params(%a: tensor<?xf32>, %b: tensor<?xi32>) {
  %r = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xi32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.map lambda parameters are (f32); expected (f32, i32)

// -----

func.func @map_row_params(%m: tensor<?x4xf32>) {
  %r = soac.map(%m) : (tensor<?x4xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.map lambda parameters are (f32); expected (tensor<4xf32>)

// -----

// A terminator, but not soac.yield (a non-terminator last op is rejected by xDSL first).
func.func @map_no_yield(%a: tensor<?xf32>) {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    ub.unreachable
  }
  func.return
}

// CHECK: soac.map lambda must end with soac.yield

// -----

func.func @map_yield_type(%a: tensor<?xf32>) {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xi32> {
  ^bb0(%x: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.map lambda yields (f32); expected (i32)

// -----

func.func @map_yield_count(%a: tensor<?xf32>) {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    soac.yield %x, %x : f32, f32
  }
  func.return
}

// CHECK: soac.map lambda yields (f32, f32); expected (f32)

// -----

// ---- soac.reduce (and _check_operator)

func.func @reduce_no_inputs(%z: f32) {
  soac.reduce() neutral(%z : f32) : () -> () {
  ^bb0(%x: f32, %y: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.reduce needs at least one input array

// -----

func.func @reduce_rank0_input(%a: tensor<f32>, %z: f32) {
  %r = soac.reduce(%a) neutral(%z : f32) : (tensor<f32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.reduce input 0 must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @reduce_outer_mismatch(%a: tensor<3xf32>, %b: tensor<?xf32>, %c: tensor<2xf32>, %z: f32) {
  %r:3 = soac.reduce(%a, %b, %c) neutral(%z, %z, %z : f32, f32, f32) : (tensor<3xf32>, tensor<?xf32>, tensor<2xf32>) -> (f32, f32, f32) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %y0: f32, %y1: f32, %y2: f32):
    soac.yield %x0, %x1, %x2 : f32, f32, f32
  }
  func.return
}

// CHECK: soac.reduce input 2 has outer size 2, but an earlier one has 3; all must have the same outer size

// -----

func.func @reduce_result_type(%a: tensor<?xf32>, %z: f32) {
  %r = soac.reduce(%a) neutral(%z : f32) : (tensor<?xf32>) -> f64 {
  ^bb0(%x: f32, %y: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.reduce results are (f64); expected the row types of its inputs (f32)

// -----

func.func @reduce_result_count(%a: tensor<?xf32>, %z: f32) {
  soac.reduce(%a) neutral(%z : f32) : (tensor<?xf32>) -> () {
  ^bb0(%x: f32, %y: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.reduce results are (); expected the row types of its inputs (f32)

// -----

func.func @reduce_neutral_count(%a: tensor<?xf32>, %z: f32) {
  %r = soac.reduce(%a) neutral(%z, %z : f32, f32) : (tensor<?xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.reduce has 1 input array(s) but 2 neutral element(s); expected one neutral element per array

// -----

func.func @reduce_neutral_type(%a: tensor<?xf32>, %z: i32) {
  %r = soac.reduce(%a) neutral(%z : i32) : (tensor<?xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.reduce neutral element 0 has type i32; expected f32

// -----

// The operator takes the left tuple and the right tuple: 2k parameters.
func.func @reduce_operator_arity(%a: tensor<?xf32>, %b: tensor<?xindex>, %z: f32, %i: index) {
  %r:2 = soac.reduce(%a, %b) neutral(%z, %i : f32, index) commutative : (tensor<?xf32>, tensor<?xindex>) -> (f32, index) {
  ^bb0(%x: f32, %y: index):
    soac.yield %x, %y : f32, index
  }
  func.return
}

// CHECK: soac.reduce lambda parameters are (f32, index); expected (f32, index, f32, index)

// -----

// ---- soac.scan

func.func @scan_no_inputs(%z: f32) {
  soac.scan() neutral(%z : f32) : () -> () {
  ^bb0(%x: f32, %y: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.scan needs at least one input array

// -----

func.func @scan_result_type(%a: tensor<?xf32>, %z: f32) {
  %r = soac.scan(%a) neutral(%z : f32) : (tensor<?xf32>) -> tensor<?xf64> {
  ^bb0(%x: f32, %y: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.scan results are (tensor<?xf64>); expected the types of its inputs (tensor<?xf32>)

// -----

func.func @scan_yield_type(%a: tensor<?xi64>, %z: i64) {
  %r = soac.scan(%a) neutral(%z : i64) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %c = arith.cmpi slt, %x, %y : i64
    soac.yield %c : i1
  }
  func.return
}

// CHECK: soac.scan lambda yields (i1); expected (i64)

// -----

// ---- soac.scatter (and _check_index_array)

func.func @scatter_rank0_dest(%d: tensor<f32>, %is: tensor<?xindex>, %v: tensor<?xf32>) {
  %r = soac.scatter %d[%is] = %v : tensor<f32>, tensor<?xindex>, tensor<?xf32>
  func.return
}

// CHECK: soac.scatter destination must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @scatter_float_indices(%d: tensor<?xf32>, %is: tensor<?xf32>, %v: tensor<?xf32>) {
  %r = soac.scatter %d[%is] = %v : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  func.return
}

// CHECK: soac.scatter indices must be a rank-1 tensor of index, i32 or i64, found tensor<?xf32>

// -----

func.func @scatter_bool_indices(%d: tensor<?xf32>, %is: tensor<?xi1>, %v: tensor<?xf32>) {
  %r = soac.scatter %d[%is] = %v : tensor<?xf32>, tensor<?xi1>, tensor<?xf32>
  func.return
}

// CHECK: soac.scatter indices must be a rank-1 tensor of index, i32 or i64, found tensor<?xi1>

// -----

func.func @scatter_rank2_indices(%d: tensor<?xf32>, %is: tensor<?x2xindex>, %v: tensor<?xf32>) {
  %r = soac.scatter %d[%is] = %v : tensor<?xf32>, tensor<?x2xindex>, tensor<?xf32>
  func.return
}

// CHECK: soac.scatter indices must be a rank-1 tensor of index, i32 or i64, found tensor<?x2xindex>

// -----

func.func @scatter_rank0_values(%d: tensor<?xf32>, %is: tensor<?xindex>, %v: tensor<f32>) {
  %r = soac.scatter %d[%is] = %v : tensor<?xf32>, tensor<?xindex>, tensor<f32>
  func.return
}

// CHECK: soac.scatter values must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @scatter_row_type(%d: tensor<?x4xf32>, %is: tensor<?xindex>, %v: tensor<?x5xf32>) {
  %r = soac.scatter %d[%is] = %v : tensor<?x4xf32>, tensor<?xindex>, tensor<?x5xf32>
  func.return
}

// CHECK: soac.scatter values have rows of type tensor<5xf32>; expected the destination's row type tensor<4xf32>

// -----

func.func @scatter_outer_mismatch(%d: tensor<?xf32>, %is: tensor<3xi32>, %v: tensor<4xf32>) {
  %r = soac.scatter %d[%is] = %v : tensor<?xf32>, tensor<3xi32>, tensor<4xf32>
  func.return
}

// CHECK: soac.scatter indices/values operand 1 has outer size 4, but an earlier one has 3; all must have the same outer size

// -----

// ---- soac.hist

func.func @hist_rank0_dest(%d: tensor<i32>, %is: tensor<?xindex>, %v: tensor<?xi32>, %z: i32) {
  %r = soac.hist %d[%is], %v neutral(%z : i32) : tensor<i32>, tensor<?xindex>, tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    soac.yield %x : i32
  }
  func.return
}

// CHECK: soac.hist destination must be a tensor of rank >= 1, found tensor<i32>

// -----

func.func @hist_indices(%d: tensor<256xi32>, %is: tensor<?xf64>, %v: tensor<?xi32>, %z: i32) {
  %r = soac.hist %d[%is], %v neutral(%z : i32) : tensor<256xi32>, tensor<?xf64>, tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    soac.yield %x : i32
  }
  func.return
}

// CHECK: soac.hist indices must be a rank-1 tensor of index, i32 or i64, found tensor<?xf64>

// -----

func.func @hist_values_type(%d: tensor<256xi32>, %is: tensor<?xindex>, %v: tensor<?xi64>, %z: i32) {
  %r = soac.hist %d[%is], %v neutral(%z : i32) : tensor<256xi32>, tensor<?xindex>, tensor<?xi64> {
  ^bb0(%x: i32, %y: i32):
    soac.yield %x : i32
  }
  func.return
}

// CHECK: soac.hist values have rows of type i64; expected the destination's row type i32

// -----

func.func @hist_outer_mismatch(%d: tensor<256xi32>, %is: tensor<8xindex>, %v: tensor<9xi32>, %z: i32) {
  %r = soac.hist %d[%is], %v neutral(%z : i32) : tensor<256xi32>, tensor<8xindex>, tensor<9xi32> {
  ^bb0(%x: i32, %y: i32):
    soac.yield %x : i32
  }
  func.return
}

// CHECK: soac.hist indices/values operand 1 has outer size 9, but an earlier one has 8; all must have the same outer size

// -----

func.func @hist_neutral_type(%d: tensor<256xi32>, %is: tensor<?xindex>, %v: tensor<?xi32>, %z: i64) {
  %r = soac.hist %d[%is], %v neutral(%z : i64) : tensor<256xi32>, tensor<?xindex>, tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    soac.yield %x : i32
  }
  func.return
}

// CHECK: soac.hist neutral element 0 has type i64; expected i32

// -----

func.func @hist_params(%d: tensor<256xi32>, %is: tensor<?xindex>, %v: tensor<?xi32>, %z: i32) {
  %r = soac.hist %d[%is], %v neutral(%z : i32) : tensor<256xi32>, tensor<?xindex>, tensor<?xi32> {
  ^bb0(%x: i32, %y: i64):
    soac.yield %x : i32
  }
  func.return
}

// CHECK: soac.hist lambda parameters are (i32, i64); expected (i32, i32)

// -----

// ---- soac.gpu_body

func.func @gpu_body_rank0_result(%x: f32) {
  %r = soac.gpu_body -> tensor<f32> {
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.gpu_body result 0 must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @gpu_body_outer_size(%x: f32) {
  %r = soac.gpu_body -> tensor<2xf32> {
    soac.yield %x : f32
  }
  func.return
}

// CHECK: soac.gpu_body result 0 has type tensor<2xf32>; results must have outer size 1

// -----

func.func @gpu_body_dynamic_outer(%x: f32) {
  %r:2 = soac.gpu_body -> tensor<1xf32>, tensor<?xf32> {
    soac.yield %x, %x : f32, f32
  }
  func.return
}

// CHECK: soac.gpu_body result 1 has type tensor<?xf32>; results must have outer size 1

// -----

func.func @gpu_body_arguments(%x: f32) {
  %r = soac.gpu_body -> tensor<1xf32> {
  ^bb0(%y: f32):
    soac.yield %y : f32
  }
  func.return
}

// CHECK: soac.gpu_body body takes no arguments

// -----

func.func @gpu_body_yield(%x: f32) {
  %r = soac.gpu_body -> tensor<1xf32> {
    soac.yield
  }
  func.return
}

// CHECK: soac.gpu_body lambda yields (); expected (f32)

// -----

// ---- soac.iota

func.func @iota_float(%n: index) {
  %r = soac.iota %n : tensor<?xf32>
  func.return
}

// CHECK: soac.iota result must be a rank-1 tensor of index, i32 or i64, found tensor<?xf32>

// -----

func.func @iota_i1(%n: index) {
  %r = soac.iota %n : tensor<?xi1>
  func.return
}

// CHECK: soac.iota result must be a rank-1 tensor of index, i32 or i64, found tensor<?xi1>

// -----

func.func @iota_i16(%n: index) {
  %r = soac.iota %n : tensor<?xi16>
  func.return
}

// CHECK: soac.iota result must be a rank-1 tensor of index, i32 or i64, found tensor<?xi16>

// -----

func.func @iota_rank2(%n: index) {
  %r = soac.iota %n : tensor<?x2xindex>
  func.return
}

// CHECK: soac.iota result must be a rank-1 tensor of index, i32 or i64, found tensor<?x2xindex>

// -----

// ---- soac.replicate

func.func @replicate_rank0(%n: index, %x: f32) {
  %r = soac.replicate %n, %x : f32 -> tensor<f32>
  func.return
}

// CHECK: soac.replicate result must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @replicate_row_type(%n: index, %v: tensor<?xf32>) {
  %r = soac.replicate %n, %v : tensor<?xf32> -> tensor<?xf32>
  func.return
}

// CHECK: soac.replicate result tensor<?xf32> must have rows of the value's type tensor<?xf32>

// -----

// ---- soac.array (generic syntax: the custom parser gives the elements the row type)

func.func @array_rank0(%x: f32) {
  %r = "soac.array"(%x) : (f32) -> tensor<f32>
  func.return
}

// CHECK: soac.array result must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @array_count(%x: f32) {
  %r = soac.array [%x, %x] : tensor<3xf32>
  func.return
}

// CHECK: soac.array result tensor<3xf32> has outer size 3, but 2 elements are given

// -----

func.func @array_element_type(%x: f32, %y: f64) {
  %r = "soac.array"(%x, %y) : (f32, f64) -> tensor<2xf32>
  func.return
}

// CHECK: soac.array element 1 has type f64; expected f32

// -----

// ---- soac.index

func.func @index_rank0(%a: tensor<f32>) {
  %r = soac.index %a[] : tensor<f32>
  func.return
}

// CHECK: soac.index array must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @index_no_indices(%a: tensor<?xf32>) {
  %r = soac.index %a[] : tensor<?xf32>
  func.return
}

// CHECK: soac.index has 0 indices for an array of rank 1; expected 1 to 1

// -----

func.func @index_too_many(%a: tensor<?x?xf32>, %i: index) {
  %r = "soac.index"(%a, %i, %i, %i) : (tensor<?x?xf32>, index, index, index) -> f32
  func.return
}

// CHECK: soac.index has 3 indices for an array of rank 2; expected 1 to 2

// -----

func.func @index_result_type(%a: tensor<?x4xf32>, %i: index) {
  %r = "soac.index"(%a, %i) : (tensor<?x4xf32>, index) -> f32
  func.return
}

// CHECK: soac.index result has type f32; expected tensor<4xf32>

// -----

// ---- soac.slice (and SliceSpec.verify)

func.func @slice_rank0(%a: tensor<f32>, %i: index) {
  %r = "soac.slice"(%a) <{kinds = array<i64>}> : (tensor<f32>) -> tensor<f32>
  func.return
}

// CHECK: soac.slice source must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @slice_bad_kind(%a: tensor<?xf32>, %i: index) {
  %r = "soac.slice"(%a, %i) <{kinds = array<i64: 3>}> : (tensor<?xf32>, index) -> tensor<?xf32>
  func.return
}

// CHECK: soac.slice: slice kinds must be 0, 1 or 2, found [3]

// -----

func.func @slice_operand_count(%a: tensor<?x?xf32>, %i: index) {
  %r = "soac.slice"(%a, %i, %i) <{kinds = array<i64: 0, 1>}> : (tensor<?x?xf32>, index, index) -> tensor<?xf32>
  func.return
}

// CHECK: soac.slice: the slice kinds need 3 index operands, found 2

// -----

func.func @slice_too_many_entries(%a: tensor<?xf32>, %i: index, %n: index) {
  %r = soac.slice %a[%i:%n, %i] : tensor<?xf32> -> tensor<?xf32>
  func.return
}

// CHECK: soac.slice: 2 slice entries for an array of rank 1

// -----

func.func @slice_every_dim_fixed(%a: tensor<?x?xf32>, %i: index) {
  %r = soac.slice %a[%i, %i] : tensor<?x?xf32> -> tensor<?xf32>
  func.return
}

// CHECK: soac.slice fixes every dimension; use soac.index for an element

// -----

func.func @slice_result_rank(%a: tensor<?x?xf32>, %i: index, %n: index) {
  %r = soac.slice %a[%i, %i:%n] : tensor<?x?xf32> -> tensor<?x?xf32>
  func.return
}

// CHECK: soac.slice result has type tensor<?x?xf32>; expected a tensor of rank 1 of f32

// -----

func.func @slice_result_element(%a: tensor<?xf32>, %i: index, %n: index) {
  %r = soac.slice %a[%i:%n] : tensor<?xf32> -> tensor<?xf64>
  func.return
}

// CHECK: soac.slice result has type tensor<?xf64>; expected a tensor of rank 1 of f32

// -----

func.func @slice_tail_dims(%a: tensor<?x4x5xf32>, %i: index, %n: index) {
  %r = soac.slice %a[%i:%n] : tensor<?x4x5xf32> -> tensor<?x4x6xf32>
  func.return
}

// CHECK: soac.slice result tensor<?x4x6xf32> does not keep the unsliced dimensions of tensor<?x4x5xf32>

// -----

// ---- soac.device_index and soac.device_update

func.func @device_index_all_dims(%a: tensor<?x?xf32>, %p: tensor<1xindex>, %i: index) {
  %r = "soac.device_index"(%a, %p, %i) : (tensor<?x?xf32>, tensor<1xindex>, index) -> tensor<f32>
  func.return
}

// CHECK: soac.device_index has 2 indices for an array of rank 2; expected 1 to 1 (an element at a device index is read in a soac.gpu_body)

// -----

func.func @device_index_bad_index_type(%a: tensor<?x?xf32>, %p: tensor<2xindex>) {
  %r = soac.device_index %a[%p] : tensor<?x?xf32>, tensor<2xindex>
  func.return
}

// CHECK: soac.device_index index 0 has type tensor<2xindex>; expected index or tensor<1xindex>

// -----

func.func @device_index_no_device_index(%a: tensor<?x?xf32>, %i: index) {
  %r = soac.device_index %a[%i] : tensor<?x?xf32>, index
  func.return
}

// CHECK: soac.device_index has no index of type tensor<1xindex>; without one it is soac.index

// -----

func.func @device_index_result(%a: tensor<?x?xf32>, %p: tensor<1xindex>) {
  %r = "soac.device_index"(%a, %p) : (tensor<?x?xf32>, tensor<1xindex>) -> tensor<?xf64>
  func.return
}

// CHECK: soac.device_index result has type tensor<?xf64>; expected tensor<?xf32>

// -----

func.func @device_update_value(%a: tensor<?x?xf32>, %p: tensor<1xindex>, %v: tensor<?x?xf32>) {
  %r = soac.device_update %a[%p] = %v : tensor<?x?xf32>, tensor<1xindex>, tensor<?x?xf32>
  func.return
}

// CHECK: soac.device_update value has type tensor<?x?xf32>; expected tensor<?xf32>

// -----

func.func @device_update_no_device_index(%a: tensor<?x?xf32>, %i: index, %v: tensor<?xf32>) {
  %r = soac.device_update %a[%i] = %v : tensor<?x?xf32>, index, tensor<?xf32>
  func.return
}

// CHECK: soac.device_update has no index of type tensor<1xindex>; without one it is soac.update

// -----

func.func @device_index_count_on_the_device(%a: tensor<?xf32>, %p: tensor<1xindex>, %n: tensor<1xindex>) {
  %r = soac.device_index %a[%p:%n] : tensor<?xf32>, tensor<1xindex>, tensor<1xindex> -> tensor<?xf32>
  func.return
}

// CHECK: soac.device_index index 1 (a count) has type tensor<1xindex>; expected index (the host sizes the result)

// -----

func.func @device_index_slice_result(%a: tensor<?x4xf32>, %p: tensor<1xindex>, %n: index) {
  %r = soac.device_index %a[%p:%n] : tensor<?x4xf32>, tensor<1xindex>, index -> tensor<?x3xf32>
  func.return
}

// CHECK: soac.device_index result tensor<?x3xf32> does not keep the unsliced dimensions of tensor<?x4xf32>

// -----

func.func @device_index_slice_without_result_type(%a: tensor<?xf32>, %p: tensor<1xindex>, %n: index) {
  %r = soac.device_index %a[%p:%n] : tensor<?xf32>, tensor<1xindex>, index
  func.return
}

// CHECK: before the result type of a soac.device_index with a range

// -----

func.func @device_update_element_value(%a: tensor<?xf32>, %p: tensor<1xindex>, %x: f64) {
  %r = soac.device_update %a[%p] = %x : tensor<?xf32>, tensor<1xindex>, f64
  func.return
}

// CHECK: soac.device_update value has type f64; expected f32

// -----

// ---- soac.update

func.func @update_rank0(%a: tensor<f32>, %x: f32) {
  %r = "soac.update"(%a, %x) <{kinds = array<i64>}> : (tensor<f32>, f32) -> tensor<f32>
  func.return
}

// CHECK: soac.update source must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @update_too_many_entries(%a: tensor<?xf32>, %i: index, %x: f32) {
  %r = soac.update %a[%i, %i] = %x : tensor<?xf32>, f32
  func.return
}

// CHECK: soac.update: 2 slice entries for an array of rank 1

// -----

func.func @update_element_type(%a: tensor<?x?xf32>, %i: index, %x: f64) {
  %r = soac.update %a[%i, %i] = %x : tensor<?x?xf32>, f64
  func.return
}

// CHECK: soac.update value has type f64; every dimension is fixed, so expected the element type f32

// -----

func.func @update_value_rank(%a: tensor<?x?xf32>, %i: index, %x: f32) {
  %r = soac.update %a[%i] = %x : tensor<?x?xf32>, f32
  func.return
}

// CHECK: soac.update value has type f32; expected a tensor of rank 1 of f32

// -----

func.func @update_value_element(%a: tensor<?x?xf32>, %i: index, %n: index, %v: tensor<?x?xi32>) {
  %r = soac.update %a[%i:%n] = %v : tensor<?x?xf32>, tensor<?x?xi32>
  func.return
}

// CHECK: soac.update value has type tensor<?x?xi32>; expected a tensor of rank 2 of f32

// -----

// ---- soac.concat

func.func @concat_no_inputs() {
  %r = soac.concat : () -> tensor<?xf32>
  func.return
}

// CHECK: soac.concat needs at least one input array

// -----

func.func @concat_rank0_result(%a: tensor<?xf32>) {
  %r = soac.concat %a : (tensor<?xf32>) -> tensor<f32>
  func.return
}

// CHECK: soac.concat result must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @concat_rank0_input(%a: tensor<?xf32>, %b: tensor<f32>) {
  %r = soac.concat %a, %b : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  func.return
}

// CHECK: soac.concat input 1 must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @concat_row_type(%a: tensor<?x3xf32>, %b: tensor<?x4xf32>) {
  %r = soac.concat %a, %b : (tensor<?x3xf32>, tensor<?x4xf32>) -> tensor<?x3xf32>
  func.return
}

// CHECK: soac.concat input 1 has rows of type tensor<4xf32>; expected tensor<3xf32>

// -----

func.func @concat_outer_size(%a: tensor<3xi32>, %b: tensor<4xi32>) {
  %r = soac.concat %a, %b : (tensor<3xi32>, tensor<4xi32>) -> tensor<8xi32>
  func.return
}

// CHECK: soac.concat result has outer size 8; the inputs add up to 7

// -----

// ---- soac.transpose

func.func @transpose_rank0(%a: tensor<f32>) {
  %r = soac.transpose %a [] : tensor<f32> -> tensor<f32>
  func.return
}

// CHECK: soac.transpose input must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @transpose_not_permutation(%a: tensor<?x4xf32>) {
  %r = soac.transpose %a [1, 1] : tensor<?x4xf32> -> tensor<4x4xf32>
  func.return
}

// CHECK: soac.transpose permutation [1, 1] is not a permutation of the 2 dimensions of tensor<?x4xf32>

// -----

func.func @transpose_wrong_length(%a: tensor<2x3x4xf32>) {
  %r = soac.transpose %a [1, 0] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  func.return
}

// CHECK: soac.transpose permutation [1, 0] is not a permutation of the 3 dimensions of tensor<2x3x4xf32>

// -----

func.func @transpose_result(%a: tensor<2x3xf32>) {
  %r = soac.transpose %a [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  func.return
}

// CHECK: soac.transpose result has type tensor<2x3xf32>; expected tensor<3x2xf32>

// -----

// ---- soac.copy

func.func @copy_rank0(%a: tensor<f32>) {
  %r = soac.copy %a : tensor<f32>
  func.return
}

// CHECK: soac.copy input must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @copy_element_type(%a: tensor<?xf16>) {
  %r = soac.copy %a : tensor<?xf16>
  func.return
}

// CHECK: soac.copy input has element type f16; expected one of i1, i32, i64, index, f32, f64

// -----

// ---- soac.size

func.func @size_rank0(%a: tensor<f32>) {
  %r = soac.size %a[0] : tensor<f32>
  func.return
}

// CHECK: soac.size array must be a tensor of rank >= 1, found tensor<f32>

// -----

func.func @size_dim_out_of_range(%a: tensor<?x4xf32>) {
  %r = soac.size %a[2] : tensor<?x4xf32>
  func.return
}

// CHECK: soac.size dimension 2 is out of range for an array of rank 2

// -----

func.func @size_negative_dim(%a: tensor<?xf32>) {
  %r = soac.size %a[-1] : tensor<?xf32>
  func.return
}

// CHECK: soac.size dimension -1 is out of range for an array of rank 1

// -----

// ---- soac.yield (trait HasParent)

func.func @yield_outside_lambda(%x: f32) {
  soac.yield %x : f32
}

// CHECK: 'soac.yield' expects parent op to be one of 'soac.map', 'soac.reduce', 'soac.scan', 'soac.hist', 'soac.gpu_body'

// -----

// ---- parse errors of the custom syntax

func.func @slice_entry_four_parts(%a: tensor<?xf32>, %i: index) {
  %r = soac.slice %a[%i:%i:%i:%i] : tensor<?xf32> -> tensor<?xf32>
  func.return
}

// CHECK: a slice entry is %i, %offset:%count or %offset:%count:%stride

// -----

func.func @array_scalar_type(%x: f32) {
  %r = soac.array [%x] : f32
  func.return
}

// CHECK: soac.array needs a tensor result type of rank >= 1, got f32

// -----

func.func @array_rank0_type(%x: f32) {
  %r = soac.array [%x] : tensor<f32>
  func.return
}

// CHECK: soac.array needs a tensor result type of rank >= 1, got tensor<f32>

// -----

func.func @index_too_many_indices(%a: tensor<?xf32>, %i: index) {
  %r = soac.index %a[%i, %i] : tensor<?xf32>
  func.return
}

// CHECK: soac.index of 2 indices needs a tensor type of rank >= 2, got tensor<?xf32>

// -----

func.func @index_not_tensor(%a: tensor<?xf32>, %i: index) {
  %r = soac.index %a[%i] : f32
  func.return
}

// CHECK: soac.index of 1 indices needs a tensor type of rank >= 1, got f32

// -----

// ---- The fused combinators (soac-fusion's redomap, scanomap, scatteromap, histomap)

func.func @redomap_no_inputs(%z: f32) {
  %r = "soac.redomap"(%z) <{commutative = array<i1: true>, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0:
    soac.yield %z : f32
  }, {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }) : (f32) -> f32
  func.return
}

// CHECK: soac.redomap needs at least one input array

// -----

func.func @redomap_lambda_params(%a: tensor<?xf32>, %z: f32) {
  %r = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f64):
    soac.yield %z : f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return
}

// CHECK: soac.redomap map lambda parameters are (f64); expected the rows of its inputs (f32)

// -----

func.func @redomap_no_operator(%a: tensor<?xf32>, %z: f32) {
  %r = "soac.redomap"(%a) <{commutative = array<i1>, operandSegmentSizes = array<i32: 1, 0>}> ({
  ^bb0(%x: f32):
    soac.yield %x : f32
  }) : (tensor<?xf32>) -> tensor<?xf32>
  func.return
}

// CHECK: soac.redomap needs at least one reduce operator

// -----

func.func @redomap_operator_odd_params(%a: tensor<?xf32>, %z: f32) {
  %r = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f32):
    soac.yield %x : f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32, %s: f32):
    soac.yield %l : f32
  }
  func.return
}

// CHECK: soac.redomap reduce operator 0 has 3 parameters; an operator over k-tuples has 2k (k >= 1)

// -----

func.func @redomap_flags(%a: tensor<?xf32>, %z: f32) {
  %r = "soac.redomap"(%a, %z) <{commutative = array<i1: true, false>, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32):
    soac.yield %x : f32
  }, {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }) : (tensor<?xf32>, f32) -> f32
  func.return
}

// CHECK: soac.redomap has 1 reduce operators but 2 commutative flags

// -----

func.func @redomap_neutral_count(%a: tensor<?xf32>, %z: f32) {
  %r = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f32):
    soac.yield %x : f32
  } reduce(%z, %z : f32, f32) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return
}

// CHECK: soac.redomap operators take 1 operands but 2 neutral element(s) are given; expected one per operand

// -----

func.func @redomap_too_few_yields(%a: tensor<?xf32>, %z: f32) {
  %r = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f32):
    soac.yield
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return
}

// CHECK: soac.redomap map lambda yields 0 values, but its operators take 1 operands (the lambda yields the operands first, then mapped values)

// -----

func.func @redomap_array_operand(%m: tensor<?x4xf32>, %z: tensor<4xf32>) {
  %r = soac.redomap(%m) : (tensor<?x4xf32>) -> tensor<4xf32> map {
  ^bb0(%x: tensor<4xf32>):
    soac.yield %x : tensor<4xf32>
  } reduce(%z : tensor<4xf32>) {
  ^bb0(%l: tensor<4xf32>, %r: tensor<4xf32>):
    soac.yield %l : tensor<4xf32>
  }
  func.return
}

// CHECK: soac.redomap operand 0 has type tensor<4xf32>; operands of a fused combinator are scalars

// -----

func.func @redomap_neutral_type(%a: tensor<?xf32>, %z: f64) {
  %r = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f32):
    soac.yield %x : f32
  } reduce(%z : f64) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return
}

// CHECK: soac.redomap neutral element 0 has type f64; expected f32

// -----

func.func @redomap_result_count(%a: tensor<?xf32>, %z: f32) {
  %r, %s = soac.redomap(%a) : (tensor<?xf32>) -> (f32, f32) map {
  ^bb0(%x: f32):
    soac.yield %x : f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return
}

// CHECK: soac.redomap has 2 results; expected 1 reduced values and 0 mapped arrays

// -----

func.func @redomap_result_type(%a: tensor<?xf32>, %z: f32) {
  %r = soac.redomap(%a) : (tensor<?xf32>) -> i32 map {
  ^bb0(%x: f32):
    soac.yield %x : f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return
}

// CHECK: soac.redomap result 0 has type i32; expected f32

// -----

func.func @redomap_mapped_result(%a: tensor<?xf32>, %z: f32) {
  %r, %m = soac.redomap(%a) : (tensor<?xf32>) -> (f32, tensor<?xi32>) map {
  ^bb0(%x: f32):
    soac.yield %x, %x : f32, f32
  } reduce(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return
}

// CHECK: soac.redomap result 1 has type tensor<?xi32>; expected an array of ? rows of f32

// -----

func.func @scanomap_post_params(%a: tensor<?xf32>, %z: f32) {
  %r = soac.scanomap(%a) : (tensor<?xf32>) -> tensor<?xf32> map {
  ^bb0(%x: f32):
    soac.yield %x, %x : f32, f32
  } scan(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  } post {
  ^bb0(%s: f32):
    soac.yield %s : f32
  }
  func.return
}

// CHECK: soac.scanomap post lambda parameters are (f32); expected the scanned and mapped values (f32, f32)

// -----

func.func @scanomap_result_count(%a: tensor<?xf32>, %z: f32) {
  %r = soac.scanomap(%a) : (tensor<?xf32>) -> tensor<?xf32> map {
  ^bb0(%x: f32):
    soac.yield %x, %x : f32, f32
  } scan(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return
}

// CHECK: soac.scanomap has 1 results; its map lambda gives 2 per row

// -----

func.func @scanomap_post_result_count(%a: tensor<?xf32>, %z: f32) {
  %r, %s = soac.scanomap(%a) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) map {
  ^bb0(%x: f32):
    soac.yield %x : f32
  } scan(%z : f32) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  } post {
  ^bb0(%p: f32):
    soac.yield %p : f32
  }
  func.return
}

// CHECK: soac.scanomap has 2 results; its post lambda gives 1 per row

// -----

func.func @scatteromap_too_few_yields(%d: tensor<?xf32>, %is: tensor<?xi64>) {
  %r = soac.scatteromap %d(%is) : tensor<?xf32>, (tensor<?xi64>) -> tensor<?xf32> map {
  ^bb0(%i: i64):
    soac.yield %i : i64
  }
  func.return
}

// CHECK: soac.scatteromap map lambda yields 1 values; expected an index, a value, then mapped values

// -----

func.func @scatteromap_index_type(%d: tensor<?xf32>, %a: tensor<?xf32>) {
  %r = soac.scatteromap %d(%a) : tensor<?xf32>, (tensor<?xf32>) -> tensor<?xf32> map {
  ^bb0(%x: f32):
    soac.yield %x, %x : f32, f32
  }
  func.return
}

// CHECK: soac.scatteromap map lambda yields an index of type f32; expected index, i32 or i64

// -----

func.func @scatteromap_value_type(%d: tensor<?xf32>, %is: tensor<?xi64>) {
  %r = soac.scatteromap %d(%is) : tensor<?xf32>, (tensor<?xi64>) -> tensor<?xf32> map {
  ^bb0(%i: i64):
    soac.yield %i, %i : i64, i64
  }
  func.return
}

// CHECK: soac.scatteromap map lambda yields a value of type i64; expected the destination's element type f32 (a scalar)

// -----

func.func @scatteromap_result_type(%d: tensor<?xf32>, %is: tensor<?xi64>, %x: f32) {
  %r = soac.scatteromap %d(%is) : tensor<?xf32>, (tensor<?xi64>) -> tensor<8xf32> map {
  ^bb0(%i: i64):
    soac.yield %i, %x : i64, f32
  }
  func.return
}

// CHECK: soac.scatteromap result 0 must have the destination's type tensor<?xf32>

// -----

func.func @scatteromap_result_count(%d: tensor<?xf32>, %is: tensor<?xi64>, %x: f32) {
  %r, %s = soac.scatteromap %d(%is) : tensor<?xf32>, (tensor<?xi64>) -> (tensor<?xf32>, tensor<?xf32>) map {
  ^bb0(%i: i64):
    soac.yield %i, %x : i64, f32
  }
  func.return
}

// CHECK: soac.scatteromap has 2 results; expected the destination and 0 mapped arrays

// -----

func.func @histomap_operator(%h: tensor<16xi32>, %is: tensor<?xi64>, %z: i32) {
  %r = soac.histomap %h(%is) : tensor<16xi32>, (tensor<?xi64>) -> tensor<16xi32> map {
  ^bb0(%i: i64):
    soac.yield %i, %z : i64, i32
  } hist(%z : i32) {
  ^bb0(%l: i64, %r: i64):
    soac.yield %l : i64
  }
  func.return
}

// CHECK: soac.histomap lambda parameters are (i64, i64); expected (i32, i32)

// -----

func.func @histomap_result_count(%h: tensor<16xi32>, %is: tensor<?xi64>, %z: i32) {
  %r, %s = soac.histomap %h(%is) : tensor<16xi32>, (tensor<?xi64>) -> (tensor<16xi32>, tensor<16xi32>) map {
  ^bb0(%i: i64):
    soac.yield %i, %z : i64, i32
  } hist(%z : i32) {
  ^bb0(%l: i32, %r: i32):
    soac.yield %l : i32
  }
  func.return
}

// CHECK: soac.histomap has 2 results; expected the destination and 0 mapped arrays

// -----

func.func @redomap_parse_no_operator(%a: tensor<?xf32>) {
  %r = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: expected `reduce(...)` and its operator

// -----

func.func @redomap_parse_input_types(%a: tensor<?xf32>) {
  %r = soac.redomap(%a, %a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f32):
    soac.yield %x : f32
  }
  func.return
}

// CHECK: 2 inputs but 1 input types

// -----

func.func @redomap_parse_neutral_types(%a: tensor<?xf32>, %z: f32) {
  %r = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f32):
    soac.yield %x : f32
  } reduce(%z : f32, f32) {
  ^bb0(%l: f32, %r: f32):
    soac.yield %l : f32
  }
  func.return
}

// CHECK: 1 neutral elements but 2 types
