// myocyte: explicit time stepping of a cardiac myocyte model for a number of cells
// (futhark-benchmarks rodinia/myocyte, from Rodinia), in skeleton: each step, each
// cell's right-hand side is computed in three modules of 46, 15 and 30 equations (the
// original's ECC, CAM and SR parts) whose results are concatenated into one vector of
// 91, and the state advances by an Euler step. The equations are simple stand-ins;
// the arrays, their sizes and how they are combined follow the original, which is
// where the study found its coalescings (the modules' results written straight into
// the right-hand side, inside the time loop).
func.func @main(%y0: tensor<?x91xf32>, %steps: index) -> tensor<?x91xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c30 = arith.constant 30 : index
  %c45 = arith.constant 45 : index
  %c46 = arith.constant 46 : index
  %c61 = arith.constant 61 : index
  %dt = arith.constant 0.01 : f32
  %k1 = arith.constant 0.5 : f32
  %k2 = arith.constant 0.25 : f32
  %k3 = arith.constant 0.1 : f32
  %one = arith.constant 1.0 : f32
  %i46 = soac.iota %c46 : tensor<46xindex>
  %i15 = soac.iota %c15 : tensor<15xindex>
  %i30 = soac.iota %c30 : tensor<30xindex>
  %y = scf.for %s = %c0 to %steps step %c1 iter_args(%state = %y0) -> (tensor<?x91xf32>) {
    %next = soac.map(%state) : (tensor<?x91xf32>) -> tensor<?x91xf32> {
    ^bb0(%cell: tensor<91xf32>):
      %ecc = soac.map(%i46) : (tensor<46xindex>) -> tensor<46xf32> {
      ^bb1(%i: index):
        %j = arith.addi %i, %c45 : index
        %a = soac.index %cell[%i] : tensor<91xf32>
        %b = soac.index %cell[%j] : tensor<91xf32>
        %ab = arith.mulf %a, %b : f32
        %t = arith.mulf %ab, %k1 : f32
        %d = arith.subf %b, %t : f32
        soac.yield %d : f32
      }
      %cam = soac.map(%i15) : (tensor<15xindex>) -> tensor<15xf32> {
      ^bb1(%i: index):
        %j = arith.addi %i, %c46 : index
        %a = soac.index %cell[%j] : tensor<91xf32>
        %e = math.exp %a : f32
        %d = arith.mulf %e, %k2 : f32
        %r = arith.subf %d, %a : f32
        soac.yield %r : f32
      }
      %sr = soac.map(%i30) : (tensor<30xindex>) -> tensor<30xf32> {
      ^bb1(%i: index):
        %j = arith.addi %i, %c61 : index
        %a = soac.index %cell[%j] : tensor<91xf32>
        %b = soac.index %cell[%i] : tensor<91xf32>
        %q = arith.addf %one, %b : f32
        %t = arith.divf %a, %q : f32
        %r = arith.mulf %t, %k3 : f32
        soac.yield %r : f32
      }
      %part = soac.concat %ecc, %cam : (tensor<46xf32>, tensor<15xf32>) -> tensor<61xf32>
      %rhs = soac.concat %part, %sr : (tensor<61xf32>, tensor<30xf32>) -> tensor<91xf32>
      %stepped = soac.map(%cell, %rhs) : (tensor<91xf32>, tensor<91xf32>) -> tensor<91xf32> {
      ^bb1(%a: f32, %f: f32):
        %hf = arith.mulf %dt, %f : f32
        %r = arith.addf %a, %hf : f32
        soac.yield %r : f32
      }
      soac.yield %stepped : tensor<91xf32>
    }
    scf.yield %next : tensor<?x91xf32>
  }
  func.return %y : tensor<?x91xf32>
}
