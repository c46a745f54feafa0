// RUN: soacc-opt %s --split-input-file -p fuse-scalar-reads | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'fuse-scalar-reads{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
//
// fuse-scalar-reads: synchronous reads of device scalars side by side become one copy
// of an arena of their blocks. One chunk per case.

// A reduction of two results, both read by the host: their blocks become one arena of
// 16 bytes (8-byte slots), copied to the host once, and both values read from there.
// REPORT: fuse-scalar-reads: @min_and_max: 2 read(s) in 1 copy(ies): %lo, %hi
// CHECK-LABEL: func.func @min_and_max
// CHECK:         %reads = mem.alloc %{{.*}} : !mem.block<device>
// CHECK:         %lo_dev = mem.view %reads[
// CHECK:         %hi_dev = mem.view %reads[
// CHECK:         mem.reduce
// CHECK:         %reads_host = mem.alloc %[[T:.*]] : !mem.block<host>
// CHECK-NEXT:    %[[D:.*]] = mem.view %reads[%{{.*}}] sizes(%[[T]]) : !mem.block<device> -> memref<?xi1
// CHECK-NEXT:    %[[H:.*]] = mem.view %reads_host[%{{.*}}] sizes(%[[T]]) : !mem.block<host> -> memref<?xi1
// CHECK-NEXT:    mem.copy %[[D]], %[[H]]
// CHECK-NEXT:    %[[LO:.*]] = mem.view %reads_host
// CHECK-NEXT:    %lo = mem.load %[[LO]][] : memref<f32, strided<[], offset: ?>, #mem.space<host>>
// CHECK-NEXT:    %[[HI:.*]] = mem.view %reads_host
// CHECK-NEXT:    %hi = mem.load %[[HI]][] : memref<f32, strided<[], offset: ?>, #mem.space<host>>
// CHECK-NOT:     mem.load {{.*}}#mem.space<device>
func.func @min_and_max(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> (f32, f32, i1) attributes {soacc.entry_signature = (tensor<?xf32>) -> (f32, f32, i1)} {
  %0 = arith.constant 4 : index
  %1 = arith.constant 4 : index
  %2 = arith.constant 4 : index
  %3 = mem.size %a_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  %4 = arith.muli %3, %2 overflow<nsw> : index
  %5 = arith.constant 0 : index
  %a_mem = mem.alloc %4 : !mem.block<device>
  %a = mem.view %a_mem[%5] sizes(%3) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %lo0 = arith.constant 0x7f800000 : f32
  %hi0 = arith.constant 0xff800000 : f32
  %6 = arith.constant 0 : index
  %7 = arith.constant 0 : index
  %lo_dev_mem = mem.alloc %1 : !mem.block<device>
  %lo_dev = mem.view %lo_dev_mem[%6] : !mem.block<device> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  %hi_dev_mem = mem.alloc %0 : !mem.block<device>
  %hi_dev = mem.view %hi_dev_mem[%7] : !mem.block<device> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  mem.reduce ins(%a, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%lo0, %hi0 : f32, f32) commutative outs(%lo_dev, %hi_dev : memref<f32, strided<[], offset: ?>, #mem.space<device>>, memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%l1: f32, %h1: f32, %l2: f32, %h2: f32):
    %l = arith.minimumf %l1, %l2 : f32
    %h = arith.maximumf %h1, %h2 : f32
    mem.yield %l, %h : f32, f32
  }
  %lo = mem.load %lo_dev[] : memref<f32, strided<[], offset: ?>, #mem.space<device>>
  %hi = mem.load %hi_dev[] : memref<f32, strided<[], offset: ?>, #mem.space<device>>
  %same = arith.cmpf oeq, %lo, %hi : f32
  func.return %lo, %hi, %same : f32, f32, i1
}

// -----

// A write into device memory between the reads: they stay two reads (the second must
// see the device as it is then).
// REPORT-NOT: @written_between
// CHECK-LABEL: func.func @written_between
// CHECK-NOT:     %reads
// CHECK:         %lo = mem.load %lo_dev[]
// CHECK:         mem.store %lo, %a
// CHECK-NEXT:    %hi = mem.load %hi_dev[]
func.func @written_between(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> (f32, f32, i1) attributes {soacc.entry_signature = (tensor<?xf32>) -> (f32, f32, i1)} {
  %0 = arith.constant 4 : index
  %1 = arith.constant 4 : index
  %2 = arith.constant 4 : index
  %3 = mem.size %a_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  %4 = arith.muli %3, %2 overflow<nsw> : index
  %5 = arith.constant 0 : index
  %a_mem = mem.alloc %4 : !mem.block<device>
  %a = mem.view %a_mem[%5] sizes(%3) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %lo0 = arith.constant 0x7f800000 : f32
  %hi0 = arith.constant 0xff800000 : f32
  %6 = arith.constant 0 : index
  %7 = arith.constant 0 : index
  %lo_dev_mem = mem.alloc %1 : !mem.block<device>
  %lo_dev = mem.view %lo_dev_mem[%6] : !mem.block<device> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  %hi_dev_mem = mem.alloc %0 : !mem.block<device>
  %hi_dev = mem.view %hi_dev_mem[%7] : !mem.block<device> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  mem.reduce ins(%a, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%lo0, %hi0 : f32, f32) commutative outs(%lo_dev, %hi_dev : memref<f32, strided<[], offset: ?>, #mem.space<device>>, memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%l1: f32, %h1: f32, %l2: f32, %h2: f32):
    %l = arith.minimumf %l1, %l2 : f32
    %h = arith.maximumf %h1, %h2 : f32
    mem.yield %l, %h : f32, f32
  }
  %lo = mem.load %lo_dev[] : memref<f32, strided<[], offset: ?>, #mem.space<device>>
  %c0_w = arith.constant 0 : index
  mem.store %lo, %a[%c0_w] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %hi = mem.load %hi_dev[] : memref<f32, strided<[], offset: ?>, #mem.space<device>>
  %same = arith.cmpf oeq, %lo, %hi : f32
  func.return %lo, %hi, %same : f32, f32, i1
}
