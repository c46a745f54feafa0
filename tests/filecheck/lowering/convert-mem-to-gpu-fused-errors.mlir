// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu --verify-diagnostics --split-input-file | filecheck %s

// The fused combinators soac-fusion makes have no GPU kernels yet: convert-mem-to-gpu
// reports each at the op (host level), and inside a kernel as an op that cannot run
// there yet, rather than leaving it for the host code to fail on.

func.func @redomap(%a: tensor<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  }
  func.return %s : f32
}

// CHECK: convert-mem-to-gpu: mem.redomap (made by soac-fusion) has no GPU kernel: fused combinators are not supported yet

// -----

func.func @scanomap(%a: tensor<?xi32>) -> tensor<?xi32> {
  %zero = arith.constant 0 : i32
  %p = soac.scanomap(%a) : (tensor<?xi32>) -> tensor<?xi32> map {
  ^bb0(%x: i32):
    soac.yield %x : i32
  } scan(%zero : i32) commutative {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  }
  func.return %p : tensor<?xi32>
}

// CHECK: convert-mem-to-gpu: mem.scanomap (made by soac-fusion) has no GPU kernel: fused combinators are not supported yet

// -----

func.func @scatteromap(%d: tensor<?xf32>, %is: tensor<?xi64>) -> tensor<?xf32> {
  %one = arith.constant 1.0 : f32
  %r = soac.scatteromap %d(%is) : tensor<?xf32>, (tensor<?xi64>) -> tensor<?xf32> map {
  ^bb0(%i: i64):
    soac.yield %i, %one : i64, f32
  }
  func.return %r : tensor<?xf32>
}

// CHECK: convert-mem-to-gpu: mem.scatteromap (made by soac-fusion) has no GPU kernel: fused combinators are not supported yet

// -----

func.func @histomap(%h: tensor<8xi32>, %is: tensor<?xi64>) -> tensor<8xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = soac.histomap %h(%is) : tensor<8xi32>, (tensor<?xi64>) -> tensor<8xi32> map {
  ^bb0(%i: i64):
    soac.yield %i, %one : i64, i32
  } hist(%zero : i32) {
  ^bb0(%l: i32, %s: i32):
    %t = arith.addi %l, %s : i32
    soac.yield %t : i32
  }
  func.return %r : tensor<8xi32>
}

// CHECK: convert-mem-to-gpu: mem.histomap (made by soac-fusion) has no GPU kernel: fused combinators are not supported yet

// -----

func.func @segmented_redomap(%m: tensor<?x?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %sums = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.redomap(%row) : (tensor<?xf32>) -> f32 map {
    ^bb1(%x: f32):
      soac.yield %x : f32
    } reduce(%zero : f32) commutative {
    ^bb1(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    soac.yield %s : f32
  }
  func.return %sums : tensor<?xf32>
}

// CHECK: convert-mem-to-gpu: mem.redomap cannot run inside a kernel yet
