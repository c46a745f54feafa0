// series: the first Fourier coefficients of (x+1)^x on [0, 2], each a trapezoidal
// integral (the Java Grande Forum's Series; futhark-benchmarks jgf/series/series.fut).
//
//   let first = [(integrate 0 0 / 2, 0)]
//   let rest  = map (\i -> (integrate (omega*i) 1, integrate (omega*i) 2)) (1..n-1)
//   in unzip (concat first rest)
//
// Memory: the two concatenations are what the study short-circuits (50% of the peak):
// first and rest are made directly in the results.
func.func @main(%n: index) -> (tensor<?xf64>, tensor<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.constant 64 : index
  %inner = arith.constant 62 : index
  %fsteps = arith.constant 64.0 : f64
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %omega = arith.constant 3.1415926535897932 : f64
  %dx = arith.divf %two, %fsteps : f64
  // the integral of (x+1)^x, trapezoid rule, on the host
  %p0 = math.powf %one, %zero : f64
  %r0 = arith.divf %p0, %two : f64
  %xe, %re = scf.for %k = %c0 to %inner step %c1 iter_args(%x = %zero, %r = %r0) -> (f64, f64) {
    %x2 = arith.addf %x, %dx : f64
    %b = arith.addf %x2, %one : f64
    %p = math.powf %b, %x2 : f64
    %r2 = arith.addf %r, %p : f64
    scf.yield %x2, %r2 : f64, f64
  }
  %b1 = arith.addf %two, %one : f64
  %p1 = math.powf %b1, %two : f64
  %h1 = arith.divf %p1, %two : f64
  %s1 = arith.addf %re, %h1 : f64
  %i0 = arith.mulf %s1, %dx : f64
  %a0 = arith.divf %i0, %two : f64
  %first_a = soac.array [%a0] : tensor<1xf64>
  %first_b = soac.array [%zero] : tensor<1xf64>
  %m = arith.subi %n, %c1 : index
  %is = soac.iota %m : tensor<?xindex>
  %ra, %rb = soac.map(%is) : (tensor<?xindex>) -> (tensor<?xf64>, tensor<?xf64>) {
  ^bb0(%i: index):
    %i1 = arith.addi %i, %c1 : index
    %ii = arith.index_cast %i1 : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %om = arith.mulf %omega, %fi : f64
    // r = f(0) / 2 for cos (cos 0 = 1) and for sin (sin 0 = 0)
    %c_0 = arith.divf %p0, %two : f64
    %s_0 = arith.constant 0.0 : f64
    %xl, %cr, %sr = scf.for %k = %c0 to %inner step %c1 iter_args(%x = %zero, %c = %c_0, %s = %s_0) -> (f64, f64, f64) {
      %x2 = arith.addf %x, %dx : f64
      %b = arith.addf %x2, %one : f64
      %p = math.powf %b, %x2 : f64
      %ox = arith.mulf %om, %x2 : f64
      %co = math.cos %ox : f64
      %si = math.sin %ox : f64
      %pc = arith.mulf %p, %co : f64
      %ps = arith.mulf %p, %si : f64
      %c2 = arith.addf %c, %pc : f64
      %s2 = arith.addf %s, %ps : f64
      scf.yield %x2, %c2, %s2 : f64, f64, f64
    }
    %o2 = arith.mulf %om, %two : f64
    %co2 = math.cos %o2 : f64
    %si2 = math.sin %o2 : f64
    %pc2 = arith.mulf %p1, %co2 : f64
    %ps2 = arith.mulf %p1, %si2 : f64
    %hc = arith.divf %pc2, %two : f64
    %hs = arith.divf %ps2, %two : f64
    %cs = arith.addf %cr, %hc : f64
    %ss = arith.addf %sr, %hs : f64
    %ca = arith.mulf %cs, %dx : f64
    %sa = arith.mulf %ss, %dx : f64
    soac.yield %ca, %sa : f64, f64
  }
  %out_a = soac.concat %first_a, %ra : (tensor<1xf64>, tensor<?xf64>) -> tensor<?xf64>
  %out_b = soac.concat %first_b, %rb : (tensor<1xf64>, tensor<?xf64>) -> tensor<?xf64>
  func.return %out_a, %out_b : tensor<?xf64>, tensor<?xf64>
}
