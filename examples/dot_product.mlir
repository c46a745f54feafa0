// dot_product: sum(a[i] * b[i]) of two f32 vectors of the same length.
//
//   entry main [n] (a: [n]f32) (b: [n]f32): f32 =
//     reduce (+) 0 (map2 (*) a b)
//
// A map of two inputs feeding a commutative reduce (a map-reduce fusion
// candidate); the scalar result is returned to the host.
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> f32 {
  // products = map2 (*) a b
  %prod = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %p = arith.mulf %x, %y : f32
    soac.yield %p : f32
  }
  // reduce (+) 0 products
  %zero = arith.constant 0.0 : f32
  %dot = soac.reduce(%prod) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  func.return %dot : f32
}
