// A histogram inside a map: per row of i32 values, the count of each value's low 8
// bits (256 bins), one histogram per row.
//
//   map (\row -> hist (+) 0 256 (map (\x -> i64.i32 (x & 255)) row) (replicate cols 1)) xss
func.func @main(%xss: tensor<?x?xi32>) -> tensor<?x256xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %mask = arith.constant 255 : i32
  %c256 = arith.constant 256 : index
  %cols = soac.size %xss[1] : tensor<?x?xi32>
  %hs = soac.map(%xss) : (tensor<?x?xi32>) -> tensor<?x256xi32> {
  ^bb0(%row: tensor<?xi32>):
    %is = soac.map(%row) : (tensor<?xi32>) -> tensor<?xindex> {
    ^bb1(%x: i32):
      %b = arith.andi %x, %mask : i32
      %i = arith.index_cast %b : i32 to index
      soac.yield %i : index
    }
    %ones = soac.replicate %cols, %one : i32 -> tensor<?xi32>
    %bins = soac.replicate %c256, %zero : i32 -> tensor<256xi32>
    %h = soac.hist %bins[%is], %ones neutral(%zero : i32) : tensor<256xi32>, tensor<?xindex>, tensor<?xi32> {
    ^bb2(%a: i32, %c: i32):
      %s = arith.addi %a, %c : i32
      soac.yield %s : i32
    }
    soac.yield %h : tensor<256xi32>
  }
  func.return %hs : tensor<?x256xi32>
}
