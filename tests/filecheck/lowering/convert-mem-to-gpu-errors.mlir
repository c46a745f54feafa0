// RUN: soacc-opt %s -p convert-mem-to-gpu --verify-diagnostics | filecheck %s

// A lambda that allocates (here for an array literal) cannot become a kernel until
// per-thread memory is expanded into one allocation made before the launch: the pass
// says so at the allocation.

builtin.module {
  func.func @main(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?xf32>) -> tensor<?xf32>} {
    %0 = mem.size %a_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    %1 = arith.constant 4 : index
    %2 = arith.muli %1, %0 : index
    %a_mem = mem.alloc %2 : !mem.block<device>
    %3 = arith.constant 0 : index
    %a = mem.view %a_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %4 = mem.size %a[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %5 = arith.constant 4 : index
    %6 = arith.muli %5, %4 : index
    %r_mem = mem.alloc %6 : !mem.block<device>
    %7 = arith.constant 0 : index
    %r = mem.view %r_mem[%7] sizes(%4) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%r : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%x: f32):
      %8 = arith.constant 2 : index
      %9 = arith.constant 4 : index
      %10 = arith.muli %9, %8 : index
      %pair_mem = mem.alloc %10 : !mem.block<device>
      %11 = arith.constant 0 : index
      %pair = mem.view %pair_mem[%11] : !mem.block<device> -> memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>
      mem.array [%x, %x] outs(%pair : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>)
      %c1 = arith.constant 1 : index
      %y = mem.load %pair[%c1] : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>
      mem.yield %y : f32
    }
    %12 = mem.size %r[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %13 = arith.constant 4 : index
    %14 = arith.muli %13, %12 : index
    %r_host_mem = mem.alloc %14 : !mem.block<host>
    %15 = arith.constant 0 : index
    %r_host = mem.view %r_host_mem[%15] sizes(%12) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    mem.copy %r, %r_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    func.return %r_host_mem, %r_host : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  }
}


// CHECK: convert-mem-to-gpu: mem.alloc allocates inside a kernel; per-thread memory must first be expanded into one allocation before the launch, which is not done yet
