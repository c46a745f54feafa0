// reductions: eight independent sums, each of its own array, and their eight results.
// One reduction is two small kernels (partial sums, then their sum); with forks the
// eight run side by side.
func.func @main(%x0: tensor<?xf32>, %x1: tensor<?xf32>, %x2: tensor<?xf32>, %x3: tensor<?xf32>, %x4: tensor<?xf32>, %x5: tensor<?xf32>, %x6: tensor<?xf32>, %x7: tensor<?xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %zero = arith.constant 0.0 : f32
  %s0 = soac.reduce(%x0) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    soac.yield %t : f32
  }
  %s1 = soac.reduce(%x1) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    soac.yield %t : f32
  }
  %s2 = soac.reduce(%x2) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    soac.yield %t : f32
  }
  %s3 = soac.reduce(%x3) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    soac.yield %t : f32
  }
  %s4 = soac.reduce(%x4) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    soac.yield %t : f32
  }
  %s5 = soac.reduce(%x5) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    soac.yield %t : f32
  }
  %s6 = soac.reduce(%x6) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    soac.yield %t : f32
  }
  %s7 = soac.reduce(%x7) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    soac.yield %t : f32
  }
  func.return %s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7 : f32, f32, f32, f32, f32, f32, f32, f32
}
