func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%float: f32):
    %true = arith.constant true
    %new = arith.constant 2.0 : f32
    %max = arith.maximumf %float, %new : f32
    %int = arith.select %true, %max, %float : f32
    soac.yield %int : f32
  }
  func.return %r : tensor<?xf32>
}
