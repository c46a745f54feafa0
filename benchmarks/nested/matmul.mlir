// Matrix multiplication, f32: C = A B as a user writes it, a map over the rows of A of
// a map over the rows of B transposed (B's columns) of a dot product (a map and a
// reduce, which soac-fusion makes one redomap).
//
//   map (\arow -> map (\bcol -> reduce (+) 0 (map2 (*) arow bcol)) (transpose b)) a
func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %bt = soac.transpose %b [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %c = soac.map(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%arow: tensor<?xf32>):
    %crow = soac.map(%bt) : (tensor<?x?xf32>) -> tensor<?xf32> {
    ^bb1(%bcol: tensor<?xf32>):
      %p = soac.map(%arow, %bcol) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb2(%x: f32, %y: f32):
        %m = arith.mulf %x, %y : f32
        soac.yield %m : f32
      }
      %d = soac.reduce(%p) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
      ^bb3(%l: f32, %r: f32):
        %s = arith.addf %l, %r : f32
        soac.yield %s : f32
      }
      soac.yield %d : f32
    }
    soac.yield %crow : tensor<?xf32>
  }
  func.return %c : tensor<?x?xf32>
}
