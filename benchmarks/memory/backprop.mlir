// backprop: one training step of a two-layer perceptron (futhark-benchmarks
// rodinia/backprop/backprop.fut, from Rodinia): both layers forward (a transposed
// weight matrix, row products reduced), the output and hidden errors, both weight
// adjustments (each a map of maps giving the new weights and their deltas), and the
// weights returned with their first column put back (consColumn).
//
// n_in inputs, 16 hidden units, 1 output, as in the original; the weights come in as
// arguments instead of from a Sobol sequence.
func.func @main(%input: tensor<?xf32>, %target: tensor<?xf32>, %in_w: tensor<?x16xf32>, %hid_w: tensor<17x?xf32>, %in_prev: tensor<?x16xf32>, %hid_prev: tensor<17x?xf32>)
    -> (f32, f32, tensor<?x17xf32>, tensor<17x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %eta = arith.constant 0.3 : f32
  %momentum = arith.constant 0.3 : f32
  %n_inp1 = soac.size %in_w[0] : tensor<?x16xf32>
  %n_out = soac.size %hid_w[1] : tensor<17x?xf32>

  // layer forward: hidden = squash (row0 + transpose(w[1:]) . input)
  %in_row0 = soac.index %in_w[%c0] : tensor<?x16xf32>
  %n_in = arith.subi %n_inp1, %c1 : index
  %in_rest = soac.slice %in_w[%c1:%n_in] : tensor<?x16xf32> -> tensor<?x16xf32>
  %in_t = soac.transpose %in_rest [1, 0] : tensor<?x16xf32> -> tensor<16x?xf32>
  %prods1 = soac.map(%in_t) : (tensor<16x?xf32>) -> tensor<16x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %p = soac.map(%row, %input) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%a: f32, %b: f32):
      %m = arith.mulf %a, %b : f32
      soac.yield %m : f32
    }
    soac.yield %p : tensor<?xf32>
  }
  %hidden = soac.map(%prods1, %in_row0) : (tensor<16x?xf32>, tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%row: tensor<?xf32>, %c: f32):
    %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    %x = arith.addf %s, %c : f32
    %nx = arith.negf %x : f32
    %e = math.exp %nx : f32
    %d = arith.addf %one, %e : f32
    %q = arith.divf %one, %d : f32
    soac.yield %q : f32
  }
  // the output layer: 16 hidden units to n_out outputs
  %hid_row0 = soac.index %hid_w[%c0] : tensor<17x?xf32>
  %hid_rest = soac.slice %hid_w[%c1:%c16] : tensor<17x?xf32> -> tensor<16x?xf32>
  %hid_t = soac.transpose %hid_rest [1, 0] : tensor<16x?xf32> -> tensor<?x16xf32>
  %output = soac.map(%hid_t, %hid_row0) : (tensor<?x16xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<16xf32>, %c: f32):
    %p = soac.map(%row, %hidden) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
    ^bb1(%a: f32, %b: f32):
      %m = arith.mulf %a, %b : f32
      soac.yield %m : f32
    }
    %s = soac.reduce(%p) neutral(%zero : f32) commutative : (tensor<16xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    %x = arith.addf %s, %c : f32
    %nx = arith.negf %x : f32
    %e = math.exp %nx : f32
    %d = arith.addf %one, %e : f32
    %q = arith.divf %one, %d : f32
    soac.yield %q : f32
  }
  // the output error
  %oerrs, %odelta = soac.map(%target, %output) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%t: f32, %o: f32):
    %omo = arith.subf %one, %o : f32
    %tmo = arith.subf %t, %o : f32
    %a = arith.mulf %o, %omo : f32
    %d = arith.mulf %a, %tmo : f32
    %ad = math.absf %d : f32
    soac.yield %ad, %d : f32, f32
  }
  %out_err = soac.reduce(%oerrs) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    soac.yield %t : f32
  }
  // the hidden error
  %herrs, %hdelta = soac.map(%hidden, %hid_rest) : (tensor<16xf32>, tensor<16x?xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  ^bb0(%hv: f32, %who: tensor<?xf32>):
    %p = soac.map(%odelta, %who) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%a: f32, %b: f32):
      %m = arith.mulf %a, %b : f32
      soac.yield %m : f32
    }
    %s = soac.reduce(%p) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    %omh = arith.subf %one, %hv : f32
    %a1 = arith.mulf %hv, %omh : f32
    %ne = arith.mulf %a1, %s : f32
    %ae = math.absf %ne : f32
    soac.yield %ae, %ne : f32, f32
  }
  %hid_err = soac.reduce(%herrs) neutral(%zero : f32) commutative : (tensor<16xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    soac.yield %t : f32
  }
  // adjust the hidden weights: new = w + eta*delta*ly + momentum*old, by rows (ly with a 1 first)
  %hk = soac.iota %c17 : tensor<17xindex>
  %hid_new, %hid_dw = soac.map(%hid_w, %hid_prev, %hk) : (tensor<17x?xf32>, tensor<17x?xf32>, tensor<17xindex>) -> (tensor<17x?xf32>, tensor<17x?xf32>) {
  ^bb0(%wr: tensor<?xf32>, %pr: tensor<?xf32>, %k: index):
    %first = arith.cmpi ult, %k, %c1 : index
    %lyk = scf.if %first -> (f32) {
      scf.yield %one : f32
    } else {
      %km1 = arith.subi %k, %c1 : index
      %l = soac.index %hidden[%km1] : tensor<16xf32>
      scf.yield %l : f32
    }
    %nw, %dw = soac.map(%wr, %pr, %odelta) : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
    ^bb1(%we: f32, %pe: f32, %de: f32):
      %ed = arith.mulf %eta, %de : f32
      %edl = arith.mulf %ed, %lyk : f32
      %mp = arith.mulf %momentum, %pe : f32
      %ndw = arith.addf %edl, %mp : f32
      %nwe = arith.addf %we, %ndw : f32
      soac.yield %nwe, %ndw : f32, f32
    }
    soac.yield %nw, %dw : tensor<?xf32>, tensor<?xf32>
  }
  // adjust the input weights
  %ik = soac.iota %n_inp1 : tensor<?xindex>
  %in_new, %in_dw = soac.map(%in_w, %in_prev, %ik) : (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?xindex>) -> (tensor<?x16xf32>, tensor<?x16xf32>) {
  ^bb0(%wr: tensor<16xf32>, %pr: tensor<16xf32>, %k: index):
    %first = arith.cmpi ult, %k, %c1 : index
    %lyk = scf.if %first -> (f32) {
      scf.yield %one : f32
    } else {
      %km1 = arith.subi %k, %c1 : index
      %l = soac.index %input[%km1] : tensor<?xf32>
      scf.yield %l : f32
    }
    %nw, %dw = soac.map(%wr, %pr, %hdelta) : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
    ^bb1(%we: f32, %pe: f32, %de: f32):
      %ed = arith.mulf %eta, %de : f32
      %edl = arith.mulf %ed, %lyk : f32
      %mp = arith.mulf %momentum, %pe : f32
      %ndw = arith.addf %edl, %mp : f32
      %nwe = arith.addf %we, %ndw : f32
      soac.yield %nwe, %ndw : f32, f32
    }
    soac.yield %nw, %dw : tensor<16xf32>, tensor<16xf32>
  }
  // consColumn: each row of the input weights with its first column put back
  %in_cons = soac.map(%in_new) : (tensor<?x16xf32>) -> tensor<?x17xf32> {
  ^bb0(%row: tensor<16xf32>):
    %c = soac.index %row[%c0] : tensor<16xf32>
    %head = soac.array [%c] : tensor<1xf32>
    %r = soac.concat %head, %row : (tensor<1xf32>, tensor<16xf32>) -> tensor<17xf32>
    soac.yield %r : tensor<17xf32>
  }
  func.return %out_err, %hid_err, %in_cons, %hid_new : f32, f32, tensor<?x17xf32>, tensor<17x?xf32>
}
