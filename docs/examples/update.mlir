// A map, an in-place update of its result and a read of one element: at level 2 the
// update writes into the map's output (nothing else uses it) and the read is one
// synchronous device-to-host read.
func.func @main(%a: tensor<?xf32>, %i: index, %x: f32) -> f32 {
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%e: f32):
    %y = arith.mulf %e, %e : f32
    soac.yield %y : f32
  }
  %c = soac.update %b[%i] = %x : tensor<?xf32>, f32
  %s = soac.index %c[%i] : tensor<?xf32>
  func.return %s : f32
}
