// RUN: soacc-opt %s --print-op-generic --split-input-file | soacc-opt --split-input-file | filecheck %s
// RUN: soacc-opt %s --print-op-generic --split-input-file | filecheck %s --check-prefix=CHECK-GENERIC
// RUN: xdsl-opt %s | filecheck %s

// Every soac op and syntactic variant: custom form -> generic -> custom, the generic
// form itself, and plain xdsl-opt (the dialect is found through the entry point).

// CHECK:      builtin.module {
// CHECK-GENERIC: "builtin.module"() ({

// CHECK-NEXT:   func.func @map_two_inputs_two_results(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
// CHECK-NEXT:     %sum, %lt = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
// CHECK-NEXT:     ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:       %s = arith.addf %x, %y : f32
// CHECK-NEXT:       %c = arith.cmpf olt, %x, %y : f32
// CHECK-NEXT:       soac.yield %s, %c : f32, i1
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %sum, %lt : tensor<?xf32>, tensor<?xi1>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "map_two_inputs_two_results", function_type = (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>):
// CHECK-GENERIC-NEXT:     %sum, %lt = "soac.map"(%a, %b) ({
// CHECK-GENERIC-NEXT:     ^bb0(%x: f32, %y: f32):
// CHECK-GENERIC:       "soac.yield"(%s, %c) : (f32, i1) -> ()
// CHECK-GENERIC-NEXT:     }) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>)
func.func @map_two_inputs_two_results(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
  %sum, %lt = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %c = arith.cmpf olt, %x, %y : f32
    soac.yield %s, %c : f32, i1
  }
  func.return %sum, %lt : tensor<?xf32>, tensor<?xi1>
}

// CHECK-NEXT:   func.func @map_of_reduce(%m: tensor<?x8xf64>, %zero: f64) -> tensor<?xf64> {
// CHECK-NEXT:     %rowsums = soac.map(%m) : (tensor<?x8xf64>) -> tensor<?xf64> {
// CHECK-NEXT:     ^bb0(%row: tensor<8xf64>):
// CHECK-NEXT:       %rs = soac.reduce(%row) neutral(%zero : f64) commutative : (tensor<8xf64>) -> f64 {
// CHECK-NEXT:       ^bb0(%p: f64, %q: f64):
// CHECK-NEXT:         %pq = arith.addf %p, %q : f64
// CHECK-NEXT:         soac.yield %pq : f64
// CHECK-NEXT:       }
// CHECK-NEXT:       soac.yield %rs : f64
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %rowsums : tensor<?xf64>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "map_of_reduce", function_type = (tensor<?x8xf64>, f64) -> tensor<?xf64>}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%m: tensor<?x8xf64>, %zero: f64):
// CHECK-GENERIC-NEXT:     %rowsums = "soac.map"(%m) ({
// CHECK-GENERIC-NEXT:     ^bb0(%row: tensor<8xf64>):
// CHECK-GENERIC-NEXT:       %rs = "soac.reduce"(%row, %zero) <{commutative, operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-GENERIC-NEXT:       ^bb0(%p: f64, %q: f64):
// CHECK-GENERIC:         "soac.yield"(%pq) : (f64) -> ()
// CHECK-GENERIC-NEXT:       }) : (tensor<8xf64>, f64) -> f64
// CHECK-GENERIC-NEXT:       "soac.yield"(%rs) : (f64) -> ()
// CHECK-GENERIC-NEXT:     }) : (tensor<?x8xf64>) -> tensor<?xf64>
func.func @map_of_reduce(%m: tensor<?x8xf64>, %zero: f64) -> tensor<?xf64> {
  %rowsums = soac.map(%m) : (tensor<?x8xf64>) -> tensor<?xf64> {
  ^bb0(%row: tensor<8xf64>):
    %rs = soac.reduce(%row) neutral(%zero : f64) commutative : (tensor<8xf64>) -> f64 {
    ^bb0(%p: f64, %q: f64):
      %pq = arith.addf %p, %q : f64
      soac.yield %pq : f64
    }
    soac.yield %rs : f64
  }
  func.return %rowsums : tensor<?xf64>
}

// CHECK-NEXT:   func.func @map_of_map(%m: tensor<4x?xi64>, %k: i64) -> tensor<4x?xi64> {
// CHECK-NEXT:     %scaled = soac.map(%m) : (tensor<4x?xi64>) -> tensor<4x?xi64> {
// CHECK-NEXT:     ^bb0(%r: tensor<?xi64>):
// CHECK-NEXT:       %inner = soac.map(%r) : (tensor<?xi64>) -> tensor<?xi64> {
// CHECK-NEXT:       ^bb0(%e: i64):
// CHECK-NEXT:         %ek = arith.muli %e, %k : i64
// CHECK-NEXT:         soac.yield %ek : i64
// CHECK-NEXT:       }
// CHECK-NEXT:       soac.yield %inner : tensor<?xi64>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %scaled : tensor<4x?xi64>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "map_of_map", function_type = (tensor<4x?xi64>, i64) -> tensor<4x?xi64>}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%m: tensor<4x?xi64>, %k: i64):
// CHECK-GENERIC-NEXT:     %scaled = "soac.map"(%m) ({
// CHECK-GENERIC-NEXT:     ^bb0(%r: tensor<?xi64>):
// CHECK-GENERIC-NEXT:       %inner = "soac.map"(%r) ({
// CHECK-GENERIC-NEXT:       ^bb0(%e: i64):
// CHECK-GENERIC:         "soac.yield"(%ek) : (i64) -> ()
// CHECK-GENERIC-NEXT:       }) : (tensor<?xi64>) -> tensor<?xi64>
// CHECK-GENERIC-NEXT:       "soac.yield"(%inner) : (tensor<?xi64>) -> ()
// CHECK-GENERIC-NEXT:     }) : (tensor<4x?xi64>) -> tensor<4x?xi64>
func.func @map_of_map(%m: tensor<4x?xi64>, %k: i64) -> tensor<4x?xi64> {
  %scaled = soac.map(%m) : (tensor<4x?xi64>) -> tensor<4x?xi64> {
  ^bb0(%r: tensor<?xi64>):
    %inner = soac.map(%r) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb0(%e: i64):
      %ek = arith.muli %e, %k : i64
      soac.yield %ek : i64
    }
    soac.yield %inner : tensor<?xi64>
  }
  func.return %scaled : tensor<4x?xi64>
}

