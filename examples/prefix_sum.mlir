// prefix_sum: inclusive and exclusive prefix sums of an i32 vector (wrapping
// two's-complement addition, as in Futhark).
//
//   entry main [n] (a: [n]i32): ([n]i32, [n]i32) =
//     let incl = scan (+) 0 a
//     let excl = ([0] ++ incl)[0:n]          -- shift right by one
//     in (incl, excl)
//
// The exclusive scan is built from the inclusive one with an array literal, a
// concatenation and a slice (of count n, so that n = 0 needs no special case).
func.func @main(%a: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  // incl = scan (+) 0 a
  %incl = soac.scan(%a) neutral(%zero : i32) commutative : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  }
  // excl = ([0] ++ incl)[0:n]: a one-element literal, a concat, a slice
  %n = soac.size %a[0] : tensor<?xi32>
  %head = soac.array [%zero] : tensor<1xi32>
  %shifted = soac.concat %head, %incl : (tensor<1xi32>, tensor<?xi32>) -> tensor<?xi32>
  %excl = soac.slice %shifted[%c0:%n] : tensor<?xi32> -> tensor<?xi32>
  func.return %incl, %excl : tensor<?xi32>, tensor<?xi32>
}
