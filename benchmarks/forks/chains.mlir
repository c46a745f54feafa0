// chains: four independent chains of small kernels (issue 18's measurement: four
// chains of 32 small kernels). Each chain is a loop of `steps` maps x -> 0.5 x + 1 over
// its own array; no chain reads another's, so with forks their kernels may run side
// by side on four streams, and as one task graph with four branches.
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>, %d: tensor<?xf32>, %steps: index)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %ra = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %a) -> (tensor<?xf32>) {
    %y = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32):
      %m = arith.mulf %e, %half : f32
      %s = arith.addf %m, %one : f32
      soac.yield %s : f32
    }
    scf.yield %y : tensor<?xf32>
  }
  %rb = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %b) -> (tensor<?xf32>) {
    %y = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32):
      %m = arith.mulf %e, %half : f32
      %s = arith.addf %m, %one : f32
      soac.yield %s : f32
    }
    scf.yield %y : tensor<?xf32>
  }
  %rc = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %c) -> (tensor<?xf32>) {
    %y = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32):
      %m = arith.mulf %e, %half : f32
      %s = arith.addf %m, %one : f32
      soac.yield %s : f32
    }
    scf.yield %y : tensor<?xf32>
  }
  %rd = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %d) -> (tensor<?xf32>) {
    %y = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%e: f32):
      %m = arith.mulf %e, %half : f32
      %s = arith.addf %m, %one : f32
      soac.yield %s : f32
    }
    scf.yield %y : tensor<?xf32>
  }
  func.return %ra, %rb, %rc, %rd : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
