// clean: Högbom's CLEAN deconvolution in one dimension. Repeatedly find the largest
// residual (by magnitude), subtract a scaled copy of the beam centred there, and add the
// subtracted amount to the model at that position, until the peak is below a threshold
// or maxit iterations have run.
//
//   entry main [n][w] (dirty: [n]f32) (beam: [w]f32) (gain: f32) (threshold: f32) (maxit: i64) =
//     let h = w / 2
//     let r0 = replicate (n + w - 1) 0 with [h:n] = dirty      -- padded residual
//     let (r, model, it) =
//       loop (r, model, it) = (r0, replicate n 0, 0)
//       let (peak, pos) = argmax_abs r[h:n]         -- the value, signed, and its position
//       while it < maxit && |peak| > threshold do
//         let amount = gain * peak
//         let r' = r with [pos:w] = map2 (\x b -> x - amount * b) r[pos:w] beam
//         let model' = model with [pos] = model[pos] + amount
//         in (r', model', it + 1)
//     in (r[h:n], model, it)
//
// Every position the loop uses (pos, the window's offset, the model element written)
// comes from a reduction: reduce-device-syncs keeps them all on the device (a slice at
// a device offset and element writes at a device index, issue 18 item 6), so the loop
// reads only its condition and a task graph runs it whole on the device.
func.func @main(%dirty: tensor<?xf32>, %beam: tensor<?xf32>, %gain: f32, %threshold: f32, %maxit64: i64)
    -> (tensor<?xf32>, tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %fzero = arith.constant 0.0 : f32
  %none = arith.constant -1.0 : f32
  %n = soac.size %dirty[0] : tensor<?xf32>
  %w = soac.size %beam[0] : tensor<?xf32>
  %h = arith.divui %w, %c2 : index
  %maxit = arith.index_cast %maxit64 : i64 to index

  // the residual, padded with h zeros before and w - 1 - h after: every window fits
  %nw = arith.addi %n, %w : index
  %padded = arith.subi %nw, %c1 : index
  %zeros = soac.replicate %padded, %fzero : f32 -> tensor<?xf32>
  %r0 = soac.update %zeros[%h:%n] = %dirty : tensor<?xf32>, tensor<?xf32>
  %model0 = soac.replicate %n, %fzero : f32 -> tensor<?xf32>

  %r, %model, %it, %peak, %pos = scf.while (%r1 = %r0, %m1 = %model0, %i1 = %c0)
      : (tensor<?xf32>, tensor<?xf32>, index) -> (tensor<?xf32>, tensor<?xf32>, index, f32, index) {
    // the peak: the value of largest magnitude in r[h:h+n], the first of equals (no
    // value, 0, where n is 0)
    %part = soac.slice %r1[%h:%n] : tensor<?xf32> -> tensor<?xf32>
    %ids = soac.iota %n : tensor<?xindex>
    %mags = soac.map(%part) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %m = math.absf %x : f32
      soac.yield %m : f32
    }
    %best:3 = soac.reduce(%mags, %part, %ids) neutral(%none, %fzero, %c0 : f32, f32, index) commutative
        : (tensor<?xf32>, tensor<?xf32>, tensor<?xindex>) -> (f32, f32, index) {
    ^bb1(%ma: f32, %va: f32, %ia: index, %mb: f32, %vb: f32, %ib: index):
      %gt = arith.cmpf ogt, %ma, %mb : f32
      %eq = arith.cmpf oeq, %ma, %mb : f32
      %lt = arith.cmpi ult, %ia, %ib : index
      %tie = arith.andi %eq, %lt : i1
      %first = arith.ori %gt, %tie : i1
      %m = arith.select %first, %ma, %mb : f32
      %v = arith.select %first, %va, %vb : f32
      %i = arith.select %first, %ia, %ib : index
      soac.yield %m, %v, %i : f32, f32, index
    }
    %more = arith.cmpi ult, %i1, %maxit : index
    %magnitude = math.absf %best#1 : f32
    %above = arith.cmpf ogt, %magnitude, %threshold : f32
    %go = arith.andi %more, %above : i1
    scf.condition(%go) %r1, %m1, %i1, %best#1, %best#2 : tensor<?xf32>, tensor<?xf32>, index, f32, index
  } do {
  ^bb0(%res: tensor<?xf32>, %mod: tensor<?xf32>, %i: index, %pk: f32, %p: index):
    %amount = arith.mulf %gain, %pk : f32
    // the window of the padded residual centred at p (a slice at a device offset)
    %window = soac.slice %res[%p:%w] : tensor<?xf32> -> tensor<?xf32>
    %cleaned = soac.map(%window, %beam) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %b: f32):
      %ab = arith.mulf %amount, %b : f32
      %y = arith.subf %x, %ab : f32
      soac.yield %y : f32
    }
    %res2 = soac.update %res[%p:%w] = %cleaned : tensor<?xf32>, tensor<?xf32>
    // the model gains what was subtracted (an element read and written at a device index)
    %old = soac.index %mod[%p] : tensor<?xf32>
    %new = arith.addf %old, %amount : f32
    %mod2 = soac.update %mod[%p] = %new : tensor<?xf32>, f32
    %i2 = arith.addi %i, %c1 : index
    scf.yield %res2, %mod2, %i2 : tensor<?xf32>, tensor<?xf32>, index
  }
  %residual_view = soac.slice %r[%h:%n] : tensor<?xf32> -> tensor<?xf32>
  %residual = soac.copy %residual_view : tensor<?xf32>
  func.return %residual, %model, %it : tensor<?xf32>, tensor<?xf32>, index
}
