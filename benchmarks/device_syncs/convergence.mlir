// A convergence loop whose `while` condition is a reduction: smooth a vector (keeping
// its mean, the mean of the input) until the largest change is at most eps or maxit
// sweeps are done. The condition's reduction must be read every iteration (the host
// decides whether to go on); the mean's reduction is only used by a kernel, and so
// is the input's mean, computed before the loop.
func.func @main(%v0: tensor<?xf32>, %eps: f32, %maxit: index) -> (tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %half = arith.constant 0.5 : f32
  %inf = arith.constant 0x7F800000 : f32
  %n = soac.size %v0[0] : tensor<?xf32>
  %last = arith.subi %n, %c1 : index
  %n64 = arith.index_cast %n : index to i64
  %nf = arith.sitofp %n64 : i64 to f32
  %sum0 = soac.reduce(%v0) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  %mean0 = arith.divf %sum0, %nf : f32
  %is = soac.iota %n : tensor<?xindex>
  %v, %it, %change = scf.while (%u0 = %v0, %i0 = %c0, %d0 = %inf) : (tensor<?xf32>, index, f32) -> (tensor<?xf32>, index, f32) {
    %more = arith.cmpi ult, %i0, %maxit : index
    %moving = arith.cmpf ogt, %d0, %eps : f32
    %go = arith.andi %more, %moving : i1
    scf.condition(%go) %u0, %i0, %d0 : tensor<?xf32>, index, f32
  } do {
  ^bb0(%u: tensor<?xf32>, %i: index, %d: f32):
    %w = soac.map(%is) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb1(%j: index):
      %first = arith.cmpi eq, %j, %c0 : index
      %lastp = arith.cmpi eq, %j, %last : index
      %edge = arith.ori %first, %lastp : i1
      %x = scf.if %edge -> (f32) {
        %e = soac.index %u[%j] : tensor<?xf32>
        scf.yield %e : f32
      } else {
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %a = soac.index %u[%jm] : tensor<?xf32>
        %b = soac.index %u[%j] : tensor<?xf32>
        %c = soac.index %u[%jp] : tensor<?xf32>
        %qa = arith.mulf %quarter, %a : f32
        %hb = arith.mulf %half, %b : f32
        %qc = arith.mulf %quarter, %c : f32
        %ab = arith.addf %qa, %hb : f32
        %abc = arith.addf %ab, %qc : f32
        scf.yield %abc : f32
      }
      soac.yield %x : f32
    }
    // keep the mean: shift by (mean of the input) - (mean of w)
    %s = soac.reduce(%w) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    %m = arith.divf %s, %nf : f32
    %shift = arith.subf %mean0, %m : f32
    %w2 = soac.map(%w) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.addf %x, %shift : f32
      soac.yield %y : f32
    }
    %diffs = soac.map(%w2, %u) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %y: f32):
      %df = arith.subf %x, %y : f32
      %ad = math.absf %df : f32
      soac.yield %ad : f32
    }
    %dn = soac.reduce(%diffs) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%l: f32, %r: f32):
      %t = arith.maximumf %l, %r : f32
      soac.yield %t : f32
    }
    %i1 = arith.addi %i, %c1 : index
    scf.yield %w2, %i1, %dn : tensor<?xf32>, index, f32
  }
  func.return %v, %it : tensor<?xf32>, index
}
