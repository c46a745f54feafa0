// A segmented histogram: per row of bin numbers (i32, 0 to 15), the count in each of
// 16 bins (a map of a hist).
//
//   map (\row -> hist (+) 0 16 row (replicate cols 1)) xss
func.func @main(%xss: tensor<?x?xi32>) -> tensor<?x16xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c16 = arith.constant 16 : index
  %cols = soac.size %xss[1] : tensor<?x?xi32>
  %hs = soac.map(%xss) : (tensor<?x?xi32>) -> tensor<?x16xi32> {
  ^bb0(%row: tensor<?xi32>):
    %ones = soac.replicate %cols, %one : i32 -> tensor<?xi32>
    %bins = soac.replicate %c16, %zero : i32 -> tensor<16xi32>
    %h = soac.hist %bins[%row], %ones neutral(%zero : i32) : tensor<16xi32>, tensor<?xi32>, tensor<?xi32> {
    ^bb1(%a: i32, %c: i32):
      %s = arith.addi %a, %c : i32
      soac.yield %s : i32
    }
    soac.yield %h : tensor<16xi32>
  }
  func.return %hs : tensor<?x16xi32>
}
