// srad (futhark-benchmarks rodinia/srad, speckle-reducing anisotropic diffusion):
// every iteration computes the image's sum and sum of squares (reductions), from them
// a scalar (q0sqr) on the host, and then two stencil maps that use it. Two reads per
// iteration; reduce-device-syncs computes q0sqr in a gpu_body from the reductions'
// results on the device: none. The image's rows are summed by a map of reductions
// (soacc has no reshape to a flat array).
func.func @main(%pixels: tensor<?x?xf32>, %niter: index, %lambda: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %sixteenth = arith.constant 0.0625 : f32
  %k255 = arith.constant 255.0 : f32
  %rows = soac.size %pixels[0] : tensor<?x?xf32>
  %cols = soac.size %pixels[1] : tensor<?x?xf32>
  %rlast = arith.subi %rows, %c1 : index
  %clast = arith.subi %cols, %c1 : index
  %ne = arith.muli %rows, %cols : index
  %ne64 = arith.index_cast %ne : index to i64
  %nef = arith.sitofp %ne64 : i64 to f32
  %ir = soac.iota %rows : tensor<?xindex>
  %ic = soac.iota %cols : tensor<?xindex>
  // scale down from 0-255 to 0-1 and extract
  %image0 = soac.map(%pixels) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %r = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%p: f32):
      %q = arith.divf %p, %k255 : f32
      %e = math.exp %q : f32
      soac.yield %e : f32
    }
    soac.yield %r : tensor<?xf32>
  }
  %image = scf.for %it = %c0 to %niter step %c1 iter_args(%im = %image0) -> (tensor<?x?xf32>) {
    // ROI statistics for the entire image
    %rowsums = soac.map(%im) : (tensor<?x?xf32>) -> tensor<?xf32> {
    ^bb0(%row: tensor<?xf32>):
      %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
      ^bb1(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        soac.yield %t : f32
      }
      soac.yield %s : f32
    }
    %sum = soac.reduce(%rowsums) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    %squares = soac.map(%im) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%row: tensor<?xf32>):
      %r = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%p: f32):
        %q = arith.mulf %p, %p : f32
        soac.yield %q : f32
      }
      soac.yield %r : tensor<?xf32>
    }
    %rowsums2 = soac.map(%squares) : (tensor<?x?xf32>) -> tensor<?xf32> {
    ^bb0(%row: tensor<?xf32>):
      %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
      ^bb1(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        soac.yield %t : f32
      }
      soac.yield %s : f32
    }
    %sum2 = soac.reduce(%rowsums2) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    %meanROI = arith.divf %sum, %nef : f32
    %m2 = arith.divf %sum2, %nef : f32
    %mm = arith.mulf %meanROI, %meanROI : f32
    %varROI = arith.subf %m2, %mm : f32
    %q0sqr = arith.divf %varROI, %mm : f32
    %q1 = arith.addf %one, %q0sqr : f32
    %qq = arith.mulf %q0sqr, %q1 : f32
    // directional derivatives and the diffusion coefficient
    %dN, %dS, %dW, %dE, %cc = soac.map(%ir) : (tensor<?xindex>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
    ^bb0(%i: index):
      %itop = arith.cmpi eq, %i, %c0 : index
      %im1 = arith.subi %i, %c1 : index
      %iN = arith.select %itop, %i, %im1 : index
      %ibot = arith.cmpi eq, %i, %rlast : index
      %ip1 = arith.addi %i, %c1 : index
      %iS = arith.select %ibot, %i, %ip1 : index
      %rN, %rS, %rW, %rE, %rc = soac.map(%ic) : (tensor<?xindex>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
      ^bb1(%j: index):
        %jl = arith.cmpi eq, %j, %c0 : index
        %jm1 = arith.subi %j, %c1 : index
        %jW = arith.select %jl, %j, %jm1 : index
        %jr = arith.cmpi eq, %j, %clast : index
        %jp1 = arith.addi %j, %c1 : index
        %jE = arith.select %jr, %j, %jp1 : index
        %jc = soac.index %im[%i, %j] : tensor<?x?xf32>
        %vN = soac.index %im[%iN, %j] : tensor<?x?xf32>
        %vS = soac.index %im[%iS, %j] : tensor<?x?xf32>
        %vW = soac.index %im[%i, %jW] : tensor<?x?xf32>
        %vE = soac.index %im[%i, %jE] : tensor<?x?xf32>
        %n = arith.subf %vN, %jc : f32
        %s = arith.subf %vS, %jc : f32
        %w = arith.subf %vW, %jc : f32
        %e = arith.subf %vE, %jc : f32
        %n2 = arith.mulf %n, %n : f32
        %s2 = arith.mulf %s, %s : f32
        %w2 = arith.mulf %w, %w : f32
        %e2 = arith.mulf %e, %e : f32
        %g1 = arith.addf %n2, %s2 : f32
        %g2 = arith.addf %g1, %w2 : f32
        %g3 = arith.addf %g2, %e2 : f32
        %jc2 = arith.mulf %jc, %jc : f32
        %g2sq = arith.divf %g3, %jc2 : f32
        %l1 = arith.addf %n, %s : f32
        %l2 = arith.addf %l1, %w : f32
        %l3 = arith.addf %l2, %e : f32
        %l = arith.divf %l3, %jc : f32
        %hg = arith.mulf %half, %g2sq : f32
        %ll = arith.mulf %l, %l : f32
        %sl = arith.mulf %sixteenth, %ll : f32
        %num = arith.subf %hg, %sl : f32
        %ql = arith.mulf %quarter, %l : f32
        %den = arith.addf %one, %ql : f32
        %den2 = arith.mulf %den, %den : f32
        %qsqr = arith.divf %num, %den2 : f32
        %dq = arith.subf %qsqr, %q0sqr : f32
        %den3 = arith.divf %dq, %qq : f32
        %den4 = arith.addf %one, %den3 : f32
        %ck = arith.divf %one, %den4 : f32
        %lo = arith.maximumf %ck, %zero : f32
        %cl = arith.minimumf %lo, %one : f32
        soac.yield %n, %s, %w, %e, %cl : f32, f32, f32, f32, f32
      }
      soac.yield %rN, %rS, %rW, %rE, %rc : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
    }
    // the divergence and the update
    %next = soac.map(%ir) : (tensor<?xindex>) -> tensor<?x?xf32> {
    ^bb0(%i: index):
      %ibot = arith.cmpi eq, %i, %rlast : index
      %ip1 = arith.addi %i, %c1 : index
      %iS = arith.select %ibot, %i, %ip1 : index
      %row = soac.map(%ic) : (tensor<?xindex>) -> tensor<?xf32> {
      ^bb1(%j: index):
        %jr = arith.cmpi eq, %j, %clast : index
        %jp1 = arith.addi %j, %c1 : index
        %jE = arith.select %jr, %j, %jp1 : index
        %pixel = soac.index %im[%i, %j] : tensor<?x?xf32>
        %cN = soac.index %cc[%i, %j] : tensor<?x?xf32>
        %cS = soac.index %cc[%iS, %j] : tensor<?x?xf32>
        %cE = soac.index %cc[%i, %jE] : tensor<?x?xf32>
        %n = soac.index %dN[%i, %j] : tensor<?x?xf32>
        %s = soac.index %dS[%i, %j] : tensor<?x?xf32>
        %w = soac.index %dW[%i, %j] : tensor<?x?xf32>
        %e = soac.index %dE[%i, %j] : tensor<?x?xf32>
        %t1 = arith.mulf %cN, %n : f32
        %t2 = arith.mulf %cS, %s : f32
        %t3 = arith.mulf %cN, %w : f32
        %t4 = arith.mulf %cE, %e : f32
        %d1 = arith.addf %t1, %t2 : f32
        %d2 = arith.addf %d1, %t3 : f32
        %d = arith.addf %d2, %t4 : f32
        %ql = arith.mulf %quarter, %lambda : f32
        %qld = arith.mulf %ql, %d : f32
        %p = arith.addf %pixel, %qld : f32
        soac.yield %p : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    scf.yield %next : tensor<?x?xf32>
  }
  // scale up from 0-1 to 0-255 (the log compression)
  %out = soac.map(%image) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %r = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%p: f32):
      %lg = math.log %p : f32
      %q = arith.mulf %lg, %k255 : f32
      soac.yield %q : f32
    }
    soac.yield %r : tensor<?xf32>
  }
  func.return %out : tensor<?x?xf32>
}
