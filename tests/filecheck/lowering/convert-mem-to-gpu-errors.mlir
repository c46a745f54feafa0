// RUN: soacc-opt %s -p convert-mem-to-gpu --verify-diagnostics | filecheck %s

// Each thread of a kernel gets its arrays from one scratch buffer allocated before the
// launch, so their sizes must be known on the host: an array whose size a thread
// computes from its row (here from the element %x) is reported at the allocation.

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
      %k = arith.fptosi %x : f32 to i32
      %8 = arith.index_cast %k : i32 to index
      %9 = arith.constant 4 : index
      %10 = arith.muli %9, %8 : index
      %many_mem = mem.alloc %10 : !mem.block<device>
      %11 = arith.constant 0 : index
      %many = mem.view %many_mem[%11] sizes(%8) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
      mem.fill %x, %many : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
      %c0 = arith.constant 0 : index
      %y = mem.load %many[%c0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
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


// CHECK: convert-mem-to-gpu: mem.alloc allocates memory whose size depends on what a thread computes (it uses a lambda parameter); kernels can only allocate sizes known before the launch