// CHECK-NEXT:   func.func @reduce_argmax(%v: tensor<?xf32>, %is: tensor<?xindex>, %ninf: f32, %i0: index) -> (f32, index) {
// CHECK-NEXT:     %best, %at = soac.reduce(%v, %is) neutral(%ninf, %i0 : f32, index) : (tensor<?xf32>, tensor<?xindex>) -> (f32, index) {
// CHECK-NEXT:     ^bb0(%v1: f32, %i1: index, %v2: f32, %i2: index):
// CHECK-NEXT:       %gt = arith.cmpf ogt, %v2, %v1 : f32
// CHECK-NEXT:       %bv = arith.select %gt, %v2, %v1 : f32
// CHECK-NEXT:       %bi = arith.select %gt, %i2, %i1 : index
// CHECK-NEXT:       soac.yield %bv, %bi : f32, index
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %best, %at : f32, index
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "reduce_argmax", function_type = (tensor<?xf32>, tensor<?xindex>, f32, index) -> (f32, index)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%v: tensor<?xf32>, %is: tensor<?xindex>, %ninf: f32, %i0: index):
// CHECK-GENERIC-NEXT:     %best, %at = "soac.reduce"(%v, %is, %ninf, %i0) <{operandSegmentSizes = array<i32: 2, 2>}> ({
// CHECK-GENERIC-NEXT:     ^bb0(%v1: f32, %i1: index, %v2: f32, %i2: index):
// CHECK-GENERIC:       "soac.yield"(%bv, %bi) : (f32, index) -> ()
// CHECK-GENERIC-NEXT:     }) : (tensor<?xf32>, tensor<?xindex>, f32, index) -> (f32, index)
func.func @reduce_argmax(%v: tensor<?xf32>, %is: tensor<?xindex>, %ninf: f32, %i0: index) -> (f32, index) {
  %best, %at = soac.reduce(%v, %is) neutral(%ninf, %i0 : f32, index) : (tensor<?xf32>, tensor<?xindex>) -> (f32, index) {
  ^bb0(%v1: f32, %i1: index, %v2: f32, %i2: index):
    %gt = arith.cmpf ogt, %v2, %v1 : f32
    %bv = arith.select %gt, %v2, %v1 : f32
    %bi = arith.select %gt, %i2, %i1 : index
    soac.yield %bv, %bi : f32, index
  }
  func.return %best, %at : f32, index
}

// CHECK-NEXT:   func.func @reduce_commutative(%v: tensor<16xi32>, %z: i32) -> i32 {
// CHECK-NEXT:     %total = soac.reduce(%v) neutral(%z : i32) commutative : (tensor<16xi32>) -> i32 {
// CHECK-NEXT:     ^bb0(%s1: i32, %s2: i32):
// CHECK-NEXT:       %s3 = arith.addi %s1, %s2 : i32
// CHECK-NEXT:       soac.yield %s3 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %total : i32
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "reduce_commutative", function_type = (tensor<16xi32>, i32) -> i32}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%v: tensor<16xi32>, %z: i32):
// CHECK-GENERIC-NEXT:     %total = "soac.reduce"(%v, %z) <{commutative, operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-GENERIC-NEXT:     ^bb0(%s1: i32, %s2: i32):
// CHECK-GENERIC:       "soac.yield"(%s3) : (i32) -> ()
// CHECK-GENERIC-NEXT:     }) : (tensor<16xi32>, i32) -> i32
func.func @reduce_commutative(%v: tensor<16xi32>, %z: i32) -> i32 {
  %total = soac.reduce(%v) neutral(%z : i32) commutative : (tensor<16xi32>) -> i32 {
  ^bb0(%s1: i32, %s2: i32):
    %s3 = arith.addi %s1, %s2 : i32
    soac.yield %s3 : i32
  }
  func.return %total : i32
}

// CHECK-NEXT:   func.func @scan(%v: tensor<?xi64>, %z: i64) -> (tensor<?xi64>, tensor<?xi64>) {
// CHECK-NEXT:     %incl = soac.scan(%v) neutral(%z : i64) : (tensor<?xi64>) -> tensor<?xi64> {
// CHECK-NEXT:     ^bb0(%t1: i64, %t2: i64):
// CHECK-NEXT:       %t3 = arith.addi %t1, %t2 : i64
// CHECK-NEXT:       soac.yield %t3 : i64
// CHECK-NEXT:     }
// CHECK-NEXT:     %mx = soac.scan(%v) neutral(%z : i64) commutative : (tensor<?xi64>) -> tensor<?xi64> {
// CHECK-NEXT:     ^bb0(%u1: i64, %u2: i64):
// CHECK-NEXT:       %u3 = arith.maxsi %u1, %u2 : i64
// CHECK-NEXT:       soac.yield %u3 : i64
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %incl, %mx : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "scan", function_type = (tensor<?xi64>, i64) -> (tensor<?xi64>, tensor<?xi64>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%v: tensor<?xi64>, %z: i64):
// CHECK-GENERIC-NEXT:     %incl = "soac.scan"(%v, %z) <{operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-GENERIC-NEXT:     ^bb0(%t1: i64, %t2: i64):
// CHECK-GENERIC:       "soac.yield"(%t3) : (i64) -> ()
// CHECK-GENERIC-NEXT:     }) : (tensor<?xi64>, i64) -> tensor<?xi64>
// CHECK-GENERIC-NEXT:     %mx = "soac.scan"(%v, %z) <{commutative, operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-GENERIC-NEXT:     ^bb0(%u1: i64, %u2: i64):
// CHECK-GENERIC:       "soac.yield"(%u3) : (i64) -> ()
// CHECK-GENERIC-NEXT:     }) : (tensor<?xi64>, i64) -> tensor<?xi64>
func.func @scan(%v: tensor<?xi64>, %z: i64) -> (tensor<?xi64>, tensor<?xi64>) {
  %incl = soac.scan(%v) neutral(%z : i64) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%t1: i64, %t2: i64):
    %t3 = arith.addi %t1, %t2 : i64
    soac.yield %t3 : i64
  }
  %mx = soac.scan(%v) neutral(%z : i64) commutative : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%u1: i64, %u2: i64):
    %u3 = arith.maxsi %u1, %u2 : i64
    soac.yield %u3 : i64
  }
  func.return %incl, %mx : tensor<?xi64>, tensor<?xi64>
}

