// keys (futhark-benchmarks jgf/crypt/keys.fut): the IDEA encryption and decryption keys of
// each user key. Wholly sequential host code over 16-bit key words (held in i64): reads
// of key words, scalar arithmetic, writes of key words, and the modular inverse's while
// loop. Every read and write is synchronous before reduce-device-syncs; after it the reads
// and the arithmetic (inverses included: @inv is inlined into the gpu_bodies) run on the
// device and the writes are one-element copies there.

// The multiplicative inverse of a modulo 0x10001 (a function without arrays: its calls
// may move to the device).
func.func private @inv(%a0: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %m16 = arith.constant 65535 : i64
  %m32 = arith.constant 4294967295 : i64
  %modulus = arith.constant 65537 : i64
  %a1 = arith.andi %a0, %m16 : i64
  %r:4 = scf.while (%a = %a1, %b = %modulus, %u = %zero, %v = %one) : (i64, i64, i64, i64) -> (i64, i64, i64, i64) {
    %go = arith.cmpi sgt, %a, %zero : i64
    scf.condition(%go) %a, %b, %u, %v : i64, i64, i64, i64
  } do {
  ^bb0(%aa: i64, %bb: i64, %uu: i64, %vv: i64):
    %bm = arith.andi %bb, %m32 : i64
    %am = arith.andi %aa, %m16 : i64
    %q = arith.divui %bm, %am : i64
    %rr = arith.remui %bm, %am : i64
    %qv = arith.muli %q, %vv : i64
    %nv = arith.subi %uu, %qv : i64
    scf.yield %rr, %aa, %vv, %nv : i64, i64, i64, i64
  }
  %neg = arith.cmpi slt, %r#2, %zero : i64
  %up = arith.addi %r#2, %modulus : i64
  %u2 = arith.select %neg, %up, %r#2 : i64
  %res = arith.andi %u2, %m16 : i64
  func.return %res : i64
}

func.func private @encryption_key(%userkey: tensor<8xi64>) -> tensor<52xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c14 = arith.constant 14 : index
  %c15 = arith.constant 15 : index
  %c52 = arith.constant 52 : index
  %zero = arith.constant 0 : i64
  %m16 = arith.constant 65535 : i64
  %s9 = arith.constant 9 : i64
  %s7 = arith.constant 7 : i64
  %z0 = soac.replicate %c52, %zero : i64 -> tensor<52xi64>
  // the first eight subkeys are the user key itself
  %z1 = scf.for %i = %c0 to %c8 step %c1 iter_args(%z = %z0) -> (tensor<52xi64>) {
    %u = soac.index %userkey[%i] : tensor<8xi64>
    %um = arith.andi %u, %m16 : i64
    %zz = soac.update %z[%i] = %um : tensor<52xi64>, i64
    scf.yield %zz : tensor<52xi64>
  }
  // each later one takes 16 bits 25 bits to the right of the subkey eight places before
  %z2 = scf.for %i = %c8 to %c52 step %c1 iter_args(%z = %z1) -> (tensor<52xi64>) {
    %j = arith.remui %i, %c8 : index
    %i7 = arith.subi %i, %c7 : index
    %i6 = arith.subi %i, %c6 : index
    %i14 = arith.subi %i, %c14 : index
    %i15 = arith.subi %i, %c15 : index
    %lt6 = arith.cmpi ult, %j, %c6 : index
    %v = scf.if %lt6 -> (i64) {
      %a = soac.index %z[%i7] : tensor<52xi64>
      %b = soac.index %z[%i6] : tensor<52xi64>
      %as = arith.shrui %a, %s9 : i64
      %bs = arith.shli %b, %s7 : i64
      %bm = arith.andi %bs, %m16 : i64
      %w = arith.ori %as, %bm : i64
      scf.yield %w : i64
    } else {
      %eq6 = arith.cmpi eq, %j, %c6 : index
      %w = scf.if %eq6 -> (i64) {
        %a = soac.index %z[%i7] : tensor<52xi64>
        %b = soac.index %z[%i14] : tensor<52xi64>
        %as = arith.shrui %a, %s9 : i64
        %bs = arith.shli %b, %s7 : i64
        %bm = arith.andi %bs, %m16 : i64
        %x = arith.ori %as, %bm : i64
        scf.yield %x : i64
      } else {
        %a = soac.index %z[%i15] : tensor<52xi64>
        %b = soac.index %z[%i14] : tensor<52xi64>
        %as = arith.shrui %a, %s9 : i64
        %bs = arith.shli %b, %s7 : i64
        %bm = arith.andi %bs, %m16 : i64
        %x = arith.ori %as, %bm : i64
        scf.yield %x : i64
      }
      scf.yield %w : i64
    }
    %zz = soac.update %z[%i] = %v : tensor<52xi64>, i64
    scf.yield %zz : tensor<52xi64>
  }
  func.return %z2 : tensor<52xi64>
}

