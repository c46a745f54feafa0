func.func @main(%a: tensor<?xindex>) -> tensor<?xi1> {
  %r = soac.map(%a) : (tensor<?xindex>) -> tensor<?xi1> {
  ^bb0(%x: index):
    %b = arith.index_cast %x : index to i1
    soac.yield %b : i1
  }
  func.return %r : tensor<?xi1>
}
