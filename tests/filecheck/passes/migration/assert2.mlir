// Port of Futhark's tests/migration/assert2.fut: assertions are free to migrate but
// are not migrated needlessly: an assertion of a host value stays on the host.
//   structure gpu { GPUBody 0  /Assert 1 }
// Matching: the `cf.assert` stays at the function's level and nothing moves.
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies | filecheck %s --check-prefix=HOST

func.func @main(%fail: i1) -> i32 {
  %k800 = arith.constant 800 : i32
  cf.assert %fail, "assert2: fail"
  func.return %k800 : i32
}
// CHECK-DAG: @main soac.gpu_body [0]
// HOST:      func.func @main
// HOST-NEXT: %k800 = arith.constant 800 : i32
// HOST-NEXT: cf.assert %fail, "assert2: fail"
// HOST-NEXT: func.return %k800 : i32
