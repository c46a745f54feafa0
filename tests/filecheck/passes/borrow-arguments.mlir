// RUN: soacc-opt %s --split-input-file -p borrow-arguments | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'borrow-arguments{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
//
// borrow-arguments: an argument's upload whose device block nothing else writes is
// marked `borrowable` (where the caller's array is already on the GPU, the block may be
// it, and nothing is copied). One chunk per case.

// Read by a map and a reduce, and returned: only read after the upload.
// REPORT: borrow-arguments: @map_and_sum: 1 of 1 upload(s) borrowable: %a
// CHECK-LABEL: func.func @map_and_sum
// CHECK:         mem.copy %a_host, %a {borrowable}
// CHECK-NOT:     borrowable
func.func @map_and_sum(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, f32, !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?xf32>) -> (tensor<?xf32>, f32, tensor<?xf32>)} {
  %0 = mem.size %a_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  %1 = arith.constant 4 : index
  %2 = arith.muli %0, %1 overflow<nsw> : index
  %a_mem = mem.alloc %2 : !mem.block<device>
  %3 = arith.constant 0 : index
  %a = mem.view %a_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %4 = mem.size %a[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %5 = arith.constant 4 : index
  %6 = arith.muli %4, %5 overflow<nsw> : index
  %d_mem = mem.alloc %6 : !mem.block<device>
  %7 = arith.constant 0 : index
  %d = mem.view %d_mem[%7] sizes(%4) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%d : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    mem.yield %y : f32
  }
  %z = arith.constant 0.000000e+00 : f32
  %8 = arith.constant 4 : index
  %s_dev_mem = mem.alloc %8 : !mem.block<device>
  %9 = arith.constant 0 : index
  %s_dev = mem.view %s_dev_mem[%9] : !mem.block<device> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : f32) outs(%s_dev : memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    mem.yield %r : f32
  }
  %s = mem.load %s_dev[] : memref<f32, strided<[], offset: ?>, #mem.space<device>>
  %10 = mem.size %d[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %11 = arith.constant 4 : index
  %12 = arith.muli %10, %11 overflow<nsw> : index
  %d_host_mem = mem.alloc %12 : !mem.block<host>
  %13 = arith.constant 0 : index
  %d_host = mem.view %d_host_mem[%13] sizes(%10) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  mem.copy %d, %d_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  %14 = mem.size %a[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %15 = arith.constant 4 : index
  %16 = arith.muli %14, %15 overflow<nsw> : index
  %a_host_mem_1 = mem.alloc %16 : !mem.block<host>
  %17 = arith.constant 0 : index
  %a_host_1 = mem.view %a_host_mem_1[%17] sizes(%14) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  mem.copy %a, %a_host_1 : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  func.return %d_host_mem, %d_host, %s, %a_host_mem_1, %a_host_1 : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, f32, !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
}

// -----

// Updated in place: the block is written after the upload, so it stays a copy (the
// caller's array must not change).
// REPORT: borrow-arguments: @updates: 0 of 1 upload(s) borrowable; not: %a (its device block is written after the upload, or may be (mem.store))
// CHECK-LABEL: func.func @updates
// CHECK-NOT:     borrowable
func.func @updates(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %x: f32) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?xf32>, f32) -> tensor<?xf32>} {
  %0 = mem.size %a_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  %1 = arith.constant 4 : index
  %2 = arith.muli %0, %1 overflow<nsw> : index
  %a_mem = mem.alloc %2 : !mem.block<device>
  %3 = arith.constant 0 : index
  %a = mem.view %a_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %c0 = arith.constant 0 : index
  mem.store %x, %a[%c0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %4 = mem.size %a[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %5 = arith.constant 4 : index
  %6 = arith.muli %4, %5 overflow<nsw> : index
  %b_host_mem = mem.alloc %6 : !mem.block<host>
  %7 = arith.constant 0 : index
  %b_host = mem.view %b_host_mem[%7] sizes(%4) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  mem.copy %a, %b_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  func.return %b_host_mem, %b_host : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
}

// -----

// Given to a call whose callee only reads it: the callee is asked (its body, the same
// way, recursively), and the upload is marked.
// REPORT: borrow-arguments: @calls: 1 of 1 upload(s) borrowable: %a
// CHECK-LABEL: func.func @calls
// CHECK:         mem.copy %a_host, %a {borrowable}
func.func private @twice(%a_mem: !mem.block<device>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %0 = mem.size %a[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %1 = arith.constant 4 : index
  %2 = arith.muli %0, %1 overflow<nsw> : index
  %d_mem = mem.alloc %2 : !mem.block<device>
  %3 = arith.constant 0 : index
  %d = mem.view %d_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%d : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    mem.yield %y : f32
  }
  func.return %d_mem, %d : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
}
func.func @calls(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?xf32>) -> tensor<?xf32>} {
  %0 = mem.size %a_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  %1 = arith.constant 4 : index
  %2 = arith.muli %0, %1 overflow<nsw> : index
  %a_mem = mem.alloc %2 : !mem.block<device>
  %3 = arith.constant 0 : index
  %a = mem.view %a_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %r_mem, %r = func.call @twice(%a_mem, %a) : (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>)
  %4 = mem.size %r[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %5 = arith.constant 4 : index
  %6 = arith.muli %4, %5 overflow<nsw> : index
  %r_host_mem = mem.alloc %6 : !mem.block<host>
  %7 = arith.constant 0 : index
  %r_host = mem.view %r_host_mem[%7] sizes(%4) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  mem.copy %r, %r_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  func.return %r_host_mem, %r_host : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
}

// -----

// Given to a call whose callee writes into it: left a copy (the caller's array must
// not change).
// REPORT: borrow-arguments: @calls_a_writer: 0 of 1 upload(s) borrowable; not: %a (its device block is written after the upload, or may be (func.call (effects unknown)))
// CHECK-LABEL: func.func @calls_a_writer
// CHECK:         mem.copy %a_host, %a :
func.func private @overwrites(%a_mem: !mem.block<device>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %0 = mem.size %a[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %z = arith.constant 0.0 : f32
  %c0_z = arith.constant 0 : index
  mem.store %z, %a[%c0_z] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %1 = arith.constant 4 : index
  %2 = arith.muli %0, %1 overflow<nsw> : index
  %d_mem = mem.alloc %2 : !mem.block<device>
  %3 = arith.constant 0 : index
  %d = mem.view %d_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%d : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    mem.yield %y : f32
  }
  func.return %d_mem, %d : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
}
func.func @calls_a_writer(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?xf32>) -> tensor<?xf32>} {
  %0 = mem.size %a_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  %1 = arith.constant 4 : index
  %2 = arith.muli %0, %1 overflow<nsw> : index
  %a_mem = mem.alloc %2 : !mem.block<device>
  %3 = arith.constant 0 : index
  %a = mem.view %a_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %r_mem, %r = func.call @overwrites(%a_mem, %a) : (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>)
  %4 = mem.size %r[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %5 = arith.constant 4 : index
  %6 = arith.muli %4, %5 overflow<nsw> : index
  %r_host_mem = mem.alloc %6 : !mem.block<host>
  %7 = arith.constant 0 : index
  %r_host = mem.view %r_host_mem[%7] sizes(%4) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  mem.copy %r, %r_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  func.return %r_host_mem, %r_host : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
}
