// mandelbrot with its iteration limit an argument: the thesis's Mandelbrot, whose
// gain on two GPUs grows with the limit (work per pixel) and shrinks with the image
// (the result copied back to GPU 0). The program of examples/mandelbrot.mlir otherwise.
//
//   entry main (width: i64) (height: i64) (limit: i32): [width*height]i32 =
//     map (\i -> escape count of pixel i, at most limit steps) (iota (width * height))
func.func @main(%width: index, %height: index, %kmax: i32) -> tensor<?xi32> {
  %n = arith.muli %width, %height : index
  %x0 = arith.constant -2.25 : f32
  %y0 = arith.constant -1.25 : f32
  %xspan = arith.constant 3.0 : f32
  %yspan = arith.constant 2.5 : f32
  %two = arith.constant 2.0 : f32
  %four = arith.constant 4.0 : f32
  %fzero = arith.constant 0.0 : f32
  %k0 = arith.constant 0 : i32
  %k1 = arith.constant 1 : i32

  // Pixel spacing, computed on the host and captured by the map.
  %w64 = arith.index_cast %width : index to i64
  %h64 = arith.index_cast %height : index to i64
  %wf = arith.sitofp %w64 : i64 to f32
  %hf = arith.sitofp %h64 : i64 to f32
  %dx = arith.divf %xspan, %wf : f32
  %dy = arith.divf %yspan, %hf : f32

  %pixels = soac.iota %n : tensor<?xindex>
  %counts = soac.map(%pixels) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    // row = i / width, col = i % width
    %row = arith.divui %i, %width : index
    %col = arith.remui %i, %width : index
    %row64 = arith.index_cast %row : index to i64
    %col64 = arith.index_cast %col : index to i64
    %rowf = arith.sitofp %row64 : i64 to f32
    %colf = arith.sitofp %col64 : i64 to f32
    // c = (x0 + col*dx, y0 + row*dy)
    %cxo = arith.mulf %colf, %dx : f32
    %cx = arith.addf %x0, %cxo : f32
    %cyo = arith.mulf %rowf, %dy : f32
    %cy = arith.addf %y0, %cyo : f32
    %res:3 = scf.while (%k = %k0, %zr = %fzero, %zi = %fzero) : (i32, f32, f32) -> (i32, f32, f32) {
      // continue while k < limit and zr^2 + zi^2 <= 4
      %more = arith.cmpi slt, %k, %kmax : i32
      %zr2 = arith.mulf %zr, %zr : f32
      %zi2 = arith.mulf %zi, %zi : f32
      %mag = arith.addf %zr2, %zi2 : f32
      %inside = arith.cmpf ole, %mag, %four : f32
      %go = arith.andi %more, %inside : i1
      scf.condition(%go) %k, %zr, %zi : i32, f32, f32
    } do {
    ^bb0(%k: i32, %zr: f32, %zi: f32):
      // z <- z*z + c: (zr^2 - zi^2 + cx, 2*zr*zi + cy)
      %zr2 = arith.mulf %zr, %zr : f32
      %zi2 = arith.mulf %zi, %zi : f32
      %re = arith.subf %zr2, %zi2 : f32
      %nzr = arith.addf %re, %cx : f32
      %tzr = arith.mulf %two, %zr : f32
      %im = arith.mulf %tzr, %zi : f32
      %nzi = arith.addf %im, %cy : f32
      %nk = arith.addi %k, %k1 : i32
      scf.yield %nk, %nzr, %nzi : i32, f32, f32
    }
    soac.yield %res#0 : i32
  }
  func.return %counts : tensor<?xi32>
}
