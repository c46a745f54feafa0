// prefix_sum: an inclusive scan of a mapped array (a scanomap after fusion): the
// split scan of soac-to-husk (past the thesis, whose husks leave scans alone). Each
// device scans its rows; the devices' totals are scanned on device 0; each later
// device adds its carry to its rows where they are.
//
//   entry main (xs: []i64): []i64 = scan (+) 0 (map (\x -> 3 * x + 1) xs)
func.func @main(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %three = arith.constant 3 : i64
  %ys = soac.map(%xs) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %t = arith.muli %x, %three : i64
    %y = arith.addi %t, %one : i64
    soac.yield %y : i64
  }
  %sums = soac.scan(%ys) neutral(%zero : i64) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    soac.yield %s : i64
  }
  func.return %sums : tensor<?xi64>
}
