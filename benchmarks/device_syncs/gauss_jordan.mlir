// gauss_jordan: solve A x = b by Gauss-Jordan elimination with partial pivoting.
//
//   entry main [n] (A: [n][n]f32) (b: [n]f32): [n]f32 =
//     let M = map2 (\row bi -> row ++ [bi]) A b           -- [A | b], n x (n+1)
//     let M = loop M for k < n do
//       let (_, j) = reduce argmax (-1, 0) (zip (map f32.abs M[k:n, k]) (iota (n-k)))
//       let p      = k + j                                -- pivot row
//       let pv     = M[p, k]                              -- host read of the pivot
//       let rp = copy M[p]; let rk = copy M[k]
//       let M      = M with [k] = rp with [p] = rk        -- row swap
//       let prow   = map (/ pv) rp
//       in map2 (\i row -> if i == k then prow
//                          else let f = row[k] in map2 (\x y -> x - f*y) row prow)
//               (iota n) M
//     in M[0:n, n]                                        -- the last column
//
// Per step: a two-array (tuple) argmax reduce over a column slice, host-level
// soac.index reads (the pivot index is a reduction result used as an update index,
// the pivot value is captured by a map), a row swap with two soac.updates of
// copied rows, and the elimination as a map over rows of a map over columns.
func.func @main(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %minus1 = arith.constant -1.0 : f32
  %n = soac.size %a[0] : tensor<?x?xf32>

  // The augmented matrix [A | b]: every row of A extended by one element of b.
  %m0 = soac.map(%a, %b) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>, %bi: f32):
    %tail = soac.array [%bi] : tensor<1xf32>
    %ext = soac.concat %row, %tail : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
    soac.yield %ext : tensor<?xf32>
  }

  %mn = scf.for %k = %c0 to %n step %c1 iter_args(%m = %m0) -> (tensor<?x?xf32>) {
    // Partial pivoting: the row in k..n-1 with the largest |M[i, k]| (the first on ties).
    %cnt = arith.subi %n, %k : index
    %col = soac.slice %m[%k:%cnt, %k] : tensor<?x?xf32> -> tensor<?xf32>
    %mag = soac.map(%col) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%x: f32):
      %ax = math.absf %x : f32
      soac.yield %ax : f32
    }
    %ids = soac.iota %cnt : tensor<?xindex>
    %best:2 = soac.reduce(%mag, %ids) neutral(%minus1, %c0 : f32, index) commutative
        : (tensor<?xf32>, tensor<?xindex>) -> (f32, index) {
    ^bb0(%v1: f32, %i1: index, %v2: f32, %i2: index):
      %gt = arith.cmpf ogt, %v1, %v2 : f32
      %eq = arith.cmpf oeq, %v1, %v2 : f32
      %ilt = arith.cmpi ult, %i1, %i2 : index
      %tie = arith.andi %eq, %ilt : i1
      %first = arith.ori %gt, %tie : i1
      %v = arith.select %first, %v1, %v2 : f32
      %i = arith.select %first, %i1, %i2 : index
      soac.yield %v, %i : f32, index
    }
    %p = arith.addi %k, %best#1 : index

    // Host-level reads: the pivot value and the two rows to swap (copied, because
    // the updates below consume M).
    %pv = soac.index %m[%p, %k] : tensor<?x?xf32>
    %vp = soac.index %m[%p] : tensor<?x?xf32>
    %vk = soac.index %m[%k] : tensor<?x?xf32>
    %rowp = soac.copy %vp : tensor<?xf32>
    %rowk = soac.copy %vk : tensor<?xf32>
    %sw1 = soac.update %m[%k] = %rowp : tensor<?x?xf32>, tensor<?xf32>
    %sw2 = soac.update %sw1[%p] = %rowk : tensor<?x?xf32>, tensor<?xf32>

    // The pivot row scaled so that its pivot is 1.
    %prow = soac.map(%rowp) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%x: f32):
      %q = arith.divf %x, %pv : f32
      soac.yield %q : f32
    }

    // Eliminate column k from every other row.
    %is = soac.iota %n : tensor<?xindex>
    %next = soac.map(%is, %sw2) : (tensor<?xindex>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%i: index, %row: tensor<?xf32>):
      %isk = arith.cmpi eq, %i, %k : index
      %r = scf.if %isk -> (tensor<?xf32>) {
        scf.yield %prow : tensor<?xf32>
      } else {
        %f = soac.index %row[%k] : tensor<?xf32>
        %red = soac.map(%row, %prow) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
        ^bb1(%x: f32, %y: f32):
          %fy = arith.mulf %f, %y : f32
          %d = arith.subf %x, %fy : f32
          soac.yield %d : f32
        }
        scf.yield %red : tensor<?xf32>
      }
      soac.yield %r : tensor<?xf32>
    }
    scf.yield %next : tensor<?x?xf32>
  }

  // The solution is the last column of the reduced augmented matrix.
  %x = soac.slice %mn[%c0:%n, %n] : tensor<?x?xf32> -> tensor<?xf32>
  func.return %x : tensor<?xf32>
}
