// Port of Futhark's tests/migration/sunk0.fut: reads used in one branch only are sunk
// into it (Futhark's sinkGPU; reduce-device-syncs sinks before it migrates): the outer
// branch's work moves into one gpu_body, and the two inner reads are each in the inner
// branch that uses them. Matches Futhark's structure exactly.
//   structure gpu { GPUBody 1  /Index 0  /If/True/Index 1  /If/True/GPUBody/Index 1
//                   /If/True/GPUBody/If/True/Index 1  /If/True/GPUBody/If/False/Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi32>, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %seven = arith.constant 7 : i32
  %ft = arith.constant 42 : i32
  %fourteen = arith.constant 14 : i32
  %y = soac.index %A[%c0] : tensor<5xi32>
  %is7 = arith.cmpi eq, %x, %seven : i32
  %r = scf.if %is7 -> (i32) {
    %z = soac.index %A[%c1] : tensor<5xi32>
    %a2 = soac.index %A[%c2] : tensor<5xi32>
    %is42 = arith.cmpi eq, %a2, %ft : i32
    %w = scf.if %is42 -> (i32) {
      scf.yield %y : i32
    } else {
      scf.yield %z : i32
    }
    scf.yield %w : i32
  } else {
    scf.yield %fourteen : i32
  }
  func.return %r : i32
}
// CHECK-DAG: @main soac.gpu_body [1]
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /scf.if/then/soac.index [1]
// CHECK-DAG: @main /scf.if/then/soac.gpu_body/soac.index [1]
// CHECK-DAG: @main /scf.if/then/soac.gpu_body/scf.if/then/soac.index [1]
// CHECK-DAG: @main /scf.if/then/soac.gpu_body/scf.if/else/soac.index [1]
