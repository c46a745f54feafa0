// nbody: direct-sum gravitational n-body simulation, semi-implicit Euler steps (f64).
//
//   def accel [n] (pos: [n][3]f64) (mass: [n]f64) (p: [3]f64): [3]f64 =
//     let (ax, ay, az) = unzip3 (map2 (\q m -> let d  = q - p
//                                             let r2 = d.x*d.x + d.y*d.y + d.z*d.z + eps2
//                                             let s  = m / (r2 * sqrt r2)
//                                             in (d.x*s, d.y*s, d.z*s)) pos mass)
//     in [reduce (+) 0 ax, reduce (+) 0 ay, reduce (+) 0 az]    -- one 3-array reduce
//
//   entry main [n] (pos: [n][3]f64) (vel: [n][3]f64) (mass: [n]f64) (dt: f64) (steps: i64) =
//     loop (pos, vel) for _ < steps do
//       let acc  = map (accel pos mass) pos
//       let vel' = map2 (map2 (\v a -> v + dt*a)) vel acc
//       let pos' = map2 (map2 (\x v -> x + dt*v)) pos vel'
//       in (pos', vel')
//
// The softening eps2 = 0.01 makes a body's pull on itself exactly 0 (d = 0). Rows
// have the static type tensor<3xf64>; an acceleration row is built with a
// soac.array literal of three reduction results.
func.func @main(%pos0: tensor<?x3xf64>, %vel0: tensor<?x3xf64>, %mass: tensor<?xf64>,
                %dt: f64, %steps: index) -> (tensor<?x3xf64>, tensor<?x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %eps2 = arith.constant 0.01 : f64

  %pos, %vel = scf.for %s = %c0 to %steps step %c1 iter_args(%p = %pos0, %v = %vel0)
      -> (tensor<?x3xf64>, tensor<?x3xf64>) {
    // acceleration of every body: a map over bodies of a 3-array reduce over bodies
    %acc = soac.map(%p) : (tensor<?x3xf64>) -> tensor<?x3xf64> {
    ^bb0(%pi: tensor<3xf64>):
      %xi = soac.index %pi[%c0] : tensor<3xf64>
      %yi = soac.index %pi[%c1] : tensor<3xf64>
      %zi = soac.index %pi[%c2] : tensor<3xf64>
      %ax, %ay, %az = soac.map(%p, %mass) : (tensor<?x3xf64>, tensor<?xf64>)
          -> (tensor<?xf64>, tensor<?xf64>, tensor<?xf64>) {
      ^bb1(%pj: tensor<3xf64>, %mj: f64):
        %xj = soac.index %pj[%c0] : tensor<3xf64>
        %yj = soac.index %pj[%c1] : tensor<3xf64>
        %zj = soac.index %pj[%c2] : tensor<3xf64>
        %dx = arith.subf %xj, %xi : f64
        %dy = arith.subf %yj, %yi : f64
        %dz = arith.subf %zj, %zi : f64
        %dx2 = arith.mulf %dx, %dx : f64
        %dy2 = arith.mulf %dy, %dy : f64
        %dz2 = arith.mulf %dz, %dz : f64
        %dxy = arith.addf %dx2, %dy2 : f64
        %d2 = arith.addf %dxy, %dz2 : f64
        %r2 = arith.addf %d2, %eps2 : f64
        %r = math.sqrt %r2 : f64
        %r3 = arith.mulf %r2, %r : f64
        %sc = arith.divf %mj, %r3 : f64
        %fx = arith.mulf %dx, %sc : f64
        %fy = arith.mulf %dy, %sc : f64
        %fz = arith.mulf %dz, %sc : f64
        soac.yield %fx, %fy, %fz : f64, f64, f64
      }
      %sx, %sy, %sz = soac.reduce(%ax, %ay, %az) neutral(%zero, %zero, %zero : f64, f64, f64) commutative
          : (tensor<?xf64>, tensor<?xf64>, tensor<?xf64>) -> (f64, f64, f64) {
      ^bb1(%x1: f64, %y1: f64, %z1: f64, %x2: f64, %y2: f64, %z2: f64):
        %x = arith.addf %x1, %x2 : f64
        %y = arith.addf %y1, %y2 : f64
        %z = arith.addf %z1, %z2 : f64
        soac.yield %x, %y, %z : f64, f64, f64
      }
      %a = soac.array [%sx, %sy, %sz] : tensor<3xf64>
      soac.yield %a : tensor<3xf64>
    }

    // vel' = vel + dt*acc; pos' = pos + dt*vel'
    %v2 = soac.map(%v, %acc) : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64> {
    ^bb0(%vr: tensor<3xf64>, %ar: tensor<3xf64>):
      %nv = soac.map(%vr, %ar) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64> {
      ^bb1(%vv: f64, %aa: f64):
        %da = arith.mulf %dt, %aa : f64
        %e = arith.addf %vv, %da : f64
        soac.yield %e : f64
      }
      soac.yield %nv : tensor<3xf64>
    }
    %p2 = soac.map(%p, %v2) : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64> {
    ^bb0(%pr: tensor<3xf64>, %vr: tensor<3xf64>):
      %np = soac.map(%pr, %vr) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64> {
      ^bb1(%xx: f64, %vv: f64):
        %dv = arith.mulf %dt, %vv : f64
        %e = arith.addf %xx, %dv : f64
        soac.yield %e : f64
      }
      soac.yield %np : tensor<3xf64>
    }
    scf.yield %p2, %v2 : tensor<?x3xf64>, tensor<?x3xf64>
  }
  func.return %pos, %vel : tensor<?x3xf64>, tensor<?x3xf64>
}
