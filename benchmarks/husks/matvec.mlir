// matvec: a matrix-vector product, the thesis's matrix-vector pattern: the rows of
// the matrix are split over the devices, the vector is needed whole by every one.
//
//   entry main [rows][cols] (mat: [rows][cols]f32) (vec: [cols]f32): [rows]f32 =
//     map (\row -> reduce (+) 0 (map2 (*) row vec)) mat
//
// A top-level map over the rows whose lambda is a redomap (the fused map-reduce,
// written fused here): a segmented reduction with one segment per row.
func.func @main(%mat: tensor<?x?xf32>, %vec: tensor<?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %res = soac.map(%mat) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    // sum (row * vec)
    %dot = soac.redomap(%row, %vec) : (tensor<?xf32>, tensor<?xf32>) -> f32 map {
    ^bb1(%a: f32, %b: f32):
      %p = arith.mulf %a, %b : f32
      soac.yield %p : f32
    } reduce(%zero : f32) commutative {
    ^bb1(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      soac.yield %s : f32
    }
    soac.yield %dot : f32
  }
  func.return %res : tensor<?xf32>
}
