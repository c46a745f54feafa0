// Two gpu_bodies with host code between them (the worked example of Algorithm 4 of the
// device-sync study): merge-gpu-bodies moves the host ops first and merges the two.
func.func @main(%A: tensor<?xi64>, %k: i64) -> (i64, tensor<1xi64>, i64) {
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %x_dev = soac.gpu_body -> tensor<1xi64> {
    %c0 = arith.constant 0 : index
    %a = soac.index %A[%c0] : tensor<?xi64>
    %a2 = arith.addi %a, %a : i64
    soac.yield %a2 : i64
  }
  %zero = arith.constant 0 : index
  %x = soac.index %x_dev[%zero] : tensor<1xi64>
  %n = arith.addi %k, %one : i64
  %y_dev = soac.gpu_body -> tensor<1xi64> {
    %y = arith.addi %x, %k : i64
    soac.yield %y : i64
  }
  %m = arith.addi %n, %two : i64
  func.return %x, %y_dev, %m : i64, tensor<1xi64>, i64
}