// CHECK-NEXT:   func.func @scatter(%dest: tensor<10xf64>, %idx: tensor<?xi32>, %vals: tensor<?xf64>, %rows: tensor<?x3xf32>, %ridx: tensor<2xindex>, %new: tensor<2x3xf32>) -> (tensor<10xf64>, tensor<?x3xf32>) {
// CHECK-NEXT:     %sc1 = soac.scatter %dest[%idx] = %vals : tensor<10xf64>, tensor<?xi32>, tensor<?xf64>
// CHECK-NEXT:     %sc2 = soac.scatter %rows[%ridx] = %new : tensor<?x3xf32>, tensor<2xindex>, tensor<2x3xf32>
// CHECK-NEXT:     func.return %sc1, %sc2 : tensor<10xf64>, tensor<?x3xf32>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "scatter", function_type = (tensor<10xf64>, tensor<?xi32>, tensor<?xf64>, tensor<?x3xf32>, tensor<2xindex>, tensor<2x3xf32>) -> (tensor<10xf64>, tensor<?x3xf32>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%dest: tensor<10xf64>, %idx: tensor<?xi32>, %vals: tensor<?xf64>, %rows: tensor<?x3xf32>, %ridx: tensor<2xindex>, %new: tensor<2x3xf32>):
// CHECK-GENERIC-NEXT:     %sc1 = "soac.scatter"(%dest, %idx, %vals) : (tensor<10xf64>, tensor<?xi32>, tensor<?xf64>) -> tensor<10xf64>
// CHECK-GENERIC-NEXT:     %sc2 = "soac.scatter"(%rows, %ridx, %new) : (tensor<?x3xf32>, tensor<2xindex>, tensor<2x3xf32>) -> tensor<?x3xf32>
func.func @scatter(%dest: tensor<10xf64>, %idx: tensor<?xi32>, %vals: tensor<?xf64>, %rows: tensor<?x3xf32>, %ridx: tensor<2xindex>, %new: tensor<2x3xf32>) -> (tensor<10xf64>, tensor<?x3xf32>) {
  %sc1 = soac.scatter %dest[%idx] = %vals : tensor<10xf64>, tensor<?xi32>, tensor<?xf64>
  %sc2 = soac.scatter %rows[%ridx] = %new : tensor<?x3xf32>, tensor<2xindex>, tensor<2x3xf32>
  func.return %sc1, %sc2 : tensor<10xf64>, tensor<?x3xf32>
}

// CHECK-NEXT:   func.func @hist(%bins: tensor<256xi32>, %keys: tensor<?xi64>, %ones: tensor<?xi32>, %hz: i32) -> tensor<256xi32> {
// CHECK-NEXT:     %counts = soac.hist %bins[%keys], %ones neutral(%hz : i32) : tensor<256xi32>, tensor<?xi64>, tensor<?xi32> {
// CHECK-NEXT:     ^bb0(%h1: i32, %h2: i32):
// CHECK-NEXT:       %h3 = arith.addi %h1, %h2 : i32
// CHECK-NEXT:       soac.yield %h3 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %counts : tensor<256xi32>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "hist", function_type = (tensor<256xi32>, tensor<?xi64>, tensor<?xi32>, i32) -> tensor<256xi32>}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%bins: tensor<256xi32>, %keys: tensor<?xi64>, %ones: tensor<?xi32>, %hz: i32):
// CHECK-GENERIC-NEXT:     %counts = "soac.hist"(%bins, %keys, %ones, %hz) ({
// CHECK-GENERIC-NEXT:     ^bb0(%h1: i32, %h2: i32):
// CHECK-GENERIC:       "soac.yield"(%h3) : (i32) -> ()
// CHECK-GENERIC-NEXT:     }) : (tensor<256xi32>, tensor<?xi64>, tensor<?xi32>, i32) -> tensor<256xi32>
func.func @hist(%bins: tensor<256xi32>, %keys: tensor<?xi64>, %ones: tensor<?xi32>, %hz: i32) -> tensor<256xi32> {
  %counts = soac.hist %bins[%keys], %ones neutral(%hz : i32) : tensor<256xi32>, tensor<?xi64>, tensor<?xi32> {
  ^bb0(%h1: i32, %h2: i32):
    %h3 = arith.addi %h1, %h2 : i32
    soac.yield %h3 : i32
  }
  func.return %counts : tensor<256xi32>
}

// CHECK-NEXT:   func.func @gpu_body(%src: tensor<?xf32>, %j: index) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xindex>) {
// CHECK-NEXT:     soac.gpu_body -> {
// CHECK-NEXT:       soac.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     %one = soac.gpu_body -> tensor<1xf32> {
// CHECK-NEXT:       %el = soac.index %src[%j] : tensor<?xf32>
// CHECK-NEXT:       soac.yield %el : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %two, %two_1 = soac.gpu_body -> tensor<1xf32>, tensor<1xindex> {
// CHECK-NEXT:       %el2 = soac.index %src[%j] : tensor<?xf32>
// CHECK-NEXT:       soac.yield %el2, %j : f32, index
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %one, %two, %two_1 : tensor<1xf32>, tensor<1xf32>, tensor<1xindex>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "gpu_body", function_type = (tensor<?xf32>, index) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xindex>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%src: tensor<?xf32>, %j: index):
// CHECK-GENERIC-NEXT:     "soac.gpu_body"() ({
// CHECK-GENERIC-NEXT:       "soac.yield"() : () -> ()
// CHECK-GENERIC:     %one = "soac.gpu_body"() ({
// CHECK-GENERIC-NEXT:       %el = "soac.index"(%src, %j) : (tensor<?xf32>, index) -> f32
// CHECK-GENERIC-NEXT:       "soac.yield"(%el) : (f32) -> ()
// CHECK-GENERIC-NEXT:     }) : () -> tensor<1xf32>
// CHECK-GENERIC-NEXT:     %two, %two_1 = "soac.gpu_body"() ({
// CHECK-GENERIC-NEXT:       %el2 = "soac.index"(%src, %j) : (tensor<?xf32>, index) -> f32
// CHECK-GENERIC-NEXT:       "soac.yield"(%el2, %j) : (f32, index) -> ()
// CHECK-GENERIC-NEXT:     }) : () -> (tensor<1xf32>, tensor<1xindex>)
func.func @gpu_body(%src: tensor<?xf32>, %j: index) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xindex>) {
  soac.gpu_body -> {
    soac.yield
  }
  %one = soac.gpu_body -> tensor<1xf32> {
    %el = soac.index %src[%j] : tensor<?xf32>
    soac.yield %el : f32
  }
  %two:2 = soac.gpu_body -> tensor<1xf32>, tensor<1xindex> {
    %el2 = soac.index %src[%j] : tensor<?xf32>
    soac.yield %el2, %j : f32, index
  }
  func.return %one, %two#0, %two#1 : tensor<1xf32>, tensor<1xf32>, tensor<1xindex>
}

