// A program the verifier rejects: a 1-d array has no dimension 1 to swap.
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %t = soac.transpose %a [1] : tensor<?xf32> -> tensor<?xf32>
  func.return %t : tensor<?xf32>
}
