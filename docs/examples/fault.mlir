// A map that reads a[i] for an index i given by the caller: with i = 2^40 the kernel
// reads far outside the array (kernels do not check indices; the reference executor does).
func.func @main(%a: tensor<?xi64>, %i: index) -> tensor<?xi64> {
  %r = soac.map(%a) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = soac.index %a[%i] : tensor<?xi64>
    %s = arith.addi %x, %y : i64
    soac.yield %s : i64
  }
  func.return %r : tensor<?xi64>
}