func.func private @decryption_key(%z: tensor<52xi64>) -> tensor<52xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c46 = arith.constant 46 : index
  %c47 = arith.constant 47 : index
  %c48 = arith.constant 48 : index
  %c49 = arith.constant 49 : index
  %c50 = arith.constant 50 : index
  %c51 = arith.constant 51 : index
  %c52 = arith.constant 52 : index
  %zero = arith.constant 0 : i64
  %m16 = arith.constant 65535 : i64
  %dk0 = soac.replicate %c52, %zero : i64 -> tensor<52xi64>
  %z0 = soac.index %z[%c0] : tensor<52xi64>
  %z1 = soac.index %z[%c1] : tensor<52xi64>
  %z2 = soac.index %z[%c2] : tensor<52xi64>
  %z3 = soac.index %z[%c3] : tensor<52xi64>
  %t1 = func.call @inv(%z0) : (i64) -> i64
  %n1 = arith.subi %zero, %z1 : i64
  %t2 = arith.andi %n1, %m16 : i64
  %n2 = arith.subi %zero, %z2 : i64
  %t3 = arith.andi %n2, %m16 : i64
  %i3 = func.call @inv(%z3) : (i64) -> i64
  %dk1 = soac.update %dk0[%c51] = %i3 : tensor<52xi64>, i64
  %dk2 = soac.update %dk1[%c50] = %t3 : tensor<52xi64>, i64
  %dk3 = soac.update %dk2[%c49] = %t2 : tensor<52xi64>, i64
  %dk4 = soac.update %dk3[%c48] = %t1 : tensor<52xi64>, i64
  %dk5 = scf.for %i = %c0 to %c7 step %c1 iter_args(%dk = %dk4) -> (tensor<52xi64>) {
    %i6 = arith.muli %i, %c6 : index
    %kb = arith.addi %i6, %c4 : index
    %jb = arith.subi %c47, %i6 : index
    %kb1 = arith.addi %kb, %c1 : index
    %kb2 = arith.addi %kb, %c2 : index
    %kb3 = arith.addi %kb, %c3 : index
    %kb4 = arith.addi %kb, %c4 : index
    %kb5 = arith.addi %kb, %c5 : index
    %jb1 = arith.subi %jb, %c1 : index
    %jb2 = arith.subi %jb, %c2 : index
    %jb3 = arith.subi %jb, %c3 : index
    %jb4 = arith.subi %jb, %c4 : index
    %jb5 = arith.subi %jb, %c5 : index
    %k0 = soac.index %z[%kb] : tensor<52xi64>
    %k1 = soac.index %z[%kb1] : tensor<52xi64>
    %d1 = soac.update %dk[%jb] = %k1 : tensor<52xi64>, i64
    %d2 = soac.update %d1[%jb1] = %k0 : tensor<52xi64>, i64
    %k2 = soac.index %z[%kb2] : tensor<52xi64>
    %u1 = func.call @inv(%k2) : (i64) -> i64
    %k3 = soac.index %z[%kb3] : tensor<52xi64>
    %m3 = arith.subi %zero, %k3 : i64
    %u2 = arith.andi %m3, %m16 : i64
    %k4 = soac.index %z[%kb4] : tensor<52xi64>
    %m4 = arith.subi %zero, %k4 : i64
    %u3 = arith.andi %m4, %m16 : i64
    %k5 = soac.index %z[%kb5] : tensor<52xi64>
    %u5 = func.call @inv(%k5) : (i64) -> i64
    %d3 = soac.update %d2[%jb2] = %u5 : tensor<52xi64>, i64
    %d4 = soac.update %d3[%jb3] = %u2 : tensor<52xi64>, i64
    %d5 = soac.update %d4[%jb4] = %u3 : tensor<52xi64>, i64
    %d6 = soac.update %d5[%jb5] = %u1 : tensor<52xi64>, i64
    scf.yield %d6 : tensor<52xi64>
  }
  // the last group (kb = 46, jb = 5) swaps t2 and t3
  %y0 = soac.index %z[%c46] : tensor<52xi64>
  %y1 = soac.index %z[%c47] : tensor<52xi64>
  %e1 = soac.update %dk5[%c5] = %y1 : tensor<52xi64>, i64
  %e2 = soac.update %e1[%c4] = %y0 : tensor<52xi64>, i64
  %y2 = soac.index %z[%c48] : tensor<52xi64>
  %v1 = func.call @inv(%y2) : (i64) -> i64
  %y3 = soac.index %z[%c49] : tensor<52xi64>
  %p3 = arith.subi %zero, %y3 : i64
  %v2 = arith.andi %p3, %m16 : i64
  %y4 = soac.index %z[%c50] : tensor<52xi64>
  %p4 = arith.subi %zero, %y4 : i64
  %v3 = arith.andi %p4, %m16 : i64
  %y5 = soac.index %z[%c51] : tensor<52xi64>
  %v5 = func.call @inv(%y5) : (i64) -> i64
  %e3 = soac.update %e2[%c3] = %v5 : tensor<52xi64>, i64
  %e4 = soac.update %e3[%c2] = %v3 : tensor<52xi64>, i64
  %e5 = soac.update %e4[%c1] = %v2 : tensor<52xi64>, i64
  %e6 = soac.update %e5[%c0] = %v1 : tensor<52xi64>, i64
  func.return %e6 : tensor<52xi64>
}

