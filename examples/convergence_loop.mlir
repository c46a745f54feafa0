// convergence_loop: smooth a vector until it stops changing (the loop shapes of
// seed 000: a while loop whose condition reads a reduction result, a for loop
// whose trip count is read from an array, and an array literal of loop-variant
// scalars built in every iteration, as in Listing 12 `loop (A, v) ... ([1, v], v+1)`).
//
//   entry main [n] (v0: [n]f32) (cfg: [2]i64) (eps: f32) =
//     let maxit  = cfg[0]                         -- host reads of array elements
//     let sweeps = cfg[1]
//     let (v, it, change, hist) =
//       loop (v, it, change, hist) = (v0, 0, inf, replicate maxit [0, 0])
//       while it < maxit && change >= eps do      -- reads a reduction result
//         let v' = loop u = v for _ < sweeps do   -- trip count read from cfg
//                    map (\i -> if i == 0 || i == n-1 then u[i]
//                               else 0.25*u[i-1] + 0.5*u[i] + 0.25*u[i+1]) (iota n)
//         let change' = reduce f32.max 0 (map2 (\a b -> |a - b|) v' v)
//         let hist'   = hist with [it] = [f32.i64 it, change']   -- array literal
//         in (v', it + 1, change', hist')
//     in (v, it, change, hist)
//
// The end points are fixed, so the iteration converges to the straight line
// between them. hist records (iteration, max change) per outer iteration; the rows
// of iterations not done stay [0, 0].
func.func @main(%v0: tensor<?xf32>, %cfg: tensor<2xi64>, %eps: f32)
    -> (tensor<?xf32>, index, f32, tensor<?x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %fzero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %half = arith.constant 0.5 : f32
  %inf = arith.constant 0x7F800000 : f32
  %n = soac.size %v0[0] : tensor<?xf32>
  %last = arith.subi %n, %c1 : index

  // Configuration: two synchronous reads of array elements at host level.
  %maxit64 = soac.index %cfg[%c0] : tensor<2xi64>
  %sweeps64 = soac.index %cfg[%c1] : tensor<2xi64>
  %maxit = arith.index_cast %maxit64 : i64 to index
  %sweeps = arith.index_cast %sweeps64 : i64 to index

  // History of (iteration, change), one row per possible outer iteration.
  %zrow = soac.replicate %c2, %fzero : f32 -> tensor<2xf32>
  %hist0 = soac.replicate %maxit, %zrow : tensor<2xf32> -> tensor<?x2xf32>

  %v, %it, %change, %hist = scf.while (%u0 = %v0, %i0 = %c0, %d0 = %inf, %h0 = %hist0)
      : (tensor<?xf32>, index, f32, tensor<?x2xf32>) -> (tensor<?xf32>, index, f32, tensor<?x2xf32>) {
    // Continue while it < maxit and change >= eps: the condition reads the
    // reduction result of the previous iteration.
    %more = arith.cmpi ult, %i0, %maxit : index
    %moving = arith.cmpf oge, %d0, %eps : f32
    %go = arith.andi %more, %moving : i1
    scf.condition(%go) %u0, %i0, %d0, %h0 : tensor<?xf32>, index, f32, tensor<?x2xf32>
  } do {
  ^bb0(%u: tensor<?xf32>, %i: index, %d: f32, %h: tensor<?x2xf32>):
    // `sweeps` Jacobi smoothing sweeps (trip count read from cfg[1]).
    %smoothed = scf.for %s = %c0 to %sweeps step %c1 iter_args(%w = %u) -> (tensor<?xf32>) {
      %is = soac.iota %n : tensor<?xindex>
      %w2 = soac.map(%is) : (tensor<?xindex>) -> tensor<?xf32> {
      ^bb1(%j: index):
        %first = arith.cmpi eq, %j, %c0 : index
        %lastp = arith.cmpi eq, %j, %last : index
        %edge = arith.ori %first, %lastp : i1
        %x = scf.if %edge -> (f32) {
          %e = soac.index %w[%j] : tensor<?xf32>
          scf.yield %e : f32
        } else {
          %jm = arith.subi %j, %c1 : index
          %jp = arith.addi %j, %c1 : index
          %a = soac.index %w[%jm] : tensor<?xf32>
          %b = soac.index %w[%j] : tensor<?xf32>
          %c = soac.index %w[%jp] : tensor<?xf32>
          %qa = arith.mulf %quarter, %a : f32
          %hb = arith.mulf %half, %b : f32
          %qc = arith.mulf %quarter, %c : f32
          %ab = arith.addf %qa, %hb : f32
          %abc = arith.addf %ab, %qc : f32
          scf.yield %abc : f32
        }
        soac.yield %x : f32
      }
      scf.yield %w2 : tensor<?xf32>
    }

    // change = max |smoothed - u|
    %diffs = soac.map(%smoothed, %u) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %y: f32):
      %df = arith.subf %x, %y : f32
      %ad = math.absf %df : f32
      soac.yield %ad : f32
    }
    %dn = soac.reduce(%diffs) neutral(%fzero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%l: f32, %r: f32):
      %m = arith.maximumf %l, %r : f32
      soac.yield %m : f32
    }

    // hist[i] = [f32(i), change]: an array literal of loop-variant scalars.
    %i64 = arith.index_cast %i : index to i64
    %if = arith.sitofp %i64 : i64 to f32
    %record = soac.array [%if, %dn] : tensor<2xf32>
    %h2 = soac.update %h[%i] = %record : tensor<?x2xf32>, tensor<2xf32>

    %i1 = arith.addi %i, %c1 : index
    scf.yield %smoothed, %i1, %dn, %h2 : tensor<?xf32>, index, f32, tensor<?x2xf32>
  }
  func.return %v, %it, %change, %hist : tensor<?xf32>, index, f32, tensor<?x2xf32>
}
