func.func @main(%a: tensor<?xf32>, %idx: tensor<?xindex>) -> tensor<?xf32> {
  %r = soac.map(%idx) : (tensor<?xindex>) -> tensor<?xf32> {
  ^bb0(%i: index):
    %a_offset = arith.constant 1 : index
    %j = arith.addi %i, %a_offset : index
    %v = soac.index %a[%j] : tensor<?xf32>
    soac.yield %v : f32
  }
  func.return %r : tensor<?xf32>
}
