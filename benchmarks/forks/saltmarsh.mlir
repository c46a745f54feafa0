// saltmarsh: a small salt-marsh simulation in the spirit of the study's second program
// (a salt marsh creek formation model, mainly stencils). Three fields on an n x m grid,
// all in [0, 1]: water depth h, sediment (bed elevation) s and vegetation v. In each time
// step, with A the mean of the four neighbours (boundaries clamped), eta = h + s the
// water surface and |grad eta| its central-difference gradient, halved:
//
//   water, `substeps` times (water moves faster than the bed), with the step's s and v:
//     h <- clamp(h + 0.2 (A(eta) - eta) + 0.005 (1 - h) - 0.0125 h v)   flow downhill, tide, uptake
//   s' = clamp(s + 0.1 (A(s) - s) - 0.05 h (1 - v) |grad eta| + 0.01 h v)  diffusion, erosion by flow, trapping
//   v' = clamp(v + 0.1 (A(v) - v) + 0.1 v (1 - v) - 0.2 v h^2)          spread, growth, drowning
//
// s' and v' read the step's old fields only: the water's chain of sub-step kernels and
// the sediment and vegetation updates (which soac-fusion makes one kernel) are
// independent within a step, so with forks they may overlap. After the steps, the total
// sediment, a map of row sums and their sum.
func.func @main(%h0: tensor<?x?xf32>, %s0: tensor<?x?xf32>, %v0: tensor<?x?xf32>, %steps: index, %substeps: index)
    -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %k_flow = arith.constant 0.2 : f32
  %k_tide = arith.constant 0.005 : f32
  %k_uptake = arith.constant 0.0125 : f32
  %k_sdiff = arith.constant 0.1 : f32
  %k_erode = arith.constant 0.05 : f32
  %k_trap = arith.constant 0.01 : f32
  %k_vdiff = arith.constant 0.1 : f32
  %k_grow = arith.constant 0.1 : f32
  %k_drown = arith.constant 0.2 : f32
  %rows = soac.size %h0[0] : tensor<?x?xf32>
  %cols = soac.size %h0[1] : tensor<?x?xf32>
  %rlast = arith.subi %rows, %c1 : index
  %clast = arith.subi %cols, %c1 : index
  %ir = soac.iota %rows : tensor<?xindex>
  %ic = soac.iota %cols : tensor<?xindex>
  %hT, %sT, %vT = scf.for %t = %c0 to %steps step %c1 iter_args(%h = %h0, %s = %s0, %v = %v0)
      -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
    // water: `substeps` shorter steps (water moves faster than the bed), each reading
    // the step's old sediment and vegetation
    %hn = scf.for %k = %c0 to %substeps step %c1 iter_args(%hk = %h) -> (tensor<?x?xf32>) {
      %hk1 = soac.map(%ir) : (tensor<?xindex>) -> tensor<?x?xf32> {
      ^bb0(%i: index):
        %ilo = arith.maxsi %i, %c1 : index
        %iN = arith.subi %ilo, %c1 : index
        %ip1 = arith.addi %i, %c1 : index
        %iS = arith.minsi %ip1, %rlast : index
        %row = soac.map(%ic) : (tensor<?xindex>) -> tensor<?xf32> {
        ^bb1(%j: index):
          %jlo = arith.maxsi %j, %c1 : index
          %jW = arith.subi %jlo, %c1 : index
          %jp1 = arith.addi %j, %c1 : index
          %jE = arith.minsi %jp1, %clast : index
          %hC = soac.index %hk[%i, %j] : tensor<?x?xf32>
          %hN = soac.index %hk[%iN, %j] : tensor<?x?xf32>
          %hS = soac.index %hk[%iS, %j] : tensor<?x?xf32>
          %hW = soac.index %hk[%i, %jW] : tensor<?x?xf32>
          %hE = soac.index %hk[%i, %jE] : tensor<?x?xf32>
          %sC = soac.index %s[%i, %j] : tensor<?x?xf32>
          %sN = soac.index %s[%iN, %j] : tensor<?x?xf32>
          %sS = soac.index %s[%iS, %j] : tensor<?x?xf32>
          %sW = soac.index %s[%i, %jW] : tensor<?x?xf32>
          %sE = soac.index %s[%i, %jE] : tensor<?x?xf32>
          %vx = soac.index %v[%i, %j] : tensor<?x?xf32>
          %eC = arith.addf %hC, %sC : f32
          %eN = arith.addf %hN, %sN : f32
          %eS = arith.addf %hS, %sS : f32
          %eW = arith.addf %hW, %sW : f32
          %eE = arith.addf %hE, %sE : f32
          %ns = arith.addf %eN, %eS : f32
          %we = arith.addf %eW, %eE : f32
          %sum4 = arith.addf %ns, %we : f32
          %mean = arith.mulf %sum4, %quarter : f32
          %lap = arith.subf %mean, %eC : f32
          %flow = arith.mulf %k_flow, %lap : f32
          %dry = arith.subf %one, %hC : f32
          %tide = arith.mulf %k_tide, %dry : f32
          %hv = arith.mulf %hC, %vx : f32
          %uptake = arith.mulf %k_uptake, %hv : f32
          %a1 = arith.addf %hC, %flow : f32
          %a2 = arith.addf %a1, %tide : f32
          %a3 = arith.subf %a2, %uptake : f32
          %lo = arith.maximumf %a3, %zero : f32
          %hi = arith.minimumf %lo, %one : f32
          soac.yield %hi : f32
        }
        soac.yield %row : tensor<?xf32>
      }
      scf.yield %hk1 : tensor<?x?xf32>
    }
    // sediment
    %sn = soac.map(%ir) : (tensor<?xindex>) -> tensor<?x?xf32> {
    ^bb0(%i: index):
      %ilo = arith.maxsi %i, %c1 : index
      %iN = arith.subi %ilo, %c1 : index
      %ip1 = arith.addi %i, %c1 : index
      %iS = arith.minsi %ip1, %rlast : index
      %row = soac.map(%ic) : (tensor<?xindex>) -> tensor<?xf32> {
      ^bb1(%j: index):
        %jlo = arith.maxsi %j, %c1 : index
        %jW = arith.subi %jlo, %c1 : index
        %jp1 = arith.addi %j, %c1 : index
        %jE = arith.minsi %jp1, %clast : index
        %sC = soac.index %s[%i, %j] : tensor<?x?xf32>
        %sN = soac.index %s[%iN, %j] : tensor<?x?xf32>
        %sS = soac.index %s[%iS, %j] : tensor<?x?xf32>
        %sW = soac.index %s[%i, %jW] : tensor<?x?xf32>
        %sE = soac.index %s[%i, %jE] : tensor<?x?xf32>
        %hN = soac.index %h[%iN, %j] : tensor<?x?xf32>
        %hS = soac.index %h[%iS, %j] : tensor<?x?xf32>
        %hW = soac.index %h[%i, %jW] : tensor<?x?xf32>
        %hE = soac.index %h[%i, %jE] : tensor<?x?xf32>
        %hx = soac.index %h[%i, %j] : tensor<?x?xf32>
        %vx = soac.index %v[%i, %j] : tensor<?x?xf32>
        %eN = arith.addf %hN, %sN : f32
        %eS = arith.addf %hS, %sS : f32
        %eW = arith.addf %hW, %sW : f32
        %eE = arith.addf %hE, %sE : f32
        %ns = arith.addf %sN, %sS : f32
        %we = arith.addf %sW, %sE : f32
        %sum4 = arith.addf %ns, %we : f32
        %mean = arith.mulf %sum4, %quarter : f32
        %lap = arith.subf %mean, %sC : f32
        %diff = arith.mulf %k_sdiff, %lap : f32
        %gy = arith.subf %eS, %eN : f32
        %gx = arith.subf %eE, %eW : f32
        %gy2 = arith.mulf %gy, %gy : f32
        %gx2 = arith.mulf %gx, %gx : f32
        %g2 = arith.addf %gx2, %gy2 : f32
        %g = math.sqrt %g2 : f32
        %grad = arith.mulf %g, %half : f32
        %bare = arith.subf %one, %vx : f32
        %hb = arith.mulf %hx, %bare : f32
        %hbg = arith.mulf %hb, %grad : f32
        %erosion = arith.mulf %k_erode, %hbg : f32
        %hv = arith.mulf %hx, %vx : f32
        %trap = arith.mulf %k_trap, %hv : f32
        %a1 = arith.addf %sC, %diff : f32
        %a2 = arith.subf %a1, %erosion : f32
        %a3 = arith.addf %a2, %trap : f32
        %lo = arith.maximumf %a3, %zero : f32
        %hi = arith.minimumf %lo, %one : f32
        soac.yield %hi : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    // vegetation
    %vn = soac.map(%ir) : (tensor<?xindex>) -> tensor<?x?xf32> {
    ^bb0(%i: index):
      %ilo = arith.maxsi %i, %c1 : index
      %iN = arith.subi %ilo, %c1 : index
      %ip1 = arith.addi %i, %c1 : index
      %iS = arith.minsi %ip1, %rlast : index
      %row = soac.map(%ic) : (tensor<?xindex>) -> tensor<?xf32> {
      ^bb1(%j: index):
        %jlo = arith.maxsi %j, %c1 : index
        %jW = arith.subi %jlo, %c1 : index
        %jp1 = arith.addi %j, %c1 : index
        %jE = arith.minsi %jp1, %clast : index
        %vC = soac.index %v[%i, %j] : tensor<?x?xf32>
        %vN = soac.index %v[%iN, %j] : tensor<?x?xf32>
        %vS = soac.index %v[%iS, %j] : tensor<?x?xf32>
        %vW = soac.index %v[%i, %jW] : tensor<?x?xf32>
        %vE = soac.index %v[%i, %jE] : tensor<?x?xf32>
        %hx = soac.index %h[%i, %j] : tensor<?x?xf32>
        %ns = arith.addf %vN, %vS : f32
        %we = arith.addf %vW, %vE : f32
        %sum4 = arith.addf %ns, %we : f32
        %mean = arith.mulf %sum4, %quarter : f32
        %lap = arith.subf %mean, %vC : f32
        %spread = arith.mulf %k_vdiff, %lap : f32
        %free = arith.subf %one, %vC : f32
        %vf = arith.mulf %vC, %free : f32
        %growth = arith.mulf %k_grow, %vf : f32
        %hh = arith.mulf %hx, %hx : f32
        %vhh = arith.mulf %vC, %hh : f32
        %drown = arith.mulf %k_drown, %vhh : f32
        %a1 = arith.addf %vC, %spread : f32
        %a2 = arith.addf %a1, %growth : f32
        %a3 = arith.subf %a2, %drown : f32
        %lo = arith.maximumf %a3, %zero : f32
        %hi = arith.minimumf %lo, %one : f32
        soac.yield %hi : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    scf.yield %hn, %sn, %vn : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
  }
  // the total sediment
  %rowsums = soac.map(%sT) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %r = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %x = arith.addf %a, %b : f32
      soac.yield %x : f32
    }
    soac.yield %r : f32
  }
  %total = soac.reduce(%rowsums) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %x = arith.addf %a, %b : f32
    soac.yield %x : f32
  }
  func.return %hT, %sT, %vT, %total : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, f32
}
