"""Programs whose run-time checks the tests of several layers exercise (test modules never
import each other)."""

ROW_IN_A_LAMBDA = """
func.func @main(%m: tensor<?x?xi64>, %p: tensor<?xi64>, %k: index, %len: index) -> tensor<?x?xi64> {
  %rows = soac.size %m[0] : tensor<?x?xi64>
  %ir = soac.iota %rows : tensor<?xindex>
  %seven = arith.constant 7 : i64
  %r = soac.map(%m, %ir) : (tensor<?x?xi64>, tensor<?xindex>) -> tensor<?x?xi64> {
  ^bb0(%row: tensor<?xi64>, %i: index):
    %isk = arith.cmpi eq, %i, %k : index
    %new = scf.if %isk -> (tensor<?xi64>) {
      scf.yield %p : tensor<?xi64>
    } else {
      %red = soac.replicate %len, %seven : i64 -> tensor<?xi64>
      scf.yield %red : tensor<?xi64>
    }
    soac.yield %new : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}
"""
"""A map whose lambda yields, by an `if`, either a captured row `%p` or a replicate of
`%len` sevens: short-circuit builds both in the output row and leaves a check (cf.assert)
inside the lambda that the replicate fits, which the cuda target compiles to a trap.
Rows of one size (`%len` the size of `%p`) run; another `%len` fails the check."""
