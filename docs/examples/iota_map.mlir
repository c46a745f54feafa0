// A map over `iota n`: after fuse-iota it reads its row number, and the iota's array,
// view and block are gone.
func.func @main(%n: index) -> tensor<?xindex> {
  %is = soac.iota %n : tensor<?xindex>
  %ys = soac.map(%is) : (tensor<?xindex>) -> tensor<?xindex> {
  ^bb0(%i: index):
    %one = arith.constant 1 : index
    %j = arith.addi %i, %one : index
    soac.yield %j : index
  }
  func.return %ys : tensor<?xindex>
}