// CHECK-NEXT:   func.func @iota(%n: index) -> (tensor<?xindex>, tensor<8xi32>, tensor<?xi64>) {
// CHECK-NEXT:     %io1 = soac.iota %n : tensor<?xindex>
// CHECK-NEXT:     %io2 = soac.iota %n : tensor<8xi32>
// CHECK-NEXT:     %io3 = soac.iota %n : tensor<?xi64>
// CHECK-NEXT:     func.return %io1, %io2, %io3 : tensor<?xindex>, tensor<8xi32>, tensor<?xi64>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "iota", function_type = (index) -> (tensor<?xindex>, tensor<8xi32>, tensor<?xi64>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%n: index):
// CHECK-GENERIC-NEXT:     %io1 = "soac.iota"(%n) : (index) -> tensor<?xindex>
// CHECK-GENERIC-NEXT:     %io2 = "soac.iota"(%n) : (index) -> tensor<8xi32>
// CHECK-GENERIC-NEXT:     %io3 = "soac.iota"(%n) : (index) -> tensor<?xi64>
func.func @iota(%n: index) -> (tensor<?xindex>, tensor<8xi32>, tensor<?xi64>) {
  %io1 = soac.iota %n : tensor<?xindex>
  %io2 = soac.iota %n : tensor<8xi32>
  %io3 = soac.iota %n : tensor<?xi64>
  func.return %io1, %io2, %io3 : tensor<?xindex>, tensor<8xi32>, tensor<?xi64>
}

// CHECK-NEXT:   func.func @replicate(%n: index, %flag: i1, %vec: tensor<?xf32>) -> (tensor<?xi1>, tensor<4x?xf32>) {
// CHECK-NEXT:     %flags = soac.replicate %n, %flag : i1 -> tensor<?xi1>
// CHECK-NEXT:     %mat = soac.replicate %n, %vec : tensor<?xf32> -> tensor<4x?xf32>
// CHECK-NEXT:     func.return %flags, %mat : tensor<?xi1>, tensor<4x?xf32>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "replicate", function_type = (index, i1, tensor<?xf32>) -> (tensor<?xi1>, tensor<4x?xf32>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%n: index, %flag: i1, %vec: tensor<?xf32>):
// CHECK-GENERIC-NEXT:     %flags = "soac.replicate"(%n, %flag) : (index, i1) -> tensor<?xi1>
// CHECK-GENERIC-NEXT:     %mat = "soac.replicate"(%n, %vec) : (index, tensor<?xf32>) -> tensor<4x?xf32>
func.func @replicate(%n: index, %flag: i1, %vec: tensor<?xf32>) -> (tensor<?xi1>, tensor<4x?xf32>) {
  %flags = soac.replicate %n, %flag : i1 -> tensor<?xi1>
  %mat = soac.replicate %n, %vec : tensor<?xf32> -> tensor<4x?xf32>
  func.return %flags, %mat : tensor<?xi1>, tensor<4x?xf32>
}

// CHECK-NEXT:   func.func @array(%e1: i64, %e2: i64, %e3: i64, %r1: tensor<2xf32>, %r2: tensor<2xf32>) -> (tensor<3xi64>, tensor<2x2xf32>) {
// CHECK-NEXT:     %lit = soac.array [%e1, %e2, %e3] : tensor<3xi64>
// CHECK-NEXT:     %rows2 = soac.array [%r1, %r2] : tensor<2x2xf32>
// CHECK-NEXT:     func.return %lit, %rows2 : tensor<3xi64>, tensor<2x2xf32>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "array", function_type = (i64, i64, i64, tensor<2xf32>, tensor<2xf32>) -> (tensor<3xi64>, tensor<2x2xf32>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%e1: i64, %e2: i64, %e3: i64, %r1: tensor<2xf32>, %r2: tensor<2xf32>):
// CHECK-GENERIC-NEXT:     %lit = "soac.array"(%e1, %e2, %e3) : (i64, i64, i64) -> tensor<3xi64>
// CHECK-GENERIC-NEXT:     %rows2 = "soac.array"(%r1, %r2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
func.func @array(%e1: i64, %e2: i64, %e3: i64, %r1: tensor<2xf32>, %r2: tensor<2xf32>) -> (tensor<3xi64>, tensor<2x2xf32>) {
  %lit = soac.array [%e1, %e2, %e3] : tensor<3xi64>
  %rows2 = soac.array [%r1, %r2] : tensor<2x2xf32>
  func.return %lit, %rows2 : tensor<3xi64>, tensor<2x2xf32>
}

