// RUN: soacc-opt %s --split-input-file -p fuse-transfers | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'fuse-transfers{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
//
// fuse-transfers: a function's argument uploads in the messages the transfer-layout
// analysis chooses (Kessler). One chunk per case.

// Two arguments, both read by the map: one component of the affinity graph, one
// message before the map. The device blocks become parts of one arena (the second at a
// 256-byte aligned offset); at run time, up to max-bytes (1 MiB), the arguments are
// packed on the host and sent as one copy of bytes, above it each goes on its own into
// its part.
// REPORT: fuse-transfers: @two: 2 upload(s) and 1 download(s) in 2 message(s), 1 startup(s) saved
// CHECK-LABEL: func.func @two
// CHECK:         %uploads = mem.alloc %[[TOTAL:.*]] : !mem.block<device>
// CHECK:         %[[AT_A:.*]] = arith.addi
// CHECK-NEXT:    %a = mem.view %uploads[%[[AT_A]]] sizes(%{{.*}})
// CHECK:         %b = mem.view %uploads[%{{.*}}] sizes(%{{.*}})
// CHECK:         %[[SMALL:.*]] = arith.cmpi ule, %[[TOTAL]], %{{.*}} : index
// CHECK-NEXT:    scf.if %[[SMALL]] {
// CHECK-NEXT:      %uploads_host = mem.alloc %[[TOTAL]] : !mem.block<host>
// CHECK-NEXT:      %[[HA:.*]] = mem.view %uploads_host
// CHECK-NEXT:      mem.copy %a_host, %[[HA]]
// CHECK-NEXT:      %[[HB:.*]] = mem.view %uploads_host
// CHECK-NEXT:      mem.copy %b_host, %[[HB]]
// CHECK-NEXT:      %[[HBYTES:.*]] = mem.view %uploads_host[%{{.*}}] sizes(%[[TOTAL]]) : !mem.block<host> -> memref<?xi1
// CHECK-NEXT:      %[[DBYTES:.*]] = mem.view %uploads[%{{.*}}] sizes(%[[TOTAL]]) : !mem.block<device> -> memref<?xi1
// CHECK-NEXT:      mem.copy %[[HBYTES]], %[[DBYTES]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      mem.copy %a_host, %a
// CHECK-NEXT:      mem.copy %b_host, %b
// CHECK-NEXT:    }
// CHECK-NOT:     mem.alloc {{.*}}%a_mem
// CHECK:         mem.map ins(%a, %b
func.func @two(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %b_host_mem: !mem.block<host>, %b_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>} {
  %0 = mem.size %a_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  %1 = arith.constant 4 : index
  %2 = arith.muli %0, %1 overflow<nsw> : index
  %a_mem = mem.alloc %2 : !mem.block<device>
  %3 = arith.constant 0 : index
  %a = mem.view %a_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %4 = mem.size %b_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  %5 = arith.constant 4 : index
  %6 = arith.muli %4, %5 overflow<nsw> : index
  %b_mem = mem.alloc %6 : !mem.block<device>
  %7 = arith.constant 0 : index
  %b = mem.view %b_mem[%7] sizes(%4) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %b_host, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %8 = mem.size %a[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %9 = arith.constant 4 : index
  %10 = arith.muli %8, %9 overflow<nsw> : index
  %s_mem = mem.alloc %10 : !mem.block<device>
  %11 = arith.constant 0 : index
  %s = mem.view %s_mem[%11] sizes(%8) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.map ins(%a, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%s : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    mem.yield %z : f32
  }
  %12 = mem.size %s[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %13 = arith.constant 4 : index
  %14 = arith.muli %12, %13 overflow<nsw> : index
  %s_host_mem = mem.alloc %14 : !mem.block<host>
  %15 = arith.constant 0 : index
  %s_host = mem.view %s_host_mem[%15] sizes(%12) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  mem.copy %s, %s_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  func.return %s_host_mem, %s_host : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
}
// -----

// An upload of a host array nothing here writes (so not made once, by a known statement,
// before it) is left alone, and one upload alone is no message to fuse.
// REPORT: fuse-transfers: @not_an_argument: 1 upload(s) in 1 message(s), 0 startup(s) saved; left alone: %b (its host array is neither an argument nor made once by a statement here)
// CHECK-LABEL: func.func @not_an_argument
// CHECK-NOT:     scf.if
// CHECK:         mem.copy %a_host, %a
// CHECK:         mem.copy %h, %b
func.func @not_an_argument(%a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %n: index) -> () {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %bytes = arith.muli %n, %c4 : index
  %h_mem = mem.alloc %bytes : !mem.block<host>
  %h = mem.view %h_mem[%c0] sizes(%n) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  %a_mem = mem.alloc %bytes : !mem.block<device>
  %a = mem.view %a_mem[%c0] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %b_mem = mem.alloc %bytes : !mem.block<device>
  %b = mem.view %b_mem[%c0] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %h, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %a, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return
}

// -----

// An array a host kernel makes (place-kernels) and an argument, both read by one device
// kernel: the host kernel's output is uploaded once it is made, the argument any time
// before, so they share a message, sent after the host kernel (the study's upload
// interval [producer + 1, first device reader]).
// REPORT: fuse-transfers: @host_made: 2 upload(s) in 1 message(s), 1 startup(s) saved
// CHECK-LABEL: func.func @host_made
// CHECK:         %uploads = mem.alloc
// CHECK:         mem.map ins(%a_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) outs(%h : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>)
// CHECK:         scf.if
// CHECK-DAG:       mem.copy %a_host, %{{.*}} : {{.*}}#mem.space<host>>, {{.*}}#mem.space<host>>
// CHECK-DAG:       mem.copy %h, %{{.*}} : {{.*}}#mem.space<host>>, {{.*}}#mem.space<host>>
// CHECK:         } else {
// CHECK-DAG:       mem.copy %a_host, %a :
// CHECK-DAG:       mem.copy %h, %b :
// CHECK:         }
// CHECK-NEXT:    mem.map ins(%a, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%c : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>)
func.func @host_made(%a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %n: index) -> () {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %bytes = arith.muli %n, %c4 : index
  %a_mem = mem.alloc %bytes : !mem.block<device>
  %a = mem.view %a_mem[%c0] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %b_mem = mem.alloc %bytes : !mem.block<device>
  %b = mem.view %b_mem[%c0] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %h_mem = mem.alloc %bytes : !mem.block<host>
  %h = mem.view %h_mem[%c0] sizes(%n) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  mem.map ins(%a_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) outs(%h : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    mem.yield %y : f32
  }
  mem.copy %h, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %c_mem = mem.alloc %bytes : !mem.block<device>
  %c = mem.view %c_mem[%c0] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.map ins(%a, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%c : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    mem.yield %z : f32
  }
  func.return
}
