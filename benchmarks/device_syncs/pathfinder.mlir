// pathfinder (futhark-benchmarks rodinia/pathfinder): the cheapest path cost to each
// column of the last row of a wall, moving down one row per step to the same or a
// neighbouring column. Each step is a map over the columns; the wall's rows are views,
// never read by the host: there is no synchronous read to remove, and the passes must
// change nothing (the study's pathfinder gained only from a for-in rewrite that soacc's
// explicit loops do not need).
func.func @main(%wall: tensor<?x?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = soac.size %wall[0] : tensor<?x?xi32>
  %cols = soac.size %wall[1] : tensor<?x?xi32>
  %last = arith.subi %cols, %c1 : index
  %steps = arith.subi %rows, %c1 : index
  %first = soac.index %wall[%c0] : tensor<?x?xi32>
  %r0 = soac.copy %first : tensor<?xi32>
  %is = soac.iota %cols : tensor<?xindex>
  %result = scf.for %t = %c0 to %steps step %c1 iter_args(%res = %r0) -> (tensor<?xi32>) {
    %t1 = arith.addi %t, %c1 : index
    %row = soac.index %wall[%t1] : tensor<?x?xi32>
    %next = soac.map(%is, %row) : (tensor<?xindex>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%i: index, %w: i32):
      %r = soac.index %res[%i] : tensor<?xi32>
      %hasl = arith.cmpi ugt, %i, %c0 : index
      %rl = scf.if %hasl -> (i32) {
        %im = arith.subi %i, %c1 : index
        %l = soac.index %res[%im] : tensor<?xi32>
        %m = arith.minsi %r, %l : i32
        scf.yield %m : i32
      } else {
        scf.yield %r : i32
      }
      %hasr = arith.cmpi ult, %i, %last : index
      %rr = scf.if %hasr -> (i32) {
        %ip = arith.addi %i, %c1 : index
        %q = soac.index %res[%ip] : tensor<?xi32>
        %m = arith.minsi %rl, %q : i32
        scf.yield %m : i32
      } else {
        scf.yield %rl : i32
      }
      %s = arith.addi %w, %rr : i32
      soac.yield %s : i32
    }
    scf.yield %next : tensor<?xi32>
  }
  func.return %result : tensor<?xi32>
}