// CHECK-NEXT:   func.func @index(%t3: tensor<?x?x4xf32>, %i: index, %j: index, %k: index) -> (f32, tensor<?x4xf32>, tensor<4xf32>) {
// CHECK-NEXT:     %full = soac.index %t3[%i, %j, %k] : tensor<?x?x4xf32>
// CHECK-NEXT:     %plane = soac.index %t3[%i] : tensor<?x?x4xf32>
// CHECK-NEXT:     %line = soac.index %t3[%i, %j] : tensor<?x?x4xf32>
// CHECK-NEXT:     func.return %full, %plane, %line : f32, tensor<?x4xf32>, tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "index", function_type = (tensor<?x?x4xf32>, index, index, index) -> (f32, tensor<?x4xf32>, tensor<4xf32>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%t3: tensor<?x?x4xf32>, %i: index, %j: index, %k: index):
// CHECK-GENERIC-NEXT:     %full = "soac.index"(%t3, %i, %j, %k) : (tensor<?x?x4xf32>, index, index, index) -> f32
// CHECK-GENERIC-NEXT:     %plane = "soac.index"(%t3, %i) : (tensor<?x?x4xf32>, index) -> tensor<?x4xf32>
// CHECK-GENERIC-NEXT:     %line = "soac.index"(%t3, %i, %j) : (tensor<?x?x4xf32>, index, index) -> tensor<4xf32>
func.func @index(%t3: tensor<?x?x4xf32>, %i: index, %j: index, %k: index) -> (f32, tensor<?x4xf32>, tensor<4xf32>) {
  %full = soac.index %t3[%i, %j, %k] : tensor<?x?x4xf32>
  %plane = soac.index %t3[%i] : tensor<?x?x4xf32>
  %line = soac.index %t3[%i, %j] : tensor<?x?x4xf32>
  func.return %full, %plane, %line : f32, tensor<?x4xf32>, tensor<4xf32>
}

// CHECK-NEXT:   func.func @device_index(%t3: tensor<?x?x4xf32>, %m: tensor<?x?xf32>, %p: tensor<1xindex>, %i: index, %row: tensor<?xf32>) -> (tensor<?xf32>, tensor<4xf32>, tensor<?x?xf32>) {
// CHECK-NEXT:     %pivot = soac.device_index %m[%p] : tensor<?x?xf32>, tensor<1xindex>
// CHECK-NEXT:     %mixed = soac.device_index %t3[%i, %p] : tensor<?x?x4xf32>, index, tensor<1xindex>
// CHECK-NEXT:     %swapped = soac.device_update %m[%p] = %row : tensor<?x?xf32>, tensor<1xindex>, tensor<?xf32>
// CHECK-NEXT:     func.return %pivot, %mixed, %swapped : tensor<?xf32>, tensor<4xf32>, tensor<?x?xf32>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "device_index", function_type = (tensor<?x?x4xf32>, tensor<?x?xf32>, tensor<1xindex>, index, tensor<?xf32>) -> (tensor<?xf32>, tensor<4xf32>, tensor<?x?xf32>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%t3: tensor<?x?x4xf32>, %m: tensor<?x?xf32>, %p: tensor<1xindex>, %i: index, %row: tensor<?xf32>):
// CHECK-GENERIC-NEXT:     %pivot = "soac.device_index"(%m, %p) : (tensor<?x?xf32>, tensor<1xindex>) -> tensor<?xf32>
// CHECK-GENERIC-NEXT:     %mixed = "soac.device_index"(%t3, %i, %p) : (tensor<?x?x4xf32>, index, tensor<1xindex>) -> tensor<4xf32>
// CHECK-GENERIC-NEXT:     %swapped = "soac.device_update"(%m, %p, %row) : (tensor<?x?xf32>, tensor<1xindex>, tensor<?xf32>) -> tensor<?x?xf32>
func.func @device_index(%t3: tensor<?x?x4xf32>, %m: tensor<?x?xf32>, %p: tensor<1xindex>, %i: index, %row: tensor<?xf32>) -> (tensor<?xf32>, tensor<4xf32>, tensor<?x?xf32>) {
  %pivot = soac.device_index %m[%p] : tensor<?x?xf32>, tensor<1xindex>
  %mixed = soac.device_index %t3[%i, %p] : tensor<?x?x4xf32>, index, tensor<1xindex>
  %swapped = soac.device_update %m[%p] = %row : tensor<?x?xf32>, tensor<1xindex>, tensor<?xf32>
  func.return %pivot, %mixed, %swapped : tensor<?xf32>, tensor<4xf32>, tensor<?x?xf32>
}

// CHECK-NEXT:   func.func @device_slice(%a: tensor<?xf32>, %m: tensor<?x4xf32>, %p: tensor<1xindex>, %n: index, %x: f32, %xd: tensor<1xf32>) -> (tensor<?xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>) {
// CHECK-NEXT:     %part = soac.device_index %a[%p:%n:%p] : tensor<?xf32>, tensor<1xindex>, index, tensor<1xindex> -> tensor<?xf32>
// CHECK-NEXT:     %block = soac.device_index %m[%n:%n, %p:%n] : tensor<?x4xf32>, index, index, tensor<1xindex>, index -> tensor<?x2xf32>
// CHECK-NEXT:     %one = soac.device_update %a[%p] = %x : tensor<?xf32>, tensor<1xindex>, f32
// CHECK-NEXT:     %two = soac.device_update %one[%p:%n] = %xd : tensor<?xf32>, tensor<1xindex>, index, tensor<1xf32>
// CHECK-NEXT:     func.return %part, %block, %one, %two : tensor<?xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "device_slice"
// CHECK-GENERIC:     %part = "soac.device_index"(%a, %p, %n, %p) <{kinds = array<i64: 2>}> : (tensor<?xf32>, tensor<1xindex>, index, tensor<1xindex>) -> tensor<?xf32>
// CHECK-GENERIC:     %one = "soac.device_update"(%a, %p, %x) : (tensor<?xf32>, tensor<1xindex>, f32) -> tensor<?xf32>
// CHECK-GENERIC:     %two = "soac.device_update"(%one, %p, %n, %xd) <{kinds = array<i64: 1>}> : (tensor<?xf32>, tensor<1xindex>, index, tensor<1xf32>) -> tensor<?xf32>
func.func @device_slice(%a: tensor<?xf32>, %m: tensor<?x4xf32>, %p: tensor<1xindex>, %n: index, %x: f32, %xd: tensor<1xf32>) -> (tensor<?xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>) {
  %part = soac.device_index %a[%p:%n:%p] : tensor<?xf32>, tensor<1xindex>, index, tensor<1xindex> -> tensor<?xf32>
  %block = soac.device_index %m[%n:%n, %p:%n] : tensor<?x4xf32>, index, index, tensor<1xindex>, index -> tensor<?x2xf32>
  %one = soac.device_update %a[%p] = %x : tensor<?xf32>, tensor<1xindex>, f32
  %two = soac.device_update %one[%p:%n] = %xd : tensor<?xf32>, tensor<1xindex>, index, tensor<1xf32>
  func.return %part, %block, %one, %two : tensor<?xf32>, tensor<?x2xf32>, tensor<?xf32>, tensor<?xf32>
}

