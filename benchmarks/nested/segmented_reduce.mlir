// A segmented reduction: the sum of each row, f32 (a map of a reduce).
//
//   map (reduce (+) 0) xss
func.func @main(%xss: tensor<?x?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %sums = soac.map(%xss) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    soac.yield %s : f32
  }
  func.return %sums : tensor<?xf32>
}
