// vector_norm: Listing 1 of seed 000 (reducing synchronous device transfers).
//
//   entry vector_norm [n] (A: [n]f32): [n]f32 =
//     let pow2 = map (\x -> x*x) A
//     let sum  = reduce (+) 0 pow2          -- read by the host
//     let len  = f32.sqrt sum               -- computed on the host
//     in map (\x -> x / len) A              -- len is a free variable of the kernel
//
// The reduction result `sum` is a scalar at host level (one synchronous
// device->host read), `len` is computed on the host and then captured by the
// second map. `reduce-device-syncs` should move the sqrt into a gpu_body so that
// no read remains (T1 in the digest).
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  // pow2 = map (\x -> x*x) A
  %pow2 = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %sq = arith.mulf %x, %x : f32
    soac.yield %sq : f32
  }
  // sum = reduce (+) 0 pow2
  %zero = arith.constant 0.0 : f32
  %sum = soac.reduce(%pow2) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  // len = sqrt sum (host-level scalar code)
  %len = math.sqrt %sum : f32
  // map (\x -> x / len) A: the kernel captures len
  %res = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %q = arith.divf %x, %len : f32
    soac.yield %q : f32
  }
  func.return %res : tensor<?xf32>
}
