// A segmented scan: the inclusive prefix sums of each row, f32 (a map of a scan).
//
//   map (scan (+) 0) xss
func.func @main(%xss: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %r = soac.map(%xss) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.scan(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
