// RUN: soacc-opt %s --verify-diagnostics --split-input-file | filecheck %s

// The rules of dialects/structural_checks.py, which xDSL 0.74 does not check: one chunk
// per rule, each a located error in every tool.

func.func @main(%n: index) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = scf.while (%i = %n) : (index) -> f32 {
    %c = arith.constant true
    scf.condition(%c) %z : f32
  } do {
  ^bb0(%x: f32, %extra: f32):
    %k = arith.constant 1 : index
    scf.yield %k : index
  }
  func.return %r : f32
}

// CHECK: scf.while: the `do` block's parameters are of types (f32, f32); expected (f32), the types of its results

// -----

func.func @main(%c: i1) -> f32 {
  %r = scf.if %c -> (f32) {
    %z = arith.constant 0.0 : f32
    scf.yield %z : f32
  }
  func.return %r : f32
}

// CHECK: scf.if has results (f32) but no `else` branch to give them when the condition is false

// -----

func.func @main(%c: i1) -> f32 {
  %r = scf.if %c -> (f32) {
    %z = arith.constant 0.0 : f32
    scf.yield %z : f32
  } else {
    %z = arith.constant 0 : i32
    scf.yield %z : i32
  }
  func.return %r : f32
}

// CHECK: scf.if: the values the `else` branch yields are of types (i32); expected (f32), the types of its results

// -----

func.func @main(%n: index) -> index {
  %z = arith.constant 0 : index
  %s = arith.constant 0 : index
  %r = scf.for %i = %z to %n step %s iter_args(%a = %z) -> (index) {
    scf.yield %i : index
  }
  func.return %r : index
}

// CHECK: scf.for has step 0; a loop's step must be positive

// -----

func.func @main(%a: tensor<99999999999999999999xf32>) -> tensor<99999999999999999999xf32> {
  func.return %a : tensor<99999999999999999999xf32>
}

// CHECK: func.func: type tensor<99999999999999999999xf32> has a dimension beyond 64 bits

// -----

func.func @main(%n: index) -> index {
  %r = arith.addi %q, %n : index
  %q = arith.constant 1 : index
  func.return %r : index
}

// CHECK: arith.addi uses %q before it is defined

// -----

func.func @while_before(%n: index) -> index {
  %r = "scf.while"(%n) ({
  ^bb0(%x: f32):
    %c = arith.constant true
    "scf.condition"(%c, %n) : (i1, index) -> ()
  }, {
  ^bb0(%y: index):
    "scf.yield"(%y) : (index) -> ()
  }) : (index) -> index
  func.return %r : index
}

// CHECK: scf.while: the `before` block's parameters are of types (f32); expected (index), the types of its initial values

// -----

func.func @while_condition(%n: index) -> index {
  %r = scf.while (%i = %n) : (index) -> index {
    %c = arith.constant true
    %z = arith.constant 0 : i32
    scf.condition(%c) %z : i32
  } do {
  ^bb0(%x: index):
    scf.yield %x : index
  }
  func.return %r : index
}

// CHECK: scf.while: the values scf.condition passes on are of types (i32); expected (index), the types of its results

// -----

func.func @while_yield(%n: index) -> index {
  %r = scf.while (%i = %n) : (index) -> index {
    %c = arith.constant true
    scf.condition(%c) %i : index
  } do {
  ^bb0(%x: index):
    %z = arith.constant 0 : i32
    scf.yield %z : i32
  }
  func.return %r : index
}

// CHECK: scf.while: the values the `do` block yields are of types (i32); expected (index), the types of its initial values

// -----

func.func @for_negative_step(%n: index) {
  %z = arith.constant 0 : index
  %s = arith.constant -2 : index
  scf.for %i = %z to %n step %s {
    scf.yield
  }
  func.return
}

// CHECK: scf.for has step -2; a loop's step must be positive

// -----

func.func @for_yield(%n: index) -> index {
  %z = arith.constant 0 : index
  %s = arith.constant 1 : index
  %r = scf.for %i = %z to %n step %s iter_args(%a = %z) -> (index) {
    %f = arith.constant 0.0 : f32
    scf.yield %f : f32
  }
  func.return %r : index
}

// CHECK: scf.for: the values its body yields are of types (f32); expected (index), the types of its carried values

// -----

func.func @index_literal() -> index {
  %a = arith.constant 99999999999999999999999 : index
  func.return %a : index
}

// CHECK: arith.constant: value 99999999999999999999999 does not fit index (64 bits)

// -----

func.func @main() {
  func.return
}
func.func @main() {
  func.return
}

// CHECK: func.func @main is defined twice

// -----

func.func @main(%a: tensor<2305843009213693952xf64>) {
  func.return
}

// CHECK: func.func: type tensor<2305843009213693952xf64> needs 18446744073709551616 bytes, past 64 bits (sizes are at most 9223372036854775807)
