// tunnel: the Accelerate "tunnel" pattern, the thesis's Tunnel: a large output and
// little work per element, so the time goes to writing the image (and, with husks,
// to copying the devices' parts back to device 0).
//
//   entry main (time: f32) (width: i64) (height: i64): [width*height]f32 =
//     map (\i -> let (y, x) = (i / width, i % width)
//                let (px, py) = ((2x - width) / height, (2y - height) / height)
//                let r = sqrt (px*px + py*py)
//                let u = 0.5 * time + 0.25 / max r 0.1     -- depth: along the tunnel
//                let v = atan2 py px * (1/pi)              -- angle: around it
//                in (0.5 + 0.5 * sin (2pi u) * cos (4pi v)) * min r 1)
//         (iota (width * height))
//
// The image is flattened row-major, as in examples/mandelbrot.mlir. Coordinates are
// centred and scaled by the height (the aspect ratio kept); the clamps keep 1/r and
// the brightness bounded, so the value is in [0, 1] and continuous (cos (4pi v) is
// equal at v = -1 and v = 1, either side of atan2's cut).
func.func @main(%time: f32, %width: index, %height: index) -> tensor<?xf32> {
  %n = arith.muli %width, %height : index
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %depth = arith.constant 0.25 : f32
  %rmin = arith.constant 0.1 : f32
  %inv_pi = arith.constant 0.318309886 : f32
  %two_pi = arith.constant 6.28318531 : f32
  %four_pi = arith.constant 12.5663706 : f32

  // Host scalars captured by the map: the image size as f32 and the time's offset.
  %w64 = arith.index_cast %width : index to i64
  %h64 = arith.index_cast %height : index to i64
  %wf = arith.sitofp %w64 : i64 to f32
  %hf = arith.sitofp %h64 : i64 to f32
  %shift = arith.mulf %half, %time : f32

  %pixels = soac.iota %n : tensor<?xindex>
  %image = soac.map(%pixels) : (tensor<?xindex>) -> tensor<?xf32> {
  ^bb0(%i: index):
    // y = i / width, x = i % width
    %y = arith.divui %i, %width : index
    %x = arith.remui %i, %width : index
    %y64 = arith.index_cast %y : index to i64
    %x64 = arith.index_cast %x : index to i64
    %yf = arith.sitofp %y64 : i64 to f32
    %xf = arith.sitofp %x64 : i64 to f32
    // (px, py) = ((2x - width) / height, (2y - height) / height)
    %x2 = arith.mulf %two, %xf : f32
    %xc = arith.subf %x2, %wf : f32
    %px = arith.divf %xc, %hf : f32
    %y2 = arith.mulf %two, %yf : f32
    %yc = arith.subf %y2, %hf : f32
    %py = arith.divf %yc, %hf : f32
    // polar coordinates
    %px2 = arith.mulf %px, %px : f32
    %py2 = arith.mulf %py, %py : f32
    %r2 = arith.addf %px2, %py2 : f32
    %r = math.sqrt %r2 : f32
    %angle = math.atan2 %py, %px : f32
    // texture coordinates (u, v)
    %rc = arith.maximumf %r, %rmin : f32
    %ur = arith.divf %depth, %rc : f32
    %u = arith.addf %shift, %ur : f32
    %v = arith.mulf %angle, %inv_pi : f32
    // a checker-like pattern, darker towards the centre
    %su = arith.mulf %two_pi, %u : f32
    %sv = arith.mulf %four_pi, %v : f32
    %s = math.sin %su : f32
    %c = math.cos %sv : f32
    %sc = arith.mulf %s, %c : f32
    %hsc = arith.mulf %half, %sc : f32
    %tex = arith.addf %half, %hsc : f32
    %fog = arith.minimumf %r, %one : f32
    %colour = arith.mulf %tex, %fog : f32
    soac.yield %colour : f32
  }
  func.return %image : tensor<?xf32>
}
