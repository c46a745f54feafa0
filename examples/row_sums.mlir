// row_sums: per-row sums and maxima of a matrix (segmented reductions).
//
//   entry main [n][m] (a: [n][m]f32): ([n]f32, [n]f32) =
//     unzip (map (\row -> (reduce (+) 0 row, reduce f32.max (-inf) row)) a)
//
// A map over the rows whose lambda holds two reduces (nested parallelism: a map
// of a reduce is a segmented reduction). Empty rows give 0 and -inf.
func.func @main(%a: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sums, %maxs = soac.map(%a) : (tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    %m = soac.reduce(%row) neutral(%ninf : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%l: f32, %r: f32):
      %t = arith.maximumf %l, %r : f32
      soac.yield %t : f32
    }
    soac.yield %s, %m : f32, f32
  }
  func.return %sums, %maxs : tensor<?xf32>, tensor<?xf32>
}
