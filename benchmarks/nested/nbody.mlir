// n-body, f32: every body's acceleration, the sum of the pull of every body on it
// (softened by eps2 = 0.01, G = 1; a body's pull on itself is 0), as a map over the
// bodies of a map over all bodies and a reduce of the three components (one redomap
// after soac-fusion). Positions and masses as four arrays.
//
//   map3 (\xi yi zi -> let (ax, ay, az) = unzip3 (map4 (\xj yj zj mj ->
//            let (dx, dy, dz) = (xj - xi, yj - yi, zj - zi)
//            let r2 = dx*dx + dy*dy + dz*dz + eps2
//            let s = mj / (r2 * sqrt r2) in (dx*s, dy*s, dz*s)) xs ys zs ms)
//          in (sum ax, sum ay, sum az)) xs ys zs
func.func @main(%xs: tensor<?xf32>, %ys: tensor<?xf32>, %zs: tensor<?xf32>, %ms: tensor<?xf32>)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %eps2 = arith.constant 0.01 : f32
  %axs, %ays, %azs = soac.map(%xs, %ys, %zs) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%xi: f32, %yi: f32, %zi: f32):
    %fx, %fy, %fz = soac.map(%xs, %ys, %zs, %ms) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
        -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
    ^bb1(%xj: f32, %yj: f32, %zj: f32, %mj: f32):
      %dx = arith.subf %xj, %xi : f32
      %dy = arith.subf %yj, %yi : f32
      %dz = arith.subf %zj, %zi : f32
      %dx2 = arith.mulf %dx, %dx : f32
      %dy2 = arith.mulf %dy, %dy : f32
      %dz2 = arith.mulf %dz, %dz : f32
      %dxy = arith.addf %dx2, %dy2 : f32
      %d2 = arith.addf %dxy, %dz2 : f32
      %r2 = arith.addf %d2, %eps2 : f32
      %r = math.sqrt %r2 : f32
      %r3 = arith.mulf %r2, %r : f32
      %s = arith.divf %mj, %r3 : f32
      %px = arith.mulf %dx, %s : f32
      %py = arith.mulf %dy, %s : f32
      %pz = arith.mulf %dz, %s : f32
      soac.yield %px, %py, %pz : f32, f32, f32
    }
    %ax, %ay, %az = soac.reduce(%fx, %fy, %fz) neutral(%zero, %zero, %zero : f32, f32, f32) commutative
        : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> (f32, f32, f32) {
    ^bb2(%x1: f32, %y1: f32, %z1: f32, %x2: f32, %y2: f32, %z2: f32):
      %x = arith.addf %x1, %x2 : f32
      %y = arith.addf %y1, %y2 : f32
      %z = arith.addf %z1, %z2 : f32
      soac.yield %x, %y, %z : f32, f32, f32
    }
    soac.yield %ax, %ay, %az : f32, f32, f32
  }
  func.return %axs, %ays, %azs : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
