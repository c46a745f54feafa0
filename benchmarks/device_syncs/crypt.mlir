// crypt (futhark-benchmarks jgf/crypt): IDEA encryption and decryption of a text of 8-byte
// blocks (bytes and 16-bit key words held in i64; soacc has no u8 or u16). A map over the
// blocks runs the cipher's eight rounds, reading the round keys on the device; the final
// transform's four key words are read outside the map, as Futhark's compiler hoists these
// lambda-invariant reads to the host: four synchronous reads per call, eight per run (the
// study's crypt). After reduce-device-syncs the map reads them on the device: none.
func.func private @cipher_idea(%key: tensor<52xi64>, %blocks: tensor<?x8xi64>) -> tensor<?x8xi64> {
  %c48 = arith.constant 48 : index
  %c49 = arith.constant 49 : index
  %c50 = arith.constant 50 : index
  %c51 = arith.constant 51 : index
  %k48 = soac.index %key[%c48] : tensor<52xi64>
  %k49 = soac.index %key[%c49] : tensor<52xi64>
  %k50 = soac.index %key[%c50] : tensor<52xi64>
  %k51 = soac.index %key[%c51] : tensor<52xi64>
  %out = soac.map(%blocks) : (tensor<?x8xi64>) -> tensor<?x8xi64> {
  ^bb0(%block: tensor<8xi64>):
    %m8 = arith.constant 255 : i64
    %m16 = arith.constant 65535 : i64
    %mod = arith.constant 65537 : i64
    %s8 = arith.constant 8 : i64
    %i0 = arith.constant 0 : index
    %b0 = soac.index %block[%i0] : tensor<8xi64>
    %bm0 = arith.andi %b0, %m8 : i64
    %i1 = arith.constant 1 : index
    %b1 = soac.index %block[%i1] : tensor<8xi64>
    %bm1 = arith.andi %b1, %m8 : i64
    %i2 = arith.constant 2 : index
    %b2 = soac.index %block[%i2] : tensor<8xi64>
    %bm2 = arith.andi %b2, %m8 : i64
    %i3 = arith.constant 3 : index
    %b3 = soac.index %block[%i3] : tensor<8xi64>
    %bm3 = arith.andi %b3, %m8 : i64
    %i4 = arith.constant 4 : index
    %b4 = soac.index %block[%i4] : tensor<8xi64>
    %bm4 = arith.andi %b4, %m8 : i64
    %i5 = arith.constant 5 : index
    %b5 = soac.index %block[%i5] : tensor<8xi64>
    %bm5 = arith.andi %b5, %m8 : i64
    %i6 = arith.constant 6 : index
    %b6 = soac.index %block[%i6] : tensor<8xi64>
    %bm6 = arith.andi %b6, %m8 : i64
    %i7 = arith.constant 7 : index
    %b7 = soac.index %block[%i7] : tensor<8xi64>
    %bm7 = arith.andi %b7, %m8 : i64
    %hs1 = arith.shli %bm1, %s8 : i64
    %x10 = arith.ori %hs1, %bm0 : i64
    %hs2 = arith.shli %bm3, %s8 : i64
    %x20 = arith.ori %hs2, %bm2 : i64
    %hs3 = arith.shli %bm5, %s8 : i64
    %x30 = arith.ori %hs3, %bm4 : i64
    %hs4 = arith.shli %bm7, %s8 : i64
    %x40 = arith.ori %hs4, %bm6 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %r:4 = scf.for %i = %c0 to %c8 step %c1 iter_args(%x1 = %x10, %x2 = %x20, %x3 = %x30, %x4 = %x40) -> (i64, i64, i64, i64) {
      %ik = arith.muli %i, %c6 : index
      %o0 = arith.constant 0 : index
      %ki0 = arith.addi %ik, %o0 : index
      %k0 = soac.index %key[%ki0] : tensor<52xi64>
      %o1 = arith.constant 1 : index
      %ki1 = arith.addi %ik, %o1 : index
      %k1 = soac.index %key[%ki1] : tensor<52xi64>
      %o2 = arith.constant 2 : index
      %ki2 = arith.addi %ik, %o2 : index
      %k2 = soac.index %key[%ki2] : tensor<52xi64>
      %o3 = arith.constant 3 : index
      %ki3 = arith.addi %ik, %o3 : index
      %k3 = soac.index %key[%ki3] : tensor<52xi64>
      %o4 = arith.constant 4 : index
      %ki4 = arith.addi %ik, %o4 : index
      %k4 = soac.index %key[%ki4] : tensor<52xi64>
      %o5 = arith.constant 5 : index
      %ki5 = arith.addi %ik, %o5 : index
      %k5 = soac.index %key[%ki5] : tensor<52xi64>
      %y1_p = arith.muli %x1, %k0 : i64
      %y1_r = arith.remui %y1_p, %mod : i64
      %y1 = arith.andi %y1_r, %m16 : i64
      %y2_s = arith.addi %x2, %k1 : i64
      %y2 = arith.andi %y2_s, %m16 : i64
      %y3_s = arith.addi %x3, %k2 : i64
      %y3 = arith.andi %y3_s, %m16 : i64
      %y4_p = arith.muli %x4, %k3 : i64
      %y4_r = arith.remui %y4_p, %mod : i64
      %y4 = arith.andi %y4_r, %m16 : i64
      %t2a = arith.xori %y1, %y3 : i64
      %t2b_p = arith.muli %t2a, %k4 : i64
      %t2b_r = arith.remui %t2b_p, %mod : i64
      %t2b = arith.andi %t2b_r, %m16 : i64
      %x24 = arith.xori %y2, %y4 : i64
      %t1a_s = arith.addi %t2b, %x24 : i64
      %t1a = arith.andi %t1a_s, %m16 : i64
      %t1b_p = arith.muli %t1a, %k5 : i64
      %t1b_r = arith.remui %t1b_p, %mod : i64
      %t1b = arith.andi %t1b_r, %m16 : i64
      %t2c_s = arith.addi %t1b, %t2b : i64
      %t2c = arith.andi %t2c_s, %m16 : i64
      %z1 = arith.xori %y1, %t1b : i64
      %z4 = arith.xori %y4, %t2c : i64
      %t2d = arith.xori %t2c, %y2 : i64
      %z2 = arith.xori %y3, %t1b : i64
      scf.yield %z1, %z2, %t2d, %z4 : i64, i64, i64, i64
    }
    %f1_p = arith.muli %r#0, %k48 : i64
    %f1_r = arith.remui %f1_p, %mod : i64
    %f1 = arith.andi %f1_r, %m16 : i64
    %f3_s = arith.addi %r#2, %k49 : i64
    %f3 = arith.andi %f3_s, %m16 : i64
    %f2_s = arith.addi %r#1, %k50 : i64
    %f2 = arith.andi %f2_s, %m16 : i64
    %f4_p = arith.muli %r#3, %k51 : i64
    %f4_r = arith.remui %f4_p, %mod : i64
    %f4 = arith.andi %f4_r, %m16 : i64
    %f1lo = arith.andi %f1, %m8 : i64
    %f1sh = arith.shrui %f1, %s8 : i64
    %f1hi = arith.andi %f1sh, %m8 : i64
    %f3lo = arith.andi %f3, %m8 : i64
    %f3sh = arith.shrui %f3, %s8 : i64
    %f3hi = arith.andi %f3sh, %m8 : i64
    %f2lo = arith.andi %f2, %m8 : i64
    %f2sh = arith.shrui %f2, %s8 : i64
    %f2hi = arith.andi %f2sh, %m8 : i64
    %f4lo = arith.andi %f4, %m8 : i64
    %f4sh = arith.shrui %f4, %s8 : i64
    %f4hi = arith.andi %f4sh, %m8 : i64
    %row = soac.array [%f1lo, %f1hi, %f3lo, %f3hi, %f2lo, %f2hi, %f4lo, %f4hi] : tensor<8xi64>
    soac.yield %row : tensor<8xi64>
  }
  func.return %out : tensor<?x8xi64>
}

func.func @main(%z: tensor<52xi64>, %dk: tensor<52xi64>, %text: tensor<?x8xi64>) -> (tensor<?x8xi64>, tensor<?x8xi64>) {
  %enc = func.call @cipher_idea(%z, %text) : (tensor<52xi64>, tensor<?x8xi64>) -> tensor<?x8xi64>
  %dec = func.call @cipher_idea(%dk, %enc) : (tensor<52xi64>, tensor<?x8xi64>) -> tensor<?x8xi64>
  func.return %enc, %dec : tensor<?x8xi64>, tensor<?x8xi64>
}
