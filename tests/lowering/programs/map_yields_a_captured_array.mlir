func.func @main(%a: tensor<?xf32>, %b: tensor<?xindex>) -> tensor<?x?xf32> {
  %r = soac.map(%b) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%i: index):
    soac.yield %a : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
