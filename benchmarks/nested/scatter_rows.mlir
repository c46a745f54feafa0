// A scatter inside a map: per row, the row's values written to the positions its
// indices give in that row of the destination (each row's indices a permutation).
//
//   map3 (\dest is vs -> scatter (copy dest) is vs) dests iss vss
func.func @main(%dest: tensor<?x?xf32>, %iss: tensor<?x?xi32>, %vss: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = soac.map(%dest, %iss, %vss) : (tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%d: tensor<?xf32>, %is: tensor<?xi32>, %vs: tensor<?xf32>):
    %s = soac.scatter %d[%is] = %vs : tensor<?xf32>, tensor<?xi32>, tensor<?xf32>
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