// CHECK-NEXT:   func.func @slice(%t3: tensor<?x?x4xf32>, %v: tensor<?xf32>, %o: index, %c: index, %s: index) -> (tensor<?xf32>, tensor<?xf32>, tensor<?x4xf32>, tensor<?x?x4xf32>) {
// CHECK-NEXT:     %odd = soac.slice %v[%o:%c:%s] : tensor<?xf32> -> tensor<?xf32>
// CHECK-NEXT:     %part = soac.slice %t3[%o, %c, %o:%c] : tensor<?x?x4xf32> -> tensor<?xf32>
// CHECK-NEXT:     %sub = soac.slice %t3[%o, %o:%c] : tensor<?x?x4xf32> -> tensor<?x4xf32>
// CHECK-NEXT:     %strided = soac.slice %t3[%o:%c:%s] : tensor<?x?x4xf32> -> tensor<?x?x4xf32>
// CHECK-NEXT:     func.return %odd, %part, %sub, %strided : tensor<?xf32>, tensor<?xf32>, tensor<?x4xf32>, tensor<?x?x4xf32>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "slice", function_type = (tensor<?x?x4xf32>, tensor<?xf32>, index, index, index) -> (tensor<?xf32>, tensor<?xf32>, tensor<?x4xf32>, tensor<?x?x4xf32>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%t3: tensor<?x?x4xf32>, %v: tensor<?xf32>, %o: index, %c: index, %s: index):
// CHECK-GENERIC-NEXT:     %odd = "soac.slice"(%v, %o, %c, %s) <{kinds = array<i64: 2>}> : (tensor<?xf32>, index, index, index) -> tensor<?xf32>
// CHECK-GENERIC-NEXT:     %part = "soac.slice"(%t3, %o, %c, %o, %c) <{kinds = array<i64: 0, 0, 1>}> : (tensor<?x?x4xf32>, index, index, index, index) -> tensor<?xf32>
// CHECK-GENERIC-NEXT:     %sub = "soac.slice"(%t3, %o, %o, %c) <{kinds = array<i64: 0, 1>}> : (tensor<?x?x4xf32>, index, index, index) -> tensor<?x4xf32>
// CHECK-GENERIC-NEXT:     %strided = "soac.slice"(%t3, %o, %c, %s) <{kinds = array<i64: 2>}> : (tensor<?x?x4xf32>, index, index, index) -> tensor<?x?x4xf32>
func.func @slice(%t3: tensor<?x?x4xf32>, %v: tensor<?xf32>, %o: index, %c: index, %s: index) -> (tensor<?xf32>, tensor<?xf32>, tensor<?x4xf32>, tensor<?x?x4xf32>) {
  %odd = soac.slice %v[%o:%c:%s] : tensor<?xf32> -> tensor<?xf32>
  %part = soac.slice %t3[%o, %c, %o:%c] : tensor<?x?x4xf32> -> tensor<?xf32>
  %sub = soac.slice %t3[%o, %o:%c] : tensor<?x?x4xf32> -> tensor<?x4xf32>
  %strided = soac.slice %t3[%o:%c:%s] : tensor<?x?x4xf32> -> tensor<?x?x4xf32>
  func.return %odd, %part, %sub, %strided : tensor<?xf32>, tensor<?xf32>, tensor<?x4xf32>, tensor<?x?x4xf32>
}

// CHECK-NEXT:   func.func @update(%vec: tensor<?xf32>, %m: tensor<?x?xf32>, %x: f32, %row: tensor<?xf32>, %i: index, %o: index, %c: index) -> (tensor<?xf32>, tensor<?x?xf32>) {
// CHECK-NEXT:     %vec2 = soac.update %vec[%i] = %x : tensor<?xf32>, f32
// CHECK-NEXT:     %m2 = soac.update %m[%i, %o:%c] = %row : tensor<?x?xf32>, tensor<?xf32>
// CHECK-NEXT:     func.return %vec2, %m2 : tensor<?xf32>, tensor<?x?xf32>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "update", function_type = (tensor<?xf32>, tensor<?x?xf32>, f32, tensor<?xf32>, index, index, index) -> (tensor<?xf32>, tensor<?x?xf32>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%vec: tensor<?xf32>, %m: tensor<?x?xf32>, %x: f32, %row: tensor<?xf32>, %i: index, %o: index, %c: index):
// CHECK-GENERIC-NEXT:     %vec2 = "soac.update"(%vec, %i, %x) <{kinds = array<i64: 0>}> : (tensor<?xf32>, index, f32) -> tensor<?xf32>
// CHECK-GENERIC-NEXT:     %m2 = "soac.update"(%m, %i, %o, %c, %row) <{kinds = array<i64: 0, 1>}> : (tensor<?x?xf32>, index, index, index, tensor<?xf32>) -> tensor<?x?xf32>
func.func @update(%vec: tensor<?xf32>, %m: tensor<?x?xf32>, %x: f32, %row: tensor<?xf32>, %i: index, %o: index, %c: index) -> (tensor<?xf32>, tensor<?x?xf32>) {
  %vec2 = soac.update %vec[%i] = %x : tensor<?xf32>, f32
  %m2 = soac.update %m[%i, %o:%c] = %row : tensor<?x?xf32>, tensor<?xf32>
  func.return %vec2, %m2 : tensor<?xf32>, tensor<?x?xf32>
}

