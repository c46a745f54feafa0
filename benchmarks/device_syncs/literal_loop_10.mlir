// Listing 13 of the study: `loop (A, v) for i < n do ([1, v, 0, 1, 1, 1, 0, 0, 1, 1], v + 1)`:
// a literal of ten scalars, one of them loop-variant, made every iteration.
func.func @main(%A0: tensor<10xi64>, %v0: i64, %n: index) -> (tensor<10xi64>, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %A, %v = scf.for %i = %c0 to %n step %c1 iter_args(%a = %A0, %w = %v0) -> (tensor<10xi64>, i64) {
    %lit = soac.array [%one, %w, %zero, %one, %one, %one, %zero, %zero, %one, %one] : tensor<10xi64>
    %w1 = arith.addi %w, %one : i64
    scf.yield %lit, %w1 : tensor<10xi64>, i64
  }
  func.return %A, %v : tensor<10xi64>, i64
}
