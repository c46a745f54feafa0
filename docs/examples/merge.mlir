// Memory block merging: a map's result and an argument concatenated, then a loop that
// makes a new array from the carried one every iteration.
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %k: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%e: f32):
    %y = arith.mulf %e, %e : f32
    soac.yield %y : f32
  }
  %c = soac.concat %x, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %c) -> (tensor<?xf32>) {
    %next = soac.map(%acc) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32):
      %d = arith.addf %e, %e : f32
      soac.yield %d : f32
    }
    scf.yield %next : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
