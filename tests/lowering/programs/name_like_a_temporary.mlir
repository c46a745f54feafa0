func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%e: f32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %x_next = arith.constant 100.0 : f32
    %zero = arith.constant 0.0 : f32
    %res:2 = scf.for %k = %c0 to %c3 step %c1 iter_args(%x = %e, %y = %zero) -> (f32, f32) {
      %a1 = arith.addf %x, %e : f32
      scf.yield %a1, %x_next : f32, f32
    }
    %s = arith.addf %res#0, %res#1 : f32
    soac.yield %s : f32
  }
  func.return %r : tensor<?xf32>
}
