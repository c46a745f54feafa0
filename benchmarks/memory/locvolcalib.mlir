// LocVolCalib: local volatility calibration (FinPar; futhark-benchmarks
// finpar/LocVolCalib.fut, the version of the study's evaluation), for `outer` strike
// prices one after the other: each prices an option by rolling a numY x numX grid back
// over numT time steps, an explicit step in x and in y, then an implicit (tridiagonal,
// solved sequentially per row) step in x and in y, with transposes between them.
//
// Departures from the Futhark program: the strikes are a host loop (not a map) and the
// finite-difference operators are six columns ([n] each) instead of an [n][3] array;
// every operator column is still the concatenation [low] ++ mids ++ [high] of the
// original. Memory: the study reports a 44% smaller peak on the GPU, from reusing the
// time loop's many [numY][numX] temporaries (myMuX, myVarX, myMuY, myVarY, u, v, y) and
// from coalescing the operators' concatenations.
func.func @main(%outer: index, %numX: index, %numY: index, %numT: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %fm1 = arith.constant -1.0 : f32
  %f2 = arith.constant 2.0 : f32
  %fm2 = arith.constant -2.0 : f32
  %fhalf = arith.constant 0.5 : f32
  %s0 = arith.constant 0.03 : f32
  %tmax = arith.constant 5.0 : f32
  %alpha = arith.constant 0.2 : f32
  %nu = arith.constant 0.6 : f32
  %beta = arith.constant 0.5 : f32
  %f20 = arith.constant 20.0 : f32
  %f10 = arith.constant 10.0 : f32
  %fmilli = arith.constant 0.001 : f32
  // initGrid
  %fnumT_i = arith.index_cast %numT : index to i64
  %fnumT = arith.sitofp %fnumT_i : i64 to f32
  %fnumX_i = arith.index_cast %numX : index to i64
  %fnumX = arith.sitofp %fnumX_i : i64 to f32
  %fnumY_i = arith.index_cast %numY : index to i64
  %fnumY = arith.sitofp %fnumY_i : i64 to f32
  %tden = arith.subf %fnumT, %f1 : f32
  %its = soac.iota %numT : tensor<?xindex>
  %timeline = soac.map(%its) : (tensor<?xindex>) -> tensor<?xf32> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %tf = arith.mulf %tmax, %fi : f32
    %v = arith.divf %tf, %tden : f32
    soac.yield %v : f32
  }
  %sqt = math.sqrt %tmax : f32
  %sx1 = arith.mulf %f20, %alpha : f32
  %sx2 = arith.mulf %sx1, %s0 : f32
  %stdX = arith.mulf %sx2, %sqt : f32
  %sy1 = arith.mulf %f10, %nu : f32
  %stdY = arith.mulf %sy1, %sqt : f32
  %dx = arith.divf %stdX, %fnumX : f32
  %dy = arith.divf %stdY, %fnumY : f32
  %xif = arith.divf %s0, %dx : f32
  %xii = arith.fptosi %xif : f32 to i64
  %xindex = arith.index_cast %xii : i64 to index
  %yindex = arith.divui %numY, %c2 : index
  %fxindex_i = arith.index_cast %xindex : index to i64
  %fxindex = arith.sitofp %fxindex_i : i64 to f32
  %fyindex_i = arith.index_cast %yindex : index to i64
  %fyindex = arith.sitofp %fyindex_i : i64 to f32
  %logAlpha = math.log %alpha : f32
  %xoff = arith.mulf %fxindex, %dx : f32
  %yoff = arith.mulf %fyindex, %dy : f32
  %iX = soac.iota %numX : tensor<?xindex>
  %iY = soac.iota %numY : tensor<?xindex>
  %myX = soac.map(%iX) : (tensor<?xindex>) -> tensor<?xf32> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %p = arith.mulf %fi, %dx : f32
    %q = arith.subf %p, %xoff : f32
    %v = arith.addf %q, %s0 : f32
    soac.yield %v : f32
  }
  %myY = soac.map(%iY) : (tensor<?xindex>) -> tensor<?xf32> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %p = arith.mulf %fi, %dy : f32
    %q = arith.subf %p, %yoff : f32
    %v = arith.addf %q, %logAlpha : f32
    soac.yield %v : f32
  }

  // initOperator(myX): the columns of Dx and DDx, each [low] ++ mids ++ [high]
  %x_x0 = soac.index %myX[%c0] : tensor<?xf32>
  %x_x1 = soac.index %myX[%c1] : tensor<?xf32>
  %x_dxu = arith.subf %x_x1, %x_x0 : f32
  %x_lo1 = arith.divf %fm1, %x_dxu : f32
  %x_lo2 = arith.divf %f1, %x_dxu : f32
  %x_nm2 = arith.subi %numX, %c2 : index
  %x_is = soac.iota %x_nm2 : tensor<?xindex>
  %x_m0, %x_m1, %x_m2, %x_mm0, %x_mm1, %x_mm2 = soac.map(%x_is) : (tensor<?xindex>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%i: index):
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %xm = soac.index %myX[%i] : tensor<?xf32>
    %xc = soac.index %myX[%i1] : tensor<?xf32>
    %xp = soac.index %myX[%i2] : tensor<?xf32>
    %dxl = arith.subf %xc, %xm : f32
    %dxu = arith.subf %xp, %xc : f32
    %s = arith.addf %dxl, %dxu : f32
    %q0 = arith.divf %dxu, %dxl : f32
    %q0s = arith.divf %q0, %s : f32
    %d0 = arith.negf %q0s : f32
    %q1 = arith.divf %dxl, %dxu : f32
    %q1d = arith.subf %q0, %q1 : f32
    %d1 = arith.divf %q1d, %s : f32
    %d2 = arith.divf %q1, %s : f32
    %r0 = arith.divf %f2, %dxl : f32
    %dd0 = arith.divf %r0, %s : f32
    %il = arith.divf %f1, %dxl : f32
    %iu = arith.divf %f1, %dxu : f32
    %ilu = arith.addf %il, %iu : f32
    %r1 = arith.mulf %fm2, %ilu : f32
    %dd1 = arith.divf %r1, %s : f32
    %r2 = arith.divf %f2, %dxu : f32
    %dd2 = arith.divf %r2, %s : f32
    soac.yield %d0, %d1, %d2, %dd0, %dd1, %dd2 : f32, f32, f32, f32, f32, f32
  }
  %x_n1 = arith.subi %numX, %c1 : index
  %x_xa = soac.index %myX[%x_n1] : tensor<?xf32>
  %x_xb = soac.index %myX[%x_nm2] : tensor<?xf32>
  %x_dxl = arith.subf %x_xa, %x_xb : f32
  %x_hi0 = arith.divf %fm1, %x_dxl : f32
  %x_hi1 = arith.divf %f1, %x_dxl : f32
  %x_l0 = soac.array [%f0] : tensor<1xf32>
  %x_h0 = soac.array [%x_hi0] : tensor<1xf32>
  %Dx0 = soac.concat %x_l0, %x_m0, %x_h0 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %x_l1 = soac.array [%x_lo1] : tensor<1xf32>
  %x_h1 = soac.array [%x_hi1] : tensor<1xf32>
  %Dx1 = soac.concat %x_l1, %x_m1, %x_h1 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %x_l2 = soac.array [%x_lo2] : tensor<1xf32>
  %x_h2 = soac.array [%f0] : tensor<1xf32>
  %Dx2 = soac.concat %x_l2, %x_m2, %x_h2 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %x_lm0 = soac.array [%f0] : tensor<1xf32>
  %x_hm0 = soac.array [%f0] : tensor<1xf32>
  %DDx0 = soac.concat %x_lm0, %x_mm0, %x_hm0 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %x_lm1 = soac.array [%f0] : tensor<1xf32>
  %x_hm1 = soac.array [%f0] : tensor<1xf32>
  %DDx1 = soac.concat %x_lm1, %x_mm1, %x_hm1 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %x_lm2 = soac.array [%f0] : tensor<1xf32>
  %x_hm2 = soac.array [%f0] : tensor<1xf32>
  %DDx2 = soac.concat %x_lm2, %x_mm2, %x_hm2 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>

  // initOperator(myY): the columns of Dy and DDy, each [low] ++ mids ++ [high]
  %y_x0 = soac.index %myY[%c0] : tensor<?xf32>
  %y_x1 = soac.index %myY[%c1] : tensor<?xf32>
  %y_dxu = arith.subf %y_x1, %y_x0 : f32
  %y_lo1 = arith.divf %fm1, %y_dxu : f32
  %y_lo2 = arith.divf %f1, %y_dxu : f32
  %y_nm2 = arith.subi %numY, %c2 : index
  %y_is = soac.iota %y_nm2 : tensor<?xindex>
  %y_m0, %y_m1, %y_m2, %y_mm0, %y_mm1, %y_mm2 = soac.map(%y_is) : (tensor<?xindex>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%i: index):
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %xm = soac.index %myY[%i] : tensor<?xf32>
    %xc = soac.index %myY[%i1] : tensor<?xf32>
    %xp = soac.index %myY[%i2] : tensor<?xf32>
    %dxl = arith.subf %xc, %xm : f32
    %dxu = arith.subf %xp, %xc : f32
    %s = arith.addf %dxl, %dxu : f32
    %q0 = arith.divf %dxu, %dxl : f32
    %q0s = arith.divf %q0, %s : f32
    %d0 = arith.negf %q0s : f32
    %q1 = arith.divf %dxl, %dxu : f32
    %q1d = arith.subf %q0, %q1 : f32
    %d1 = arith.divf %q1d, %s : f32
    %d2 = arith.divf %q1, %s : f32
    %r0 = arith.divf %f2, %dxl : f32
    %dd0 = arith.divf %r0, %s : f32
    %il = arith.divf %f1, %dxl : f32
    %iu = arith.divf %f1, %dxu : f32
    %ilu = arith.addf %il, %iu : f32
    %r1 = arith.mulf %fm2, %ilu : f32
    %dd1 = arith.divf %r1, %s : f32
    %r2 = arith.divf %f2, %dxu : f32
    %dd2 = arith.divf %r2, %s : f32
    soac.yield %d0, %d1, %d2, %dd0, %dd1, %dd2 : f32, f32, f32, f32, f32, f32
  }
  %y_n1 = arith.subi %numY, %c1 : index
  %y_xa = soac.index %myY[%y_n1] : tensor<?xf32>
  %y_xb = soac.index %myY[%y_nm2] : tensor<?xf32>
  %y_dxl = arith.subf %y_xa, %y_xb : f32
  %y_hi0 = arith.divf %fm1, %y_dxl : f32
  %y_hi1 = arith.divf %f1, %y_dxl : f32
  %y_l0 = soac.array [%f0] : tensor<1xf32>
  %y_h0 = soac.array [%y_hi0] : tensor<1xf32>
  %Dy0 = soac.concat %y_l0, %y_m0, %y_h0 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %y_l1 = soac.array [%y_lo1] : tensor<1xf32>
  %y_h1 = soac.array [%y_hi1] : tensor<1xf32>
  %Dy1 = soac.concat %y_l1, %y_m1, %y_h1 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %y_l2 = soac.array [%y_lo2] : tensor<1xf32>
  %y_h2 = soac.array [%f0] : tensor<1xf32>
  %Dy2 = soac.concat %y_l2, %y_m2, %y_h2 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %y_lm0 = soac.array [%f0] : tensor<1xf32>
  %y_hm0 = soac.array [%f0] : tensor<1xf32>
  %DDy0 = soac.concat %y_lm0, %y_mm0, %y_hm0 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %y_lm1 = soac.array [%f0] : tensor<1xf32>
  %y_hm1 = soac.array [%f0] : tensor<1xf32>
  %DDy1 = soac.concat %y_lm1, %y_mm1, %y_hm1 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %y_lm2 = soac.array [%f0] : tensor<1xf32>
  %y_hm2 = soac.array [%f0] : tensor<1xf32>
  %DDy2 = soac.concat %y_lm2, %y_mm2, %y_hm2 : (tensor<1xf32>, tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>

  %nu2 = arith.mulf %nu, %nu : f32
  %hnu2 = arith.mulf %fhalf, %nu2 : f32
  %steps = arith.subi %numT, %c1 : index
  %lastT = arith.subi %numT, %c2 : index
  %res0 = soac.replicate %outer, %f0 : f32 -> tensor<?xf32>
  %prices = scf.for %o = %c0 to %outer step %c1 iter_args(%acc = %res0) -> (tensor<?xf32>) {
    %oi = arith.index_cast %o : index to i64
    %of = arith.sitofp %oi : i64 to f32
    %strike = arith.mulf %fmilli, %of : f32
    // setPayoff
    %payrow = soac.map(%myX) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%xi: f32):
      %d = arith.subf %xi, %strike : f32
      %v = arith.maximumf %d, %f0 : f32
      soac.yield %v : f32
    }
    %payoff = soac.replicate %numY, %payrow : tensor<?xf32> -> tensor<?x?xf32>
    %final = scf.for %k = %c0 to %steps step %c1 iter_args(%res = %payoff) -> (tensor<?x?xf32>) {
    %g = arith.subi %lastT, %k : index
    // updateParams
    %zY = soac.replicate %numY, %f0 : f32 -> tensor<?xf32>
    %muY = soac.replicate %numX, %zY : tensor<?xf32> -> tensor<?x?xf32>
    %vY = soac.replicate %numY, %nu2 : f32 -> tensor<?xf32>
    %varY = soac.replicate %numX, %vY : tensor<?xf32> -> tensor<?x?xf32>
    %zX = soac.replicate %numX, %f0 : f32 -> tensor<?xf32>
    %muX = soac.replicate %numY, %zX : tensor<?xf32> -> tensor<?x?xf32>
    %tg = soac.index %timeline[%g] : tensor<?xf32>
    %tnu = arith.mulf %hnu2, %tg : f32
    %varX = soac.map(%myY) : (tensor<?xf32>) -> tensor<?x?xf32> {
    ^bb0(%yj: f32):
      %row = soac.map(%myX) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%xi: f32):
        %lx = math.log %xi : f32
        %bl = arith.mulf %beta, %lx : f32
        %s = arith.addf %bl, %yj : f32
        %e = arith.subf %s, %tnu : f32
        %e2 = arith.mulf %f2, %e : f32
        %v = math.exp %e2 : f32
        soac.yield %v : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    // rollback
    %g1 = arith.addi %g, %c1 : index
    %tg1 = soac.index %timeline[%g1] : tensor<?xf32>
    %dtd = arith.subf %tg1, %tg : f32
    %dtInv = arith.divf %f1, %dtd : f32
    // explicitMethod(Dx, DDx, muX, varX, res): a three-point stencil along the rows
    %u1 = soac.map(%muX, %varX, %res) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%mur: tensor<?xf32>, %varr: tensor<?xf32>, %rr: tensor<?xf32>):
      %row = soac.map(%Dx0, %Dx1, %Dx2, %DDx0, %DDx1, %DDx2, %mur, %varr, %iX) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xindex>) -> tensor<?xf32> {
      ^bb1(%d0: f32, %d1: f32, %d2: f32, %dd0: f32, %dd1: f32, %dd2: f32, %mu: f32, %var: f32, %j: index):
        %has_l = arith.cmpi ugt, %j, %c0 : index
        %jl0 = arith.subi %j, %c1 : index
        %jl = arith.select %has_l, %jl0, %c0 : index
        %mlast = arith.subi %numX, %c1 : index
        %has_r = arith.cmpi ult, %j, %mlast : index
        %jr0 = arith.addi %j, %c1 : index
        %jr = arith.select %has_r, %jr0, %j : index
        %rl = soac.index %rr[%jl] : tensor<?xf32>
        %rc = soac.index %rr[%j] : tensor<?xf32>
        %rp = soac.index %rr[%jr] : tensor<?xf32>
        %h = arith.mulf %fhalf, %var : f32
        %a0 = arith.mulf %mu, %d0 : f32
        %b0 = arith.mulf %h, %dd0 : f32
        %w0 = arith.addf %a0, %b0 : f32
        %c1v = arith.mulf %w0, %rl : f32
        %c1s = arith.select %has_l, %c1v, %f0 : f32
        %a2 = arith.mulf %mu, %d2 : f32
        %b2 = arith.mulf %h, %dd2 : f32
        %w2 = arith.addf %a2, %b2 : f32
        %c3v = arith.mulf %w2, %rp : f32
        %c3s = arith.select %has_r, %c3v, %f0 : f32
        %a1 = arith.mulf %mu, %d1 : f32
        %b1 = arith.mulf %h, %dd1 : f32
        %w1 = arith.addf %a1, %b1 : f32
        %c2v = arith.mulf %w1, %rc : f32
        %s12 = arith.addf %c1s, %c2v : f32
        %s = arith.addf %s12, %c3s : f32
        soac.yield %s : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    %u2 = soac.map(%u1, %res) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%ar: tensor<?xf32>, %br: tensor<?xf32>):
      %row = soac.map(%ar, %br) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%p: f32, %q: f32):
        %a = arith.mulf %dtInv, %q : f32
        %b = arith.mulf %fhalf, %p : f32
        %v = arith.addf %a, %b : f32
        soac.yield %v : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    %resT = soac.transpose %res [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
    // explicitMethod(Dy, DDy, muY, varY, resT): a three-point stencil along the rows
    %v = soac.map(%muY, %varY, %resT) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%mur: tensor<?xf32>, %varr: tensor<?xf32>, %rr: tensor<?xf32>):
      %row = soac.map(%Dy0, %Dy1, %Dy2, %DDy0, %DDy1, %DDy2, %mur, %varr, %iY) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xindex>) -> tensor<?xf32> {
      ^bb1(%d0: f32, %d1: f32, %d2: f32, %dd0: f32, %dd1: f32, %dd2: f32, %mu: f32, %var: f32, %j: index):
        %has_l = arith.cmpi ugt, %j, %c0 : index
        %jl0 = arith.subi %j, %c1 : index
        %jl = arith.select %has_l, %jl0, %c0 : index
        %mlast = arith.subi %numY, %c1 : index
        %has_r = arith.cmpi ult, %j, %mlast : index
        %jr0 = arith.addi %j, %c1 : index
        %jr = arith.select %has_r, %jr0, %j : index
        %rl = soac.index %rr[%jl] : tensor<?xf32>
        %rc = soac.index %rr[%j] : tensor<?xf32>
        %rp = soac.index %rr[%jr] : tensor<?xf32>
        %h = arith.mulf %fhalf, %var : f32
        %a0 = arith.mulf %mu, %d0 : f32
        %b0 = arith.mulf %h, %dd0 : f32
        %w0 = arith.addf %a0, %b0 : f32
        %c1v = arith.mulf %w0, %rl : f32
        %c1s = arith.select %has_l, %c1v, %f0 : f32
        %a2 = arith.mulf %mu, %d2 : f32
        %b2 = arith.mulf %h, %dd2 : f32
        %w2 = arith.addf %a2, %b2 : f32
        %c3v = arith.mulf %w2, %rp : f32
        %c3s = arith.select %has_r, %c3v, %f0 : f32
        %a1 = arith.mulf %mu, %d1 : f32
        %b1 = arith.mulf %h, %dd1 : f32
        %w1 = arith.addf %a1, %b1 : f32
        %c2v = arith.mulf %w1, %rc : f32
        %s12 = arith.addf %c1s, %c2v : f32
        %s = arith.addf %s12, %c3s : f32
        soac.yield %s : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    %vT = soac.transpose %v [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
    %u3 = soac.map(%u2, %vT) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%ar: tensor<?xf32>, %br: tensor<?xf32>):
      %row = soac.map(%ar, %br) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%p: f32, %q: f32):
        %w = arith.addf %p, %q : f32
        soac.yield %w : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    // implicitMethod(Dx, DDx, muX, varX, u3): a tridiagonal solve per row (tridagSeq)
    %u4 = soac.map(%muX, %varX, %u3) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%mur: tensor<?xf32>, %varr: tensor<?xf32>, %ur: tensor<?xf32>):
      %a, %b, %c = soac.map(%mur, %varr, %Dx0, %Dx1, %Dx2, %DDx0, %DDx1, %DDx2) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
      ^bb1(%mu: f32, %var: f32, %d0: f32, %d1: f32, %d2: f32, %dd0: f32, %dd1: f32, %dd2: f32):
        %h = arith.mulf %fhalf, %var : f32
        %a0 = arith.mulf %mu, %d0 : f32
        %b0 = arith.mulf %h, %dd0 : f32
        %w0 = arith.addf %a0, %b0 : f32
        %x0 = arith.mulf %fhalf, %w0 : f32
        %av = arith.subf %f0, %x0 : f32
        %a1 = arith.mulf %mu, %d1 : f32
        %b1 = arith.mulf %h, %dd1 : f32
        %w1 = arith.addf %a1, %b1 : f32
        %x1 = arith.mulf %fhalf, %w1 : f32
        %bv = arith.subf %dtInv, %x1 : f32
        %a2 = arith.mulf %mu, %d2 : f32
        %b2 = arith.mulf %h, %dd2 : f32
        %w2 = arith.addf %a2, %b2 : f32
        %x2 = arith.mulf %fhalf, %w2 : f32
        %cv = arith.subf %f0, %x2 : f32
        soac.yield %av, %bv, %cv : f32, f32, f32
      }
      %yf, %bf = scf.for %i = %c1 to %numX step %c1 iter_args(%y = %ur, %bb = %b) -> (tensor<?xf32>, tensor<?xf32>) {
        %im = arith.subi %i, %c1 : index
        %ai = soac.index %a[%i] : tensor<?xf32>
        %bm = soac.index %bb[%im] : tensor<?xf32>
        %bet = arith.divf %ai, %bm : f32
        %bi = soac.index %bb[%i] : tensor<?xf32>
        %cm = soac.index %c[%im] : tensor<?xf32>
        %bc = arith.mulf %bet, %cm : f32
        %nb = arith.subf %bi, %bc : f32
        %bb2 = soac.update %bb[%i] = %nb : tensor<?xf32>, f32
        %yi = soac.index %y[%i] : tensor<?xf32>
        %ym = soac.index %y[%im] : tensor<?xf32>
        %by = arith.mulf %bet, %ym : f32
        %ny = arith.subf %yi, %by : f32
        %y2 = soac.update %y[%i] = %ny : tensor<?xf32>, f32
        scf.yield %y2, %bb2 : tensor<?xf32>, tensor<?xf32>
      }
      %ml = arith.subi %numX, %c1 : index
      %yl = soac.index %yf[%ml] : tensor<?xf32>
      %bl = soac.index %bf[%ml] : tensor<?xf32>
      %ylb = arith.divf %yl, %bl : f32
      %y3 = soac.update %yf[%ml] = %ylb : tensor<?xf32>, f32
      %yb = scf.for %kk = %c0 to %ml step %c1 iter_args(%y = %y3) -> (tensor<?xf32>) {
        %i0 = arith.subi %ml, %kk : index
        %i = arith.subi %i0, %c1 : index
        %i1 = arith.addi %i, %c1 : index
        %yi = soac.index %y[%i] : tensor<?xf32>
        %ci = soac.index %c[%i] : tensor<?xf32>
        %yn = soac.index %y[%i1] : tensor<?xf32>
        %bi = soac.index %bf[%i] : tensor<?xf32>
        %cy = arith.mulf %ci, %yn : f32
        %d = arith.subf %yi, %cy : f32
        %yv = arith.divf %d, %bi : f32
        %y2 = soac.update %y[%i] = %yv : tensor<?xf32>, f32
        scf.yield %y2 : tensor<?xf32>
      }
      soac.yield %yb : tensor<?xf32>
    }
    %u4T = soac.transpose %u4 [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
    %yy = soac.map(%u4T, %v) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%ar: tensor<?xf32>, %br: tensor<?xf32>):
      %row = soac.map(%ar, %br) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%p: f32, %q: f32):
        %a = arith.mulf %dtInv, %p : f32
        %b = arith.mulf %fhalf, %q : f32
        %w = arith.subf %a, %b : f32
        soac.yield %w : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    // implicitMethod(Dy, DDy, muY, varY, yy): a tridiagonal solve per row (tridagSeq)
    %rT = soac.map(%muY, %varY, %yy) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%mur: tensor<?xf32>, %varr: tensor<?xf32>, %ur: tensor<?xf32>):
      %a, %b, %c = soac.map(%mur, %varr, %Dy0, %Dy1, %Dy2, %DDy0, %DDy1, %DDy2) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
      ^bb1(%mu: f32, %var: f32, %d0: f32, %d1: f32, %d2: f32, %dd0: f32, %dd1: f32, %dd2: f32):
        %h = arith.mulf %fhalf, %var : f32
        %a0 = arith.mulf %mu, %d0 : f32
        %b0 = arith.mulf %h, %dd0 : f32
        %w0 = arith.addf %a0, %b0 : f32
        %x0 = arith.mulf %fhalf, %w0 : f32
        %av = arith.subf %f0, %x0 : f32
        %a1 = arith.mulf %mu, %d1 : f32
        %b1 = arith.mulf %h, %dd1 : f32
        %w1 = arith.addf %a1, %b1 : f32
        %x1 = arith.mulf %fhalf, %w1 : f32
        %bv = arith.subf %dtInv, %x1 : f32
        %a2 = arith.mulf %mu, %d2 : f32
        %b2 = arith.mulf %h, %dd2 : f32
        %w2 = arith.addf %a2, %b2 : f32
        %x2 = arith.mulf %fhalf, %w2 : f32
        %cv = arith.subf %f0, %x2 : f32
        soac.yield %av, %bv, %cv : f32, f32, f32
      }
      %yf, %bf = scf.for %i = %c1 to %numY step %c1 iter_args(%y = %ur, %bb = %b) -> (tensor<?xf32>, tensor<?xf32>) {
        %im = arith.subi %i, %c1 : index
        %ai = soac.index %a[%i] : tensor<?xf32>
        %bm = soac.index %bb[%im] : tensor<?xf32>
        %bet = arith.divf %ai, %bm : f32
        %bi = soac.index %bb[%i] : tensor<?xf32>
        %cm = soac.index %c[%im] : tensor<?xf32>
        %bc = arith.mulf %bet, %cm : f32
        %nb = arith.subf %bi, %bc : f32
        %bb2 = soac.update %bb[%i] = %nb : tensor<?xf32>, f32
        %yi = soac.index %y[%i] : tensor<?xf32>
        %ym = soac.index %y[%im] : tensor<?xf32>
        %by = arith.mulf %bet, %ym : f32
        %ny = arith.subf %yi, %by : f32
        %y2 = soac.update %y[%i] = %ny : tensor<?xf32>, f32
        scf.yield %y2, %bb2 : tensor<?xf32>, tensor<?xf32>
      }
      %ml = arith.subi %numY, %c1 : index
      %yl = soac.index %yf[%ml] : tensor<?xf32>
      %bl = soac.index %bf[%ml] : tensor<?xf32>
      %ylb = arith.divf %yl, %bl : f32
      %y3 = soac.update %yf[%ml] = %ylb : tensor<?xf32>, f32
      %yb = scf.for %kk = %c0 to %ml step %c1 iter_args(%y = %y3) -> (tensor<?xf32>) {
        %i0 = arith.subi %ml, %kk : index
        %i = arith.subi %i0, %c1 : index
        %i1 = arith.addi %i, %c1 : index
        %yi = soac.index %y[%i] : tensor<?xf32>
        %ci = soac.index %c[%i] : tensor<?xf32>
        %yn = soac.index %y[%i1] : tensor<?xf32>
        %bi = soac.index %bf[%i] : tensor<?xf32>
        %cy = arith.mulf %ci, %yn : f32
        %d = arith.subf %yi, %cy : f32
        %yv = arith.divf %d, %bi : f32
        %y2 = soac.update %y[%i] = %yv : tensor<?xf32>, f32
        scf.yield %y2 : tensor<?xf32>
      }
      soac.yield %yb : tensor<?xf32>
    }
    %rnew = soac.transpose %rT [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
    scf.yield %rnew : tensor<?x?xf32>
    }
    %price = soac.index %final[%yindex, %xindex] : tensor<?x?xf32>
    %acc2 = soac.update %acc[%o] = %price : tensor<?xf32>, f32
    scf.yield %acc2 : tensor<?xf32>
  }
  func.return %prices : tensor<?xf32>
}
