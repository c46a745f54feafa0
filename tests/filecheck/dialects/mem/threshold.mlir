// RUN: soacc-opt %s | soacc-opt | filecheck %s
// RUN: soacc-opt %s --print-op-generic | filecheck %s --check-prefix=CHECK-GENERIC
// RUN: soacc-opt %s -t python | filecheck %s --check-prefix=PYTHON

// mem.threshold: a size at which host code switches between versions of a kernel,
// named for tunings, with its default (its verifier errors are in invalid.mlir); the
// python target asks the runtime for it.
// CHECK-LABEL: func.func @threshold
// CHECK-NEXT:    %t = mem.threshold "map0.tiled_from" default 32
// CHECK-GENERIC: "mem.threshold"() <{threshold = "map0.tiled_from", default = 32 : i64}> : () -> index
// PYTHON:        t = rt.threshold('map0.tiled_from', 32)
func.func @threshold() -> index {
  %t = mem.threshold "map0.tiled_from" default 32
  func.return %t : index
}
