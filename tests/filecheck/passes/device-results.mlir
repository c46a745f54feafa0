// RUN: soacc-opt %s --split-input-file -p device-results | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'device-results{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
//
// device-results: an entry point returns its arrays where they are on the device (the
// view and its block), without their downloads; soacc.compile(..., results="device").
// One chunk per case.

// Two array results and a scalar between them: both arrays stay on the device (the
// second is the argument's device copy), their host blocks, views and downloads go, and
// the function's type says device; the entry signature does not change.
// REPORT: device-results: @map_and_sum: 2 result(s) kept on the device
// CHECK-LABEL: func.func @map_and_sum
// CHECK-SAME:    -> (!mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, f32, !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>)
// CHECK-SAME:    soacc.entry_signature = (tensor<?xf32>) -> (tensor<?xf32>, f32, tensor<?xf32>)
// CHECK:         %s = mem.load %s_dev[]
// CHECK-NOT:     mem.alloc {{.*}} : !mem.block<host>
// CHECK-NOT:     mem.copy
// CHECK-NEXT:    func.return %d_mem, %d, %s, %a_mem, %a :
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

// A result a call returns: its block is the one beside it in the call's results.
// REPORT: device-results: @calls: 1 result(s) kept on the device
// CHECK-LABEL: func.func @calls
// CHECK:         %r_mem, %r = func.call @twice(%a_mem, %a)
// CHECK-NEXT:    func.return %r_mem, %r : !mem.block<device>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
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

// A copy into device memory between the download and the return: the device array
// may change after it was downloaded, so the result stays in host memory.
// REPORT: device-results: @written_after: 0 result(s) kept on the device; left %r_host: mem.copy between its download and the return may write device memory
// CHECK-LABEL: func.func @written_after
// CHECK:         mem.copy %r, %r_host
// CHECK-NEXT:    mem.copy %a_host, %r
// CHECK-NEXT:    func.return %r_host_mem, %r_host : !mem.block<host>
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
func.func @written_after(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?xf32>) -> tensor<?xf32>} {
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
  mem.copy %a_host, %r : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return %r_host_mem, %r_host : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
}
