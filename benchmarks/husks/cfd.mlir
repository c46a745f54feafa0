// cfd: a simplified Rodinia CFD (futhark-benchmarks rodinia/cfd): `steps` explicit
// steps over an unstructured mesh of n cells, each cell relaxing its four state
// variables towards the mean of its four neighbours' values. The thesis's CFD pattern:
// every step's map reads whole arrays indirectly (through the neighbour table), so
// with husks every device needs all of them, every step.
//
//   entry main [n] (density: [n]f32) (mx: [n]f32) (my: [n]f32) (energy: [n]f32)
//                  (nbrs: [n][4]i64) (steps: i64): ([n]f32, [n]f32, [n]f32, [n]f32) =
//     loop (d, mx, my, e) for _s < steps do
//       unzip4 (map5 (\nb d_i mx_i my_i e_i ->
//                       let relax x x_i = x_i + 0.1 * ((x[nb[0]] + x[nb[1]] + x[nb[2]] + x[nb[3]]) * 0.25 - x_i)
//                       in (relax d d_i, relax mx mx_i, relax my my_i, relax e e_i))
//                    nbrs d mx my e)
//
// Each step is one top-level map over the rows of the neighbour table (and the
// cells' own values), with four results; its lambda reads the neighbours' values of
// the four arrays it captures with soac.index.
func.func @main(%density: tensor<?xf32>, %momentum_x: tensor<?xf32>, %momentum_y: tensor<?xf32>,
                %energy: tensor<?xf32>, %nbrs: tensor<?x4xindex>, %steps: index)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %quarter = arith.constant 0.25 : f32
  %rate = arith.constant 0.1 : f32
  %d, %mx, %my, %e = scf.for %s = %c0 to %steps step %c1
      iter_args(%d0 = %density, %mx0 = %momentum_x, %my0 = %momentum_y, %e0 = %energy)
      -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
    %d1, %mx1, %my1, %e1 = soac.map(%nbrs, %d0, %mx0, %my0, %e0)
        : (tensor<?x4xindex>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
        -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
    ^bb0(%nb: tensor<4xindex>, %d_i: f32, %mx_i: f32, %my_i: f32, %e_i: f32):
      %j0 = soac.index %nb[%c0] : tensor<4xindex>
      %j1 = soac.index %nb[%c1] : tensor<4xindex>
      %j2 = soac.index %nb[%c2] : tensor<4xindex>
      %j3 = soac.index %nb[%c3] : tensor<4xindex>
      // density: d_i + 0.1 * (mean of the neighbours - d_i)
      %da = soac.index %d0[%j0] : tensor<?xf32>
      %db = soac.index %d0[%j1] : tensor<?xf32>
      %dc = soac.index %d0[%j2] : tensor<?xf32>
      %dd = soac.index %d0[%j3] : tensor<?xf32>
      %ds1 = arith.addf %da, %db : f32
      %ds2 = arith.addf %ds1, %dc : f32
      %ds3 = arith.addf %ds2, %dd : f32
      %dm = arith.mulf %ds3, %quarter : f32
      %dg = arith.subf %dm, %d_i : f32
      %df = arith.mulf %dg, %rate : f32
      %dn = arith.addf %d_i, %df : f32
      // momentum x, the same
      %xa = soac.index %mx0[%j0] : tensor<?xf32>
      %xb = soac.index %mx0[%j1] : tensor<?xf32>
      %xc = soac.index %mx0[%j2] : tensor<?xf32>
      %xd = soac.index %mx0[%j3] : tensor<?xf32>
      %xs1 = arith.addf %xa, %xb : f32
      %xs2 = arith.addf %xs1, %xc : f32
      %xs3 = arith.addf %xs2, %xd : f32
      %xm = arith.mulf %xs3, %quarter : f32
      %xg = arith.subf %xm, %mx_i : f32
      %xf = arith.mulf %xg, %rate : f32
      %xn = arith.addf %mx_i, %xf : f32
      // momentum y, the same
      %ya = soac.index %my0[%j0] : tensor<?xf32>
      %yb = soac.index %my0[%j1] : tensor<?xf32>
      %yc = soac.index %my0[%j2] : tensor<?xf32>
      %yd = soac.index %my0[%j3] : tensor<?xf32>
      %ys1 = arith.addf %ya, %yb : f32
      %ys2 = arith.addf %ys1, %yc : f32
      %ys3 = arith.addf %ys2, %yd : f32
      %ym = arith.mulf %ys3, %quarter : f32
      %yg = arith.subf %ym, %my_i : f32
      %yf = arith.mulf %yg, %rate : f32
      %yn = arith.addf %my_i, %yf : f32
      // energy, the same
      %ea = soac.index %e0[%j0] : tensor<?xf32>
      %eb = soac.index %e0[%j1] : tensor<?xf32>
      %ec = soac.index %e0[%j2] : tensor<?xf32>
      %ed = soac.index %e0[%j3] : tensor<?xf32>
      %es1 = arith.addf %ea, %eb : f32
      %es2 = arith.addf %es1, %ec : f32
      %es3 = arith.addf %es2, %ed : f32
      %em = arith.mulf %es3, %quarter : f32
      %eg = arith.subf %em, %e_i : f32
      %ef = arith.mulf %eg, %rate : f32
      %en = arith.addf %e_i, %ef : f32
      soac.yield %dn, %xn, %yn, %en : f32, f32, f32, f32
    }
    scf.yield %d1, %mx1, %my1, %e1 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  }
  func.return %d, %mx, %my, %e : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
