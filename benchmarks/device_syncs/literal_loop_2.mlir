// Listing 12 of the study: `loop (A, v) for i < n do ([1, v], v + 1)`. An array literal
// of a loop-variant scalar is made every iteration: on the host it is a synchronous
// transfer each time; reduce-device-syncs makes it in a gpu_body (asynchronous).
func.func @main(%A0: tensor<2xi64>, %v0: i64, %n: index) -> (tensor<2xi64>, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %A, %v = scf.for %i = %c0 to %n step %c1 iter_args(%a = %A0, %w = %v0) -> (tensor<2xi64>, i64) {
    %lit = soac.array [%one, %w] : tensor<2xi64>
    %w1 = arith.addi %w, %one : i64
    scf.yield %lit, %w1 : tensor<2xi64>, i64
  }
  func.return %A, %v : tensor<2xi64>, i64
}