// CHECK-NEXT:   func.func @concat(%ca: tensor<?xi32>, %cb: tensor<4xi32>, %cc: tensor<3x2xf64>, %cd: tensor<5x2xf64>) -> (tensor<?xi32>, tensor<8x2xf64>) {
// CHECK-NEXT:     %cat1 = soac.concat %ca, %cb : (tensor<?xi32>, tensor<4xi32>) -> tensor<?xi32>
// CHECK-NEXT:     %cat2 = soac.concat %cc, %cd : (tensor<3x2xf64>, tensor<5x2xf64>) -> tensor<8x2xf64>
// CHECK-NEXT:     func.return %cat1, %cat2 : tensor<?xi32>, tensor<8x2xf64>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "concat", function_type = (tensor<?xi32>, tensor<4xi32>, tensor<3x2xf64>, tensor<5x2xf64>) -> (tensor<?xi32>, tensor<8x2xf64>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%ca: tensor<?xi32>, %cb: tensor<4xi32>, %cc: tensor<3x2xf64>, %cd: tensor<5x2xf64>):
// CHECK-GENERIC-NEXT:     %cat1 = "soac.concat"(%ca, %cb) : (tensor<?xi32>, tensor<4xi32>) -> tensor<?xi32>
// CHECK-GENERIC-NEXT:     %cat2 = "soac.concat"(%cc, %cd) : (tensor<3x2xf64>, tensor<5x2xf64>) -> tensor<8x2xf64>
func.func @concat(%ca: tensor<?xi32>, %cb: tensor<4xi32>, %cc: tensor<3x2xf64>, %cd: tensor<5x2xf64>) -> (tensor<?xi32>, tensor<8x2xf64>) {
  %cat1 = soac.concat %ca, %cb : (tensor<?xi32>, tensor<4xi32>) -> tensor<?xi32>
  %cat2 = soac.concat %cc, %cd : (tensor<3x2xf64>, tensor<5x2xf64>) -> tensor<8x2xf64>
  func.return %cat1, %cat2 : tensor<?xi32>, tensor<8x2xf64>
}

// CHECK-NEXT:   func.func @transpose(%m: tensor<?x4xf32>, %t3: tensor<2x3x4xi64>) -> (tensor<4x?xf32>, tensor<4x2x3xi64>) {
// CHECK-NEXT:     %tr2 = soac.transpose %m [1, 0] : tensor<?x4xf32> -> tensor<4x?xf32>
// CHECK-NEXT:     %tr3 = soac.transpose %t3 [2, 0, 1] : tensor<2x3x4xi64> -> tensor<4x2x3xi64>
// CHECK-NEXT:     func.return %tr2, %tr3 : tensor<4x?xf32>, tensor<4x2x3xi64>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "transpose", function_type = (tensor<?x4xf32>, tensor<2x3x4xi64>) -> (tensor<4x?xf32>, tensor<4x2x3xi64>)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%m: tensor<?x4xf32>, %t3: tensor<2x3x4xi64>):
// CHECK-GENERIC-NEXT:     %tr2 = "soac.transpose"(%m) <{permutation = array<i64: 1, 0>}> : (tensor<?x4xf32>) -> tensor<4x?xf32>
// CHECK-GENERIC-NEXT:     %tr3 = "soac.transpose"(%t3) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x4xi64>) -> tensor<4x2x3xi64>
func.func @transpose(%m: tensor<?x4xf32>, %t3: tensor<2x3x4xi64>) -> (tensor<4x?xf32>, tensor<4x2x3xi64>) {
  %tr2 = soac.transpose %m [1, 0] : tensor<?x4xf32> -> tensor<4x?xf32>
  %tr3 = soac.transpose %t3 [2, 0, 1] : tensor<2x3x4xi64> -> tensor<4x2x3xi64>
  func.return %tr2, %tr3 : tensor<4x?xf32>, tensor<4x2x3xi64>
}

