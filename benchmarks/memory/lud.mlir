// lud: LU decomposition (futhark-benchmarks rodinia/lud, from Rodinia), without the
// blocking: for each pivot k, the rows below it are updated by a map and written back
// into the matrix in place, `m[k+1:] = map ... m[k+1:]`. That copy into a slice of the
// matrix, inside the loop, is the study's LUD case: the map reads the very rows it
// replaces (each lane its own row, element by element).
//
// The result holds U on and above the diagonal and the multipliers of L below it.
func.func @main(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %a[0] : tensor<?x?xf32>
  %cols = soac.iota %n : tensor<?xindex>
  %last = arith.subi %n, %c1 : index
  %lu = scf.for %k = %c0 to %last step %c1 iter_args(%m = %a) -> (tensor<?x?xf32>) {
    %prow = soac.index %m[%k] : tensor<?x?xf32>
    %piv = soac.index %m[%k, %k] : tensor<?x?xf32>
    %k1 = arith.addi %k, %c1 : index
    %cnt = arith.subi %n, %k1 : index
    %below = soac.slice %m[%k1:%cnt] : tensor<?x?xf32> -> tensor<?x?xf32>
    %upd = soac.map(%below) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%row: tensor<?xf32>):
      %x = soac.index %row[%k] : tensor<?xf32>
      %l = arith.divf %x, %piv : f32
      %new = soac.map(%row, %prow, %cols) : (tensor<?xf32>, tensor<?xf32>, tensor<?xindex>) -> tensor<?xf32> {
      ^bb1(%e: f32, %p: f32, %j: index):
        %right = arith.cmpi ugt, %j, %k : index
        %at = arith.cmpi eq, %j, %k : index
        %lp = arith.mulf %l, %p : f32
        %sub = arith.subf %e, %lp : f32
        %keep = arith.select %at, %l, %e : f32
        %v = arith.select %right, %sub, %keep : f32
        soac.yield %v : f32
      }
      soac.yield %new : tensor<?xf32>
    }
    %m2 = soac.update %m[%k1:%cnt] = %upd : tensor<?x?xf32>, tensor<?x?xf32>
    scf.yield %m2 : tensor<?x?xf32>
  }
  func.return %lu : tensor<?x?xf32>
}
