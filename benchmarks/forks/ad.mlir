// ad: the value and the reverse-mode gradient of a small function of four vectors, the
// forward pass and the adjoints written out by hand (the study's first program is an
// automatic-differentiation benchmark with many kernels):
//
//   f(x, y, z, w, p) = mean(sin x * y) * mean(exp(-z^2)) + log(1 + mean(x^2 + y^2))
//                      + mean(z * w) / mean(sqrt(1 + w^2)) + logsumexp(p)
//
// (x, y, z, w of one length n, p of its own length.) Forward: five independent
// elementwise maps (sin x, kept for the reverse pass, with sin x * y; exp(-z^2);
// x^2 + y^2; z w; sqrt(1 + w^2)) and their five independent means; beside them p's
// maximum, then the sum of exp(p - max). Reverse: the adjoints (scalars), then five
// independent maps, one per gradient, reading the forward pass's kept values:
//
//   df/dx = g1 cos x * y + g3 2x      g1 = M2 / n, g2 = M1 / n, g3 = 1 / ((1 + M3) n),
//   df/dy = g1 sin x + g3 2y          g4 = 1 / (M5 n), g5 = -M4 / (M5^2 n)
//   df/dz = -2 g2 z exp(-z^2) + g4 w  (M1 .. M5 the five means, in the order above)
//   df/dw = g4 z + g5 w / sqrt(1 + w^2)
//   df/dp = exp(p - logsumexp(p))     (the softmax)
//
// soac-fusion merges the maps of one length into their reductions and with each other
// (two redomaps forward, two maps back), but not with p's, which is another length.
func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>, %w: tensor<?xf32>, %pv: tensor<?xf32>)
    -> (f32, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %lowest = arith.constant -3.40282347e+38 : f32
  %n = soac.size %x[0] : tensor<?xf32>
  %n64 = arith.index_cast %n : index to i64
  %nf = arith.sitofp %n64 : i64 to f32

  // forward: the elementwise parts
  %sx, %t1 = soac.map(%x, %y) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = math.sin %a : f32
    %p = arith.mulf %s, %b : f32
    soac.yield %s, %p : f32, f32
  }
  %t2 = soac.map(%z) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: f32):
    %sq = arith.mulf %a, %a : f32
    %ng = arith.negf %sq : f32
    %e = math.exp %ng : f32
    soac.yield %e : f32
  }
  %t3 = soac.map(%x, %y) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: f32, %b: f32):
    %a2 = arith.mulf %a, %a : f32
    %b2 = arith.mulf %b, %b : f32
    %s = arith.addf %a2, %b2 : f32
    soac.yield %s : f32
  }
  %t4 = soac.map(%z, %w) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    soac.yield %p : f32
  }
  %t5 = soac.map(%w) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: f32):
    %a2 = arith.mulf %a, %a : f32
    %s = arith.addf %one, %a2 : f32
    %r = math.sqrt %s : f32
    soac.yield %r : f32
  }

  // forward: the sums
  %s1 = soac.reduce(%t1) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    soac.yield %r : f32
  }
  %s2 = soac.reduce(%t2) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    soac.yield %r : f32
  }
  %s3 = soac.reduce(%t3) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    soac.yield %r : f32
  }
  %s4 = soac.reduce(%t4) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    soac.yield %r : f32
  }
  %s5 = soac.reduce(%t5) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    soac.yield %r : f32
  }

  // forward: logsumexp(p), its maximum first
  %pmax = soac.reduce(%pv) neutral(%lowest : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %r = arith.maximumf %p, %q : f32
    soac.yield %r : f32
  }
  %pe = soac.map(%pv) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: f32):
    %d = arith.subf %a, %pmax : f32
    %e = math.exp %d : f32
    soac.yield %e : f32
  }
  %se = soac.reduce(%pe) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    soac.yield %r : f32
  }
  %lse_log = math.log %se : f32
  %lse = arith.addf %pmax, %lse_log : f32

  // the value
  %m1 = arith.divf %s1, %nf : f32
  %m2 = arith.divf %s2, %nf : f32
  %m3 = arith.divf %s3, %nf : f32
  %m4 = arith.divf %s4, %nf : f32
  %m5 = arith.divf %s5, %nf : f32
  %m12 = arith.mulf %m1, %m2 : f32
  %one_m3 = arith.addf %one, %m3 : f32
  %log3 = math.log %one_m3 : f32
  %q45 = arith.divf %m4, %m5 : f32
  %f1 = arith.addf %m12, %log3 : f32
  %f2 = arith.addf %f1, %q45 : f32
  %f = arith.addf %f2, %lse : f32

  // reverse: the sums' adjoints (df/ds_k)
  %g1 = arith.divf %m2, %nf : f32
  %g2 = arith.divf %m1, %nf : f32
  %d3 = arith.mulf %one_m3, %nf : f32
  %g3 = arith.divf %one, %d3 : f32
  %d4 = arith.mulf %m5, %nf : f32
  %g4 = arith.divf %one, %d4 : f32
  %m55 = arith.mulf %m5, %m5 : f32
  %d5 = arith.mulf %m55, %nf : f32
  %q5 = arith.divf %m4, %d5 : f32
  %g5 = arith.negf %q5 : f32

  // reverse: the elementwise parts, one map per gradient
  %dx = soac.map(%x, %y) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = math.cos %a : f32
    %cb = arith.mulf %c, %b : f32
    %u = arith.mulf %g1, %cb : f32
    %a2 = arith.mulf %two, %a : f32
    %v = arith.mulf %g3, %a2 : f32
    %r = arith.addf %u, %v : f32
    soac.yield %r : f32
  }
  %dy = soac.map(%sx, %y) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%s: f32, %b: f32):
    %u = arith.mulf %g1, %s : f32
    %b2 = arith.mulf %two, %b : f32
    %v = arith.mulf %g3, %b2 : f32
    %r = arith.addf %u, %v : f32
    soac.yield %r : f32
  }
  %dz = soac.map(%z, %w, %t2) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: f32, %b: f32, %e: f32):
    %a2 = arith.mulf %two, %a : f32
    %ae = arith.mulf %a2, %e : f32
    %u0 = arith.mulf %g2, %ae : f32
    %u = arith.negf %u0 : f32
    %v = arith.mulf %g4, %b : f32
    %r = arith.addf %u, %v : f32
    soac.yield %r : f32
  }
  %dw = soac.map(%z, %w, %t5) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: f32, %b: f32, %r5: f32):
    %u = arith.mulf %g4, %a : f32
    %bq = arith.divf %b, %r5 : f32
    %v = arith.mulf %g5, %bq : f32
    %r = arith.addf %u, %v : f32
    soac.yield %r : f32
  }
  %dp = soac.map(%pv) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: f32):
    %d = arith.subf %a, %lse : f32
    %e = math.exp %d : f32
    soac.yield %e : f32
  }
  func.return %f, %dx, %dy, %dz, %dw, %dp : f32, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