// CHECK-NEXT:   func.func @copy_and_size(%m: tensor<?x4xi1>) -> (tensor<?x4xi1>, index, index) {
// CHECK-NEXT:     %cp = soac.copy %m : tensor<?x4xi1>
// CHECK-NEXT:     %d0 = soac.size %cp[0] : tensor<?x4xi1>
// CHECK-NEXT:     %d1 = soac.size %cp[1] : tensor<?x4xi1>
// CHECK-NEXT:     func.return %cp, %d0, %d1 : tensor<?x4xi1>, index, index
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "copy_and_size", function_type = (tensor<?x4xi1>) -> (tensor<?x4xi1>, index, index)}> ({
// CHECK-GENERIC-NEXT:   ^bb0(%m: tensor<?x4xi1>):
// CHECK-GENERIC-NEXT:     %cp = "soac.copy"(%m) : (tensor<?x4xi1>) -> tensor<?x4xi1>
// CHECK-GENERIC-NEXT:     %d0 = "soac.size"(%cp) <{dim = 0 : i64}> : (tensor<?x4xi1>) -> index
// CHECK-GENERIC-NEXT:     %d1 = "soac.size"(%cp) <{dim = 1 : i64}> : (tensor<?x4xi1>) -> index
func.func @copy_and_size(%m: tensor<?x4xi1>) -> (tensor<?x4xi1>, index, index) {
  %cp = soac.copy %m : tensor<?x4xi1>
  %d0 = soac.size %cp[0] : tensor<?x4xi1>
  %d1 = soac.size %cp[1] : tensor<?x4xi1>
  func.return %cp, %d0, %d1 : tensor<?x4xi1>, index, index
}


// The fused combinators soac-fusion makes: a redomap with two operators (one
// commutative) and a mapped result, a scanomap without and one with a post lambda, a
// scatteromap, and a histomap with a mapped result.

// CHECK-NEXT:   func.func @fused(%a: tensor<?xf32>, %b: tensor<8xf32>, %is: tensor<?xi64>, %d: tensor<?xf32>, %h: tensor<16xi32>) -> (f32, i32, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<16xi32>, tensor<?xi32>) {
// CHECK-NEXT:     %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:     %izero = arith.constant 0 : i32
// CHECK-NEXT:     %one = arith.constant 1 : i32
// CHECK-NEXT:     %s, %n, %sq = soac.redomap(%a, %b) {tag} : (tensor<?xf32>, tensor<8xf32>) -> (f32, i32, tensor<?xf32>) map {
// CHECK-NEXT:     ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:       %p = arith.mulf %x, %y : f32
// CHECK-NEXT:       soac.yield %p, %one, %p : f32, i32, f32
// CHECK-NEXT:     } reduce(%zero : f32) commutative {
// CHECK-NEXT:     ^bb0(%l: f32, %r: f32):
// CHECK-NEXT:       %t = arith.addf %l, %r : f32
// CHECK-NEXT:       soac.yield %t : f32
// CHECK-NEXT:     } reduce(%izero : i32) {
// CHECK-NEXT:     ^bb0(%l2: i32, %r2: i32):
// CHECK-NEXT:       %t2 = arith.addi %l2, %r2 : i32
// CHECK-NEXT:       soac.yield %t2 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     %p1, %q1 = soac.scanomap(%a) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) map {
// CHECK-NEXT:     ^bb0(%x3: f32):
// CHECK-NEXT:       soac.yield %x3, %x3 : f32, f32
// CHECK-NEXT:     } scan(%zero : f32) {
// CHECK-NEXT:     ^bb0(%l3: f32, %r3: f32):
// CHECK-NEXT:       %t3 = arith.addf %l3, %r3 : f32
// CHECK-NEXT:       soac.yield %t3 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %excl = soac.scanomap(%a) : (tensor<?xf32>) -> tensor<?xf32> map {
// CHECK-NEXT:     ^bb0(%x4: f32):
// CHECK-NEXT:       soac.yield %x4, %x4 : f32, f32
// CHECK-NEXT:     } scan(%zero : f32) commutative {
// CHECK-NEXT:     ^bb0(%l4: f32, %r4: f32):
// CHECK-NEXT:       %t4 = arith.addf %l4, %r4 : f32
// CHECK-NEXT:       soac.yield %t4 : f32
// CHECK-NEXT:     } post {
// CHECK-NEXT:     ^bb0(%incl: f32, %x5: f32):
// CHECK-NEXT:       %e = arith.subf %incl, %x5 : f32
// CHECK-NEXT:       soac.yield %e : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %scat = soac.scatteromap %d(%is, %a) : tensor<?xf32>, (tensor<?xi64>, tensor<?xf32>) -> tensor<?xf32> map {
// CHECK-NEXT:     ^bb0(%i: i64, %x6: f32):
// CHECK-NEXT:       soac.yield %i, %x6 : i64, f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %hist, %bins = soac.histomap %h(%a) : tensor<16xi32>, (tensor<?xf32>) -> (tensor<16xi32>, tensor<?xi32>) map {
// CHECK-NEXT:     ^bb0(%x7: f32):
// CHECK-NEXT:       %bin = arith.fptosi %x7 : f32 to i32
// CHECK-NEXT:       soac.yield %bin, %one, %bin : i32, i32, i32
// CHECK-NEXT:     } hist(%izero : i32) {
// CHECK-NEXT:     ^bb0(%l5: i32, %r5: i32):
// CHECK-NEXT:       %t5 = arith.addi %l5, %r5 : i32
// CHECK-NEXT:       soac.yield %t5 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return %s, %n, %sq, %p1, %excl, %scat, %hist, %bins : f32, i32, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<16xi32>, tensor<?xi32>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "fused",
// CHECK-GENERIC:     %s, %n, %sq = "soac.redomap"(%a, %b, %zero, %izero) <{commutative = array<i1: true, false>, operandSegmentSizes = array<i32: 2, 2>}> ({
// CHECK-GENERIC:     }) {tag} : (tensor<?xf32>, tensor<8xf32>, f32, i32) -> (f32, i32, tensor<?xf32>)
// CHECK-GENERIC:     %p1, %q1 = "soac.scanomap"(%a, %zero) <{commutative = array<i1: false>, operandSegmentSizes = array<i32: 1, 1>, regionSegmentSizes = array<i32: 1, 1, 0>}> ({
// CHECK-GENERIC:     %excl = "soac.scanomap"(%a, %zero) <{commutative = array<i1: true>, operandSegmentSizes = array<i32: 1, 1>, regionSegmentSizes = array<i32: 1, 1, 1>}> ({
// CHECK-GENERIC:     %scat = "soac.scatteromap"(%d, %is, %a) ({
// CHECK-GENERIC:     %hist, %bins = "soac.histomap"(%h, %a, %izero) ({
func.func @fused(%a: tensor<?xf32>, %b: tensor<8xf32>, %is: tensor<?xi64>, %d: tensor<?xf32>, %h: tensor<16xi32>) -> (f32, i32, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<16xi32>, tensor<?xi32>) {
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %s, %n, %sq = soac.redomap(%a, %b) {tag} : (tensor<?xf32>, tensor<8xf32>) -> (f32, i32, tensor<?xf32>) map {
  ^bb0(%x: f32, %y: f32):
    %p = arith.mulf %x, %y : f32
    soac.yield %p, %one, %p : f32, i32, f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  } reduce(%izero : i32) {
  ^bb0(%l2: i32, %r2: i32):
    %t2 = arith.addi %l2, %r2 : i32
    soac.yield %t2 : i32
  }
  %p1, %q1 = soac.scanomap(%a) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) map {
  ^bb0(%x3: f32):
    soac.yield %x3, %x3 : f32, f32
  } scan(%zero : f32) {
  ^bb0(%l3: f32, %r3: f32):
    %t3 = arith.addf %l3, %r3 : f32
    soac.yield %t3 : f32
  }
  %excl = soac.scanomap(%a) : (tensor<?xf32>) -> tensor<?xf32> map {
  ^bb0(%x4: f32):
    soac.yield %x4, %x4 : f32, f32
  } scan(%zero : f32) commutative {
  ^bb0(%l4: f32, %r4: f32):
    %t4 = arith.addf %l4, %r4 : f32
    soac.yield %t4 : f32
  } post {
  ^bb0(%incl: f32, %x5: f32):
    %e = arith.subf %incl, %x5 : f32
    soac.yield %e : f32
  }
  %scat = soac.scatteromap %d(%is, %a) : tensor<?xf32>, (tensor<?xi64>, tensor<?xf32>) -> tensor<?xf32> map {
  ^bb0(%i: i64, %x6: f32):
    soac.yield %i, %x6 : i64, f32
  }
  %hist, %bins = soac.histomap %h(%a) : tensor<16xi32>, (tensor<?xf32>) -> (tensor<16xi32>, tensor<?xi32>) map {
  ^bb0(%x7: f32):
    %bin = arith.fptosi %x7 : f32 to i32
    soac.yield %bin, %one, %bin : i32, i32, i32
  } hist(%izero : i32) {
  ^bb0(%l5: i32, %r5: i32):
    %t5 = arith.addi %l5, %r5 : i32
    soac.yield %t5 : i32
  }
  func.return %s, %n, %sq, %p1, %excl, %scat, %hist, %bins : f32, i32, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<16xi32>, tensor<?xi32>
}


// CHECK-NEXT: }
