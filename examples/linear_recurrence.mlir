// linear_recurrence: x[i] = a[i] * x[i-1] + b[i] with x[-1] = x0, solved in parallel
// by scanning the composition of affine maps (a non-commutative operator).
//
//   let compose (a1, b1) (a2, b2) = (a1 * a2, b1 * a2 + b2)   -- apply (a1,b1), then (a2,b2)
//   entry main [n] (a: [n]f64) (b: [n]f64) (x0: f64): ([n]f64, f64) =
//     let (pa, pb) = unzip (scan compose (1, 0) (zip a b))    -- prefix compositions
//     let xs       = map2 (\p q -> p * x0 + q) pa pb
//     let (ta, tb) = reduce compose (1, 0) (zip a b)          -- the whole composition
//     in (xs, ta * x0 + tb)                                   -- x[n-1], or x0 when n = 0
//
// The scan and the reduce take two arrays each (tuple operators) and are not marked
// commutative: the implementation must keep the order of the operands.
func.func @main(%a: tensor<?xf64>, %b: tensor<?xf64>, %x0: f64) -> (tensor<?xf64>, f64) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64

  // prefix compositions (pa[i], pb[i]) of the maps 0..i
  %pa, %pb = soac.scan(%a, %b) neutral(%one, %zero : f64, f64)
      : (tensor<?xf64>, tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
  ^bb0(%a1: f64, %b1: f64, %a2: f64, %b2: f64):
    %ca = arith.mulf %a1, %a2 : f64
    %t = arith.mulf %b1, %a2 : f64
    %cb = arith.addf %t, %b2 : f64
    soac.yield %ca, %cb : f64, f64
  }
  %xs = soac.map(%pa, %pb) : (tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%p: f64, %q: f64):
    %px = arith.mulf %p, %x0 : f64
    %x = arith.addf %px, %q : f64
    soac.yield %x : f64
  }

  // the composition of all the maps, applied to x0
  %ta, %tb = soac.reduce(%a, %b) neutral(%one, %zero : f64, f64)
      : (tensor<?xf64>, tensor<?xf64>) -> (f64, f64) {
  ^bb0(%a1: f64, %b1: f64, %a2: f64, %b2: f64):
    %ca = arith.mulf %a1, %a2 : f64
    %t = arith.mulf %b1, %a2 : f64
    %cb = arith.addf %t, %b2 : f64
    soac.yield %ca, %cb : f64, f64
  }
  %tx = arith.mulf %ta, %x0 : f64
  %last = arith.addf %tx, %tb : f64

  func.return %xs, %last : tensor<?xf64>, f64
}
