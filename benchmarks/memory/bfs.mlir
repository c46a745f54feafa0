// bfs: breadth-first search from node 0 (futhark-benchmarks rodinia/bfs, the
// parallel variant bfs_parallel_simple / rodinia-like): every iteration looks at all
// edges at once, marks the unvisited ends of edges leaving the frontier with the next
// level by a scatter, makes them the next frontier, and stops when it is empty.
//
// The graph is in CSR form plus each edge's source node; the result is every node's
// level (-1 when unreachable).
func.func @main(%src: tensor<?xi64>, %dst: tensor<?xi64>, %nodes: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %minus1 = arith.constant -1 : i32
  %none = arith.constant -1 : i64
  %unseen = soac.replicate %nodes, %minus1 : i32 -> tensor<?xi32>
  %cost0 = soac.update %unseen[%c0] = %zero : tensor<?xi32>, i32
  %clear = soac.replicate %nodes, %zero : i32 -> tensor<?xi32>
  %mask0 = soac.update %clear[%c0] = %one : tensor<?xi32>, i32
  %seen0 = soac.copy %mask0 : tensor<?xi32>
  %cost, %mask, %seen, %more = scf.while (%c = %cost0, %m = %mask0, %v = %seen0, %go = %one)
      : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, i32) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, i32) {
    %any = arith.cmpi sgt, %go, %zero : i32
    scf.condition(%any) %c, %m, %v, %go : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, i32
  } do {
  ^bb0(%c: tensor<?xi32>, %m: tensor<?xi32>, %v: tensor<?xi32>, %go: i32):
    %to, %lvl = soac.map(%src, %dst) : (tensor<?xi64>, tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi32>) {
    ^bb1(%s: i64, %d: i64):
      %si = arith.index_cast %s : i64 to index
      %di = arith.index_cast %d : i64 to index
      %ms = soac.index %m[%si] : tensor<?xi32>
      %vd = soac.index %v[%di] : tensor<?xi32>
      %cs = soac.index %c[%si] : tensor<?xi32>
      %front = arith.cmpi eq, %ms, %one : i32
      %fresh = arith.cmpi eq, %vd, %zero : i32
      %take = arith.andi %front, %fresh : i1
      %next = arith.addi %cs, %one : i32
      %t = arith.select %take, %d, %none : i64
      soac.yield %t, %next : i64, i32
    }
    %c2 = soac.scatter %c[%to] = %lvl : tensor<?xi32>, tensor<?xi64>, tensor<?xi32>
    %ecount = soac.size %src[0] : tensor<?xi64>
    %ones = soac.replicate %ecount, %one : i32 -> tensor<?xi32>
    %empty = soac.replicate %nodes, %zero : i32 -> tensor<?xi32>
    %m2 = soac.scatter %empty[%to] = %ones : tensor<?xi32>, tensor<?xi64>, tensor<?xi32>
    %v2 = soac.map(%v, %m2) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%a: i32, %b: i32):
      %o = arith.ori %a, %b : i32
      soac.yield %o : i32
    }
    %count = soac.reduce(%m2) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb1(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      soac.yield %s : i32
    }
    scf.yield %c2, %m2, %v2, %count : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, i32
  }
  func.return %cost : tensor<?xi32>
}