func.func @main(%userkeys: tensor<?x8xi64>) -> (tensor<?x52xi64>, tensor<?x52xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %n = soac.size %userkeys[0] : tensor<?x8xi64>
  %c52 = arith.constant 52 : index
  %zrow = soac.replicate %c52, %zero : i64 -> tensor<52xi64>
  %zs0 = soac.replicate %n, %zrow : tensor<52xi64> -> tensor<?x52xi64>
  %dks0 = soac.replicate %n, %zrow : tensor<52xi64> -> tensor<?x52xi64>
  %zs, %dks = scf.for %r = %c0 to %n step %c1 iter_args(%za = %zs0, %da = %dks0) -> (tensor<?x52xi64>, tensor<?x52xi64>) {
    %uk = soac.index %userkeys[%r] : tensor<?x8xi64>
    %z = func.call @encryption_key(%uk) : (tensor<8xi64>) -> tensor<52xi64>
    %dk = func.call @decryption_key(%z) : (tensor<52xi64>) -> tensor<52xi64>
    %za2 = soac.update %za[%r] = %z : tensor<?x52xi64>, tensor<52xi64>
    %da2 = soac.update %da[%r] = %dk : tensor<?x52xi64>, tensor<52xi64>
    scf.yield %za2, %da2 : tensor<?x52xi64>, tensor<?x52xi64>
  }
  func.return %zs, %dks : tensor<?x52xi64>, tensor<?x52xi64>
}
