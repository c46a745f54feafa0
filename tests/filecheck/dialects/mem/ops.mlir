// RUN: soacc-opt %s --print-op-generic --split-input-file | soacc-opt --split-input-file | filecheck %s
// RUN: soacc-opt %s --print-op-generic --split-input-file | filecheck %s --check-prefix=CHECK-GENERIC
// RUN: xdsl-opt %s | filecheck %s

// Every mem op, attribute and type variant: custom form -> generic -> custom, the
// generic form itself, and plain xdsl-opt (the dialect is found through the entry point).

// CHECK:      builtin.module {
// CHECK-GENERIC: "builtin.module"() ({

// Memory spaces (`device 0` prints as `device`) and blocks; alloc in every space.

// CHECK-NEXT:   func.func @spaces_and_blocks(%hb: !mem.block<host>, %db: !mem.block<device>, %d0b: !mem.block<device>, %d2b: !mem.block<device 2>, %hv: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %d2v: memref<?x4xi64, strided<[?, ?], offset: ?>, #mem.space<device 2>>) -> (!mem.block<host>, !mem.block<device>, !mem.block<device 2>) {
// CHECK-NEXT:     %bytes = arith.constant 256 : index
// CHECK-NEXT:     %h = mem.alloc %bytes : !mem.block<host>
// CHECK-NEXT:     %d = mem.alloc %bytes : !mem.block<device>
// CHECK-NEXT:     %d2 = mem.alloc %bytes {tag} : !mem.block<device 2>
// CHECK-NEXT:     func.return %h, %d, %d2 : !mem.block<host>, !mem.block<device>, !mem.block<device 2>
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "spaces_and_blocks", function_type = (!mem.block<host>, !mem.block<device>, !mem.block<device>, !mem.block<device 2>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?x4xi64, strided<[?, ?], offset: ?>, #mem.space<device 2>>) -> (!mem.block<host>, !mem.block<device>, !mem.block<device 2>)}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%hb: !mem.block<host>, %db: !mem.block<device>, %d0b: !mem.block<device>, %d2b: !mem.block<device 2>, %hv: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %d2v: memref<?x4xi64, strided<[?, ?], offset: ?>, #mem.space<device 2>>):
// CHECK-GENERIC:       %h = "mem.alloc"(%bytes) : (index) -> !mem.block<host>
// CHECK-GENERIC:       %d = "mem.alloc"(%bytes) : (index) -> !mem.block<device>
// CHECK-GENERIC:       %d2 = "mem.alloc"(%bytes) {tag} : (index) -> !mem.block<device 2>
func.func @spaces_and_blocks(%hb: !mem.block<host>, %db: !mem.block<device>, %d0b: !mem.block<device 0>, %d2b: !mem.block<device 2>, %hv: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %d2v: memref<?x4xi64, strided<[?, ?], offset: ?>, #mem.space<device 2>>) -> (!mem.block<host>, !mem.block<device>, !mem.block<device 2>) {
  %bytes = arith.constant 256 : index
  %h = mem.alloc %bytes : !mem.block<host>
  %d = mem.alloc %bytes : !mem.block<device>
  %d2 = mem.alloc %bytes {tag} : !mem.block<device 2>
  func.return %h, %d, %d2 : !mem.block<host>, !mem.block<device>, !mem.block<device 2>
}

// mem.view: sizes only, no sizes, sizes and strides, 0-d views, host and device 2 views,
// and static views that exactly fit their block (the static bounds check), including
// an empty one at the block's end.

// CHECK-NEXT:   func.func @views(%blk: !mem.block<device>, %hblk: !mem.block<host>, %d2blk: !mem.block<device 2>, %off: index, %n: index, %m: index) {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %v1 = mem.view %blk[%off] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %v2 = mem.view %blk[%off] : !mem.block<device> -> memref<4x8xi32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %v3 = mem.view %blk[%off] sizes(%n, %m) strides(%c1, %n) : !mem.block<device> -> memref<?x?xf64, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %v4 = mem.view %blk[%off] sizes(%m) strides(%c1, %n, %m) : !mem.block<device> -> memref<2x?x3xi1, strided<[?, ?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %v5 = mem.view %blk[%off] : !mem.block<device> -> memref<index, strided<[], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %v6 = mem.view %blk[%off] : !mem.block<device> -> memref<i64, strided<[], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %v7 = mem.view %hblk[%off] sizes(%n) : !mem.block<host> -> memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
// CHECK-NEXT:     %v8 = mem.view %d2blk[%off] sizes(%n) : !mem.block<device 2> -> memref<?xindex, strided<[?], offset: ?>, #mem.space<device 2>>
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c64 = arith.constant 64 : index
// CHECK-NEXT:     %fit = mem.alloc %c64 : !mem.block<device>
// CHECK-NEXT:     %v9 = mem.view %fit[%c0] : !mem.block<device> -> memref<4x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %v10 = mem.view %fit[%c64] : !mem.block<device> -> memref<0x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "views", function_type = (!mem.block<device>, !mem.block<host>, !mem.block<device 2>, index, index, index) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%blk: !mem.block<device>, %hblk: !mem.block<host>, %d2blk: !mem.block<device 2>, %off: index, %n: index, %m: index):
// CHECK-GENERIC:       %v1 = "mem.view"(%blk, %off, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!mem.block<device>, index, index) -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %v2 = "mem.view"(%blk, %off) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!mem.block<device>, index) -> memref<4x8xi32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %v3 = "mem.view"(%blk, %off, %n, %m, %c1, %n) <{operandSegmentSizes = array<i32: 1, 1, 2, 2>}> : (!mem.block<device>, index, index, index, index, index) -> memref<?x?xf64, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %v4 = "mem.view"(%blk, %off, %m, %c1, %n, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 3>}> : (!mem.block<device>, index, index, index, index, index) -> memref<2x?x3xi1, strided<[?, ?, ?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %v5 = "mem.view"(%blk, %off) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!mem.block<device>, index) -> memref<index, strided<[], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %v6 = "mem.view"(%blk, %off) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!mem.block<device>, index) -> memref<i64, strided<[], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %v7 = "mem.view"(%hblk, %off, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!mem.block<host>, index, index) -> memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
// CHECK-GENERIC:       %v8 = "mem.view"(%d2blk, %off, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!mem.block<device 2>, index, index) -> memref<?xindex, strided<[?], offset: ?>, #mem.space<device 2>>
// CHECK-GENERIC:       %fit = "mem.alloc"(%c64) : (index) -> !mem.block<device>
// CHECK-GENERIC:       %v9 = "mem.view"(%fit, %c0) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!mem.block<device>, index) -> memref<4x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %v10 = "mem.view"(%fit, %c64) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!mem.block<device>, index) -> memref<0x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>
func.func @views(%blk: !mem.block<device>, %hblk: !mem.block<host>, %d2blk: !mem.block<device 2>, %off: index, %n: index, %m: index) {
  %c1 = arith.constant 1 : index
  %v1 = mem.view %blk[%off] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %v2 = mem.view %blk[%off] : !mem.block<device> -> memref<4x8xi32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %v3 = mem.view %blk[%off] sizes(%n, %m) strides(%c1, %n) : !mem.block<device> -> memref<?x?xf64, strided<[?, ?], offset: ?>, #mem.space<device>>
  %v4 = mem.view %blk[%off] sizes(%m) strides(%c1, %n, %m) : !mem.block<device> -> memref<2x?x3xi1, strided<[?, ?, ?], offset: ?>, #mem.space<device>>
  %v5 = mem.view %blk[%off] : !mem.block<device> -> memref<index, strided<[], offset: ?>, #mem.space<device>>
  %v6 = mem.view %blk[%off] : !mem.block<device> -> memref<i64, strided<[], offset: ?>, #mem.space<device>>
  %v7 = mem.view %hblk[%off] sizes(%n) : !mem.block<host> -> memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
  %v8 = mem.view %d2blk[%off] sizes(%n) : !mem.block<device 2> -> memref<?xindex, strided<[?], offset: ?>, #mem.space<device 2>>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %fit = mem.alloc %c64 : !mem.block<device>
  %v9 = mem.view %fit[%c0] : !mem.block<device> -> memref<4x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %v10 = mem.view %fit[%c64] : !mem.block<device> -> memref<0x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// mem.slice with fixed, range and strided entries (down to a 0-d view); mem.transpose
// of rank 2 and 3; mem.size.

// CHECK-NEXT:   func.func @slices_transposes_sizes(%m: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %t3: memref<2x3x4xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>, %i: index, %o: index, %c: index, %s: index) -> (index, index) {
// CHECK-NEXT:     %row = mem.slice %m[%i] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %rows = mem.slice %m[%o:%c] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %strided = mem.slice %m[%i, %o:%c:%s] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %elem = mem.slice %m[%i, %i] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %mid = mem.slice %t3[%o:%c, %i] : memref<2x3x4xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>> -> memref<?x4xi32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %tr = mem.transpose %m [1, 0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %tr3 = mem.transpose %t3 [2, 0, 1] : memref<2x3x4xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>> -> memref<4x2x3xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %n0 = mem.size %m[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %n1 = mem.size %tr3[2] : memref<4x2x3xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     func.return %n0, %n1 : index, index
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "slices_transposes_sizes", function_type = (memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<2x3x4xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>, index, index, index, index) -> (index, index)}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%m: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %t3: memref<2x3x4xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>, %i: index, %o: index, %c: index, %s: index):
// CHECK-GENERIC:       %row = "mem.slice"(%m, %i) <{kinds = array<i64: 0>}> : (memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, index) -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %rows = "mem.slice"(%m, %o, %c) <{kinds = array<i64: 1>}> : (memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, index, index) -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %strided = "mem.slice"(%m, %i, %o, %c, %s) <{kinds = array<i64: 0, 2>}> : (memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, index, index, index, index) -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %elem = "mem.slice"(%m, %i, %i) <{kinds = array<i64: 0, 0>}> : (memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, index, index) -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %mid = "mem.slice"(%t3, %o, %c, %i) <{kinds = array<i64: 1, 0>}> : (memref<2x3x4xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>, index, index, index) -> memref<?x4xi32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %tr = "mem.transpose"(%m) <{permutation = array<i64: 1, 0>}> : (memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %tr3 = "mem.transpose"(%t3) <{permutation = array<i64: 2, 0, 1>}> : (memref<2x3x4xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>) -> memref<4x2x3xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>
// CHECK-GENERIC:       %n0 = "mem.size"(%m) <{dim = 0 : i64}> : (memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) -> index
// CHECK-GENERIC:       %n1 = "mem.size"(%tr3) <{dim = 2 : i64}> : (memref<4x2x3xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>) -> index
func.func @slices_transposes_sizes(%m: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %t3: memref<2x3x4xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>, %i: index, %o: index, %c: index, %s: index) -> (index, index) {
  %row = mem.slice %m[%i] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %rows = mem.slice %m[%o:%c] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %strided = mem.slice %m[%i, %o:%c:%s] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %elem = mem.slice %m[%i, %i] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  %mid = mem.slice %t3[%o:%c, %i] : memref<2x3x4xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>> -> memref<?x4xi32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %tr = mem.transpose %m [1, 0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %tr3 = mem.transpose %t3 [2, 0, 1] : memref<2x3x4xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>> -> memref<4x2x3xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>
  %n0 = mem.size %m[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %n1 = mem.size %tr3[2] : memref<4x2x3xi32, strided<[?, ?, ?], offset: ?>, #mem.space<device>>
  func.return %n0, %n1 : index, index
}

// mem.copy in all four directions: host->device, device->host, device->device (to
// device 2), host->host; a static size matches a dynamic one.

// CHECK-NEXT:   func.func @copies(%h: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %h4: memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>, %d: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %d2: memref<4xf32, strided<[?], offset: ?>, #mem.space<device 2>>, %hm: memref<?x?xi64, strided<[?, ?], offset: ?>, #mem.space<host>>, %dm: memref<3x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     mem.copy %h, %d : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     mem.copy %d, %h4 : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>
// CHECK-NEXT:     mem.copy %d, %d2 : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device 2>>
// CHECK-NEXT:     mem.copy %h4, %h : memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
// CHECK-NEXT:     mem.copy %hm, %dm : memref<?x?xi64, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<3x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "copies", function_type = (memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device 2>>, memref<?x?xi64, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<3x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%h: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %h4: memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>, %d: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %d2: memref<4xf32, strided<[?], offset: ?>, #mem.space<device 2>>, %hm: memref<?x?xi64, strided<[?, ?], offset: ?>, #mem.space<host>>, %dm: memref<3x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.copy"(%h, %d) : (memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.copy"(%d, %h4) : (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>) -> ()
// CHECK-GENERIC:       "mem.copy"(%d, %d2) : (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device 2>>) -> ()
// CHECK-GENERIC:       "mem.copy"(%h4, %h) : (memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> ()
// CHECK-GENERIC:       "mem.copy"(%hm, %dm) : (memref<?x?xi64, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<3x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) -> ()
func.func @copies(%h: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %h4: memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>, %d: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %d2: memref<4xf32, strided<[?], offset: ?>, #mem.space<device 2>>, %hm: memref<?x?xi64, strided<[?, ?], offset: ?>, #mem.space<host>>, %dm: memref<3x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  mem.copy %h, %d : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.copy %d, %h4 : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>
  mem.copy %d, %d2 : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device 2>>
  mem.copy %h4, %h : memref<4xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  mem.copy %hm, %dm : memref<?x?xi64, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<3x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>
  func.return
}

// mem.load and mem.store, of rank 2, 0 (no indices) and 1 with an attribute.

// CHECK-NEXT:   func.func @loads_stores(%v: memref<?x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, %s: memref<i32, strided<[], offset: ?>, #mem.space<host>>, %b: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, %i: index, %j: index) -> (f64, i32) {
// CHECK-NEXT:     %x = mem.load %v[%i, %j] : memref<?x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     %y = mem.load %s[] : memref<i32, strided<[], offset: ?>, #mem.space<host>>
// CHECK-NEXT:     %p = mem.load %b[%i] {tag} : memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     mem.store %x, %v[%j, %i] : memref<?x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     mem.store %y, %s[] : memref<i32, strided<[], offset: ?>, #mem.space<host>>
// CHECK-NEXT:     mem.store %p, %b[%j] {tag} : memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     func.return %x, %y : f64, i32
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "loads_stores", function_type = (memref<?x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<i32, strided<[], offset: ?>, #mem.space<host>>, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, index, index) -> (f64, i32)}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%v: memref<?x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, %s: memref<i32, strided<[], offset: ?>, #mem.space<host>>, %b: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, %i: index, %j: index):
// CHECK-GENERIC:       %x = "mem.load"(%v, %i, %j) : (memref<?x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, index, index) -> f64
// CHECK-GENERIC:       %y = "mem.load"(%s) : (memref<i32, strided<[], offset: ?>, #mem.space<host>>) -> i32
// CHECK-GENERIC:       %p = "mem.load"(%b, %i) {tag} : (memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, index) -> i1
// CHECK-GENERIC:       "mem.store"(%x, %v, %j, %i) : (f64, memref<?x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, index, index) -> ()
// CHECK-GENERIC:       "mem.store"(%y, %s) : (i32, memref<i32, strided<[], offset: ?>, #mem.space<host>>) -> ()
// CHECK-GENERIC:       "mem.store"(%p, %b, %j) {tag} : (i1, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, index) -> ()
func.func @loads_stores(%v: memref<?x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, %s: memref<i32, strided<[], offset: ?>, #mem.space<host>>, %b: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>, %i: index, %j: index) -> (f64, i32) {
  %x = mem.load %v[%i, %j] : memref<?x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>
  %y = mem.load %s[] : memref<i32, strided<[], offset: ?>, #mem.space<host>>
  %p = mem.load %b[%i] {tag} : memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>
  mem.store %x, %v[%j, %i] : memref<?x4xf64, strided<[?, ?], offset: ?>, #mem.space<device>>
  mem.store %y, %s[] : memref<i32, strided<[], offset: ?>, #mem.space<host>>
  mem.store %p, %b[%j] {tag} : memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>
  func.return %x, %y : f64, i32
}

// mem.map with two inputs and two outputs.

// CHECK-NEXT:   func.func @map_two_inputs_two_outputs(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %sum: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %lt: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     mem.map ins(%a, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%sum, %lt : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:       %s = arith.addf %x, %y : f32
// CHECK-NEXT:       %l = arith.cmpf olt, %x, %y : f32
// CHECK-NEXT:       mem.yield %s, %l : f32, i1
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "map_two_inputs_two_outputs", function_type = (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %sum: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %lt: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.map"(%a, %b, %sum, %lt) <{operandSegmentSizes = array<i32: 2, 2>}> ({
// CHECK-GENERIC:       ^bb0(%x: f32, %y: f32):
// CHECK-GENERIC:       "mem.yield"(%s, %l) : (f32, i1) -> ()
func.func @map_two_inputs_two_outputs(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %sum: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %lt: memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%a, %b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%sum, %lt : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi1, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %l = arith.cmpf olt, %x, %y : f32
    mem.yield %s, %l : f32, i1
  }
  func.return
}

// mem.map indexed: the lambda takes the row number last; the first map has no inputs
// (its output gives the row count).

// CHECK-NEXT:   func.func @map_indexed(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %o: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     mem.map ins(:) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) indexed {
// CHECK-NEXT:     ^bb0(%i: index):
// CHECK-NEXT:       %k = arith.index_cast %i : index to i32
// CHECK-NEXT:       %f = arith.sitofp %k : i32 to f32
// CHECK-NEXT:       mem.yield %f : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) indexed {
// CHECK-NEXT:     ^bb0(%x: f32, %j: index):
// CHECK-NEXT:       mem.yield %x : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "map_indexed"
// CHECK-GENERIC:       "mem.map"(%o) <{indexed, operandSegmentSizes = array<i32: 0, 1>}> ({
// CHECK-GENERIC:       "mem.map"(%a, %o) <{indexed, operandSegmentSizes = array<i32: 1, 1>}> ({
func.func @map_indexed(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %o: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(:) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) indexed {
  ^bb0(%i: index):
    %k = arith.index_cast %i : index to i32
    %f = arith.sitofp %k : i32 to f32
    mem.yield %f : f32
  }
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%o : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) indexed {
  ^bb0(%x: f32, %j: index):
    mem.yield %x : f32
  }
  func.return
}

// mem.map with a 2-D output: the lambda gets the output row as a parameter (after the
// input rows) and yields it; the second map yields an input row (copied to the output).

// CHECK-NEXT:   func.func @map_row_output(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %scaled: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %out: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     mem.map ins(%a, %m : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%scaled, %out : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     ^bb0(%x: f32, %in_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %out_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:       %xx = arith.mulf %x, %x : f32
// CHECK-NEXT:       mem.fill %xx, %out_row : f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:       mem.yield %xx, %out_row : f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.map ins(%m : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%out : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     ^bb0(%src_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %dst_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:       mem.yield %src_row : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "map_row_output", function_type = (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %scaled: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %out: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.map"(%a, %m, %scaled, %out) <{operandSegmentSizes = array<i32: 2, 2>}> ({
// CHECK-GENERIC:       ^bb0(%x: f32, %in_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %out_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.fill"(%xx, %out_row) : (f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.yield"(%xx, %out_row) : (f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.map"(%m, %out) <{operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-GENERIC:       ^bb0(%src_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %dst_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.yield"(%src_row) : (memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
func.func @map_row_output(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %scaled: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %out: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%a, %m : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%scaled, %out : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32, %in_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %out_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
    %xx = arith.mulf %x, %x : f32
    mem.fill %xx, %out_row : f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.yield %xx, %out_row : f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
  }
  mem.map ins(%m : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%out : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  ^bb0(%src_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %dst_row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
    mem.yield %src_row : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
  }
  func.return
}

// mem.map nested in a mem.map, writing the output row.

// CHECK-NEXT:   func.func @map_of_map(%m: memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>, %k: i64, %o: memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     mem.map ins(%m : memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%o : memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     ^bb0(%r: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %or: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:       mem.map ins(%r : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>) outs(%or : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:       ^bb0(%e: i64):
// CHECK-NEXT:         %ek = arith.muli %e, %k : i64
// CHECK-NEXT:         mem.yield %ek : i64
// CHECK-NEXT:       }
// CHECK-NEXT:       mem.yield %or : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "map_of_map", function_type = (memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>, i64, memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%m: memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>, %k: i64, %o: memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.map"(%m, %o) <{operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-GENERIC:       ^bb0(%r: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %or: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.map"(%r, %or) <{operandSegmentSizes = array<i32: 1, 1>}> ({
// CHECK-GENERIC:       ^bb0(%e: i64):
// CHECK-GENERIC:       "mem.yield"(%ek) : (i64) -> ()
// CHECK-GENERIC:       "mem.yield"(%or) : (memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>) -> ()
func.func @map_of_map(%m: memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>, %k: i64, %o: memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%m : memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%o : memref<4x?xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  ^bb0(%r: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %or: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>):
    mem.map ins(%r : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>) outs(%or : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%e: i64):
      %ek = arith.muli %e, %k : i64
      mem.yield %ek : i64
    }
    mem.yield %or : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>
  }
  func.return
}

// mem.reduce without outs inside a lambda: SSA scalar results, with and without
// `commutative`, over one and two arrays.

// CHECK-NEXT:   func.func @map_of_reduce(%m: memref<?x8xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, %idx: memref<?x8xindex, strided<[?, ?], offset: ?>, #mem.space<device>>, %zero: f64, %none: index, %sums: memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>, %best: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     mem.map ins(%m, %idx : memref<?x8xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?x8xindex, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%sums, %best : memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     ^bb0(%row: memref<8xf64, strided<[?], offset: ?>, #mem.space<device>>, %irow: memref<8xindex, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:       %rs = mem.reduce ins(%row : memref<8xf64, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zero : f64) commutative -> f64 {
// CHECK-NEXT:       ^bb0(%p: f64, %q: f64):
// CHECK-NEXT:         %pq = arith.addf %p, %q : f64
// CHECK-NEXT:         mem.yield %pq : f64
// CHECK-NEXT:       }
// CHECK-NEXT:       %mv, %mi = mem.reduce ins(%row, %irow : memref<8xf64, strided<[?], offset: ?>, #mem.space<device>>, memref<8xindex, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zero, %none : f64, index) -> f64, index {
// CHECK-NEXT:       ^bb0(%v1: f64, %i1: index, %v2: f64, %i2: index):
// CHECK-NEXT:         %gt = arith.cmpf ogt, %v2, %v1 : f64
// CHECK-NEXT:         %v = arith.select %gt, %v2, %v1 : f64
// CHECK-NEXT:         %i = arith.select %gt, %i2, %i1 : index
// CHECK-NEXT:         mem.yield %v, %i : f64, index
// CHECK-NEXT:       }
// CHECK-NEXT:       mem.yield %rs, %mi : f64, index
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "map_of_reduce", function_type = (memref<?x8xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?x8xindex, strided<[?, ?], offset: ?>, #mem.space<device>>, f64, index, memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%m: memref<?x8xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, %idx: memref<?x8xindex, strided<[?, ?], offset: ?>, #mem.space<device>>, %zero: f64, %none: index, %sums: memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>, %best: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.map"(%m, %idx, %sums, %best) <{operandSegmentSizes = array<i32: 2, 2>}> ({
// CHECK-GENERIC:       ^bb0(%row: memref<8xf64, strided<[?], offset: ?>, #mem.space<device>>, %irow: memref<8xindex, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       %rs = "mem.reduce"(%row, %zero) <{commutative, operandSegmentSizes = array<i32: 1, 1, 0>}> ({
// CHECK-GENERIC:       ^bb0(%p: f64, %q: f64):
// CHECK-GENERIC:       "mem.yield"(%pq) : (f64) -> ()
// CHECK-GENERIC:       %mv, %mi = "mem.reduce"(%row, %irow, %zero, %none) <{operandSegmentSizes = array<i32: 2, 2, 0>}> ({
// CHECK-GENERIC:       ^bb0(%v1: f64, %i1: index, %v2: f64, %i2: index):
// CHECK-GENERIC:       "mem.yield"(%v, %i) : (f64, index) -> ()
// CHECK-GENERIC:       "mem.yield"(%rs, %mi) : (f64, index) -> ()
func.func @map_of_reduce(%m: memref<?x8xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, %idx: memref<?x8xindex, strided<[?, ?], offset: ?>, #mem.space<device>>, %zero: f64, %none: index, %sums: memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>, %best: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%m, %idx : memref<?x8xf64, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?x8xindex, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%sums, %best : memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%row: memref<8xf64, strided<[?], offset: ?>, #mem.space<device>>, %irow: memref<8xindex, strided<[?], offset: ?>, #mem.space<device>>):
    %rs = mem.reduce ins(%row : memref<8xf64, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zero : f64) commutative -> f64 {
    ^bb0(%p: f64, %q: f64):
      %pq = arith.addf %p, %q : f64
      mem.yield %pq : f64
    }
    %mv, %mi = mem.reduce ins(%row, %irow : memref<8xf64, strided<[?], offset: ?>, #mem.space<device>>, memref<8xindex, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zero, %none : f64, index) -> f64, index {
    ^bb0(%v1: f64, %i1: index, %v2: f64, %i2: index):
      %gt = arith.cmpf ogt, %v2, %v1 : f64
      %v = arith.select %gt, %v2, %v1 : f64
      %i = arith.select %gt, %i2, %i1 : index
      mem.yield %v, %i : f64, index
    }
    mem.yield %rs, %mi : f64, index
  }
  func.return
}

// mem.reduce with outs (0-d views), with and without `commutative`.

// CHECK-NEXT:   func.func @reduce_outs(%a: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %zi: i32, %zf: f32, %ri: memref<i32, strided<[], offset: ?>, #mem.space<device>>, %rf: memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     mem.reduce ins(%a : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zi : i32) commutative outs(%ri : memref<i32, strided<[], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     ^bb0(%x: i32, %y: i32):
// CHECK-NEXT:       %s = arith.addi %x, %y : i32
// CHECK-NEXT:       mem.yield %s : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.reduce ins(%a, %b : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zi, %zf : i32, f32) outs(%ri, %rf : memref<i32, strided<[], offset: ?>, #mem.space<device>>, memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     ^bb0(%x1: i32, %y1: f32, %x2: i32, %y2: f32):
// CHECK-NEXT:       mem.yield %x2, %y1 : i32, f32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "reduce_outs", function_type = (memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, i32, f32, memref<i32, strided<[], offset: ?>, #mem.space<device>>, memref<f32, strided<[], offset: ?>, #mem.space<device>>) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%a: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %zi: i32, %zf: f32, %ri: memref<i32, strided<[], offset: ?>, #mem.space<device>>, %rf: memref<f32, strided<[], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.reduce"(%a, %zi, %ri) <{commutative, operandSegmentSizes = array<i32: 1, 1, 1>}> ({
// CHECK-GENERIC:       ^bb0(%x: i32, %y: i32):
// CHECK-GENERIC:       "mem.yield"(%s) : (i32) -> ()
// CHECK-GENERIC:       "mem.reduce"(%a, %b, %zi, %zf, %ri, %rf) <{operandSegmentSizes = array<i32: 2, 2, 2>}> ({
// CHECK-GENERIC:       ^bb0(%x1: i32, %y1: f32, %x2: i32, %y2: f32):
// CHECK-GENERIC:       "mem.yield"(%x2, %y1) : (i32, f32) -> ()
func.func @reduce_outs(%a: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %zi: i32, %zf: f32, %ri: memref<i32, strided<[], offset: ?>, #mem.space<device>>, %rf: memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  mem.reduce ins(%a : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zi : i32) commutative outs(%ri : memref<i32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    mem.yield %s : i32
  }
  mem.reduce ins(%a, %b : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zi, %zf : i32, f32) outs(%ri, %rf : memref<i32, strided<[], offset: ?>, #mem.space<device>>, memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%x1: i32, %y1: f32, %x2: i32, %y2: f32):
    mem.yield %x2, %y1 : i32, f32
  }
  func.return
}

// mem.scan, with and without `commutative`, over one and two arrays.

// CHECK-NEXT:   func.func @scans(%a: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>, %zi: i32, %zf: f64, %pa: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %pb: memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     mem.scan ins(%a : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zi : i32) outs(%pa : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     ^bb0(%x: i32, %y: i32):
// CHECK-NEXT:       %s = arith.addi %x, %y : i32
// CHECK-NEXT:       mem.yield %s : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.scan ins(%a, %b : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zi, %zf : i32, f64) commutative outs(%pa, %pb : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     ^bb0(%x1: i32, %y1: f64, %x2: i32, %y2: f64):
// CHECK-NEXT:       %xs = arith.addi %x1, %x2 : i32
// CHECK-NEXT:       %ym = arith.maximumf %y1, %y2 : f64
// CHECK-NEXT:       mem.yield %xs, %ym : i32, f64
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "scans", function_type = (memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>, i32, f64, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%a: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>, %zi: i32, %zf: f64, %pa: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %pb: memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.scan"(%a, %zi, %pa) <{operandSegmentSizes = array<i32: 1, 1, 1>}> ({
// CHECK-GENERIC:       ^bb0(%x: i32, %y: i32):
// CHECK-GENERIC:       "mem.yield"(%s) : (i32) -> ()
// CHECK-GENERIC:       "mem.scan"(%a, %b, %zi, %zf, %pa, %pb) <{commutative, operandSegmentSizes = array<i32: 2, 2, 2>}> ({
// CHECK-GENERIC:       ^bb0(%x1: i32, %y1: f64, %x2: i32, %y2: f64):
// CHECK-GENERIC:       "mem.yield"(%xs, %ym) : (i32, f64) -> ()
func.func @scans(%a: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>, %zi: i32, %zf: f64, %pa: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %pb: memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.scan ins(%a : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zi : i32) outs(%pa : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    mem.yield %s : i32
  }
  mem.scan ins(%a, %b : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zi, %zf : i32, f64) commutative outs(%pa, %pb : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf64, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x1: i32, %y1: f64, %x2: i32, %y2: f64):
    %xs = arith.addi %x1, %x2 : i32
    %ym = arith.maximumf %y1, %y2 : f64
    mem.yield %xs, %ym : i32, f64
  }
  func.return
}

// mem.scatter (rows of rank 0 and 1, index and i32 indices) and mem.hist.

// CHECK-NEXT:   func.func @scatter_and_hist(%dest: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %mdest: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %is32: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %mvs: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %bins: memref<16xi64, strided<[?], offset: ?>, #mem.space<device>>, %is64: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %ones: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %z: i64) {
// CHECK-NEXT:     mem.scatter %dest[%is] = %vs : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     mem.scatter %mdest[%is32] = %mvs {tag} : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     mem.hist %bins[%is64], %ones neutral(%z : i64) : memref<16xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>> {
// CHECK-NEXT:     ^bb0(%x: i64, %y: i64):
// CHECK-NEXT:       %s = arith.addi %x, %y : i64
// CHECK-NEXT:       mem.yield %s : i64
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "scatter_and_hist", function_type = (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<16xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, i64) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%dest: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %mdest: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %is32: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %mvs: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %bins: memref<16xi64, strided<[?], offset: ?>, #mem.space<device>>, %is64: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %ones: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %z: i64):
// CHECK-GENERIC:       "mem.scatter"(%dest, %is, %vs) : (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.scatter"(%mdest, %is32, %mvs) {tag} : (memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.hist"(%bins, %is64, %ones, %z) ({
// CHECK-GENERIC:       ^bb0(%x: i64, %y: i64):
// CHECK-GENERIC:       "mem.yield"(%s) : (i64) -> ()
func.func @scatter_and_hist(%dest: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %is: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %vs: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %mdest: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %is32: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %mvs: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %bins: memref<16xi64, strided<[?], offset: ?>, #mem.space<device>>, %is64: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %ones: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %z: i64) {
  mem.scatter %dest[%is] = %vs : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.scatter %mdest[%is32] = %mvs {tag} : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  mem.hist %bins[%is64], %ones neutral(%z : i64) : memref<16xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%x: i64, %y: i64):
    %s = arith.addi %x, %y : i64
    mem.yield %s : i64
  }
  func.return
}

// mem.gpu_body with 0, 1 and 2 outputs, and with a row output (a 1x4 view).

// CHECK-NEXT:   func.func @gpu_bodies(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index, %r: memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>, %ri: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<1x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     mem.gpu_body outs(:) {
// CHECK-NEXT:       %x0 = mem.load %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:       mem.store %x0, %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:       mem.yield
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.gpu_body outs(%r : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:       %x1 = mem.load %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:       mem.yield %x1 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.gpu_body outs(%r, %ri : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:       %x2 = mem.load %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:       mem.yield %x2, %i : f32, index
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.gpu_body outs(%rows : memref<1x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:       mem.yield %row : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "gpu_bodies", function_type = (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index, memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, memref<1x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index, %r: memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>, %ri: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<1x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.gpu_body"() ({
// CHECK-GENERIC:       %x0 = "mem.load"(%a, %i) : (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index) -> f32
// CHECK-GENERIC:       "mem.store"(%x0, %a, %i) : (f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index) -> ()
// CHECK-GENERIC:       "mem.yield"() : () -> ()
// CHECK-GENERIC:       "mem.gpu_body"(%r) ({
// CHECK-GENERIC:       %x1 = "mem.load"(%a, %i) : (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index) -> f32
// CHECK-GENERIC:       "mem.yield"(%x1) : (f32) -> ()
// CHECK-GENERIC:       "mem.gpu_body"(%r, %ri) ({
// CHECK-GENERIC:       %x2 = "mem.load"(%a, %i) : (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index) -> f32
// CHECK-GENERIC:       "mem.yield"(%x2, %i) : (f32, index) -> ()
// CHECK-GENERIC:       "mem.gpu_body"(%rows) ({
// CHECK-GENERIC:       "mem.yield"(%row) : (memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
func.func @gpu_bodies(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index, %r: memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>, %ri: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<1x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.gpu_body outs(:) {
    %x0 = mem.load %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.store %x0, %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.yield
  }
  mem.gpu_body outs(%r : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    %x1 = mem.load %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.yield %x1 : f32
  }
  mem.gpu_body outs(%r, %ri : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>) {
    %x2 = mem.load %a[%i] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.yield %x2, %i : f32, index
  }
  mem.gpu_body outs(%rows : memref<1x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
    mem.yield %row : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
  }
  func.return
}

// mem.iota (index, i32, i64), mem.fill of a scalar and of a row, mem.array of scalars
// (device and host, static and dynamic size) and of rows.

// CHECK-NEXT:   func.func @constructors(%ix: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %i32: memref<8xi32, strided<[?], offset: ?>, #mem.space<device>>, %i64: memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>, %v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %x: f32, %y: f32, %pair: memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>, %hpair: memref<2xf32, strided<[?], offset: ?>, #mem.space<host>>, %dyn: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %mat: memref<2x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %row2: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     mem.iota outs(%ix : memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>)
// CHECK-NEXT:     mem.iota outs(%i32 : memref<8xi32, strided<[?], offset: ?>, #mem.space<device>>)
// CHECK-NEXT:     mem.iota outs(%i64 : memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>) {tag}
// CHECK-NEXT:     mem.fill %x, %v : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     mem.fill %row, %m {tag} : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     mem.array [%x, %y] outs(%pair : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>)
// CHECK-NEXT:     mem.array [%x, %y] outs(%hpair : memref<2xf32, strided<[?], offset: ?>, #mem.space<host>>)
// CHECK-NEXT:     mem.array [%y, %x, %y] outs(%dyn : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {tag}
// CHECK-NEXT:     mem.array [%row, %row2] outs(%mat : memref<2x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>)
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "constructors", function_type = (memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, memref<8xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, f32, f32, memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<2xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<2x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()}> ({
// CHECK-GENERIC-NEXT:  ^bb0(%ix: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %i32: memref<8xi32, strided<[?], offset: ?>, #mem.space<device>>, %i64: memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>, %v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %x: f32, %y: f32, %pair: memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>, %hpair: memref<2xf32, strided<[?], offset: ?>, #mem.space<host>>, %dyn: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %mat: memref<2x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %row2: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-GENERIC:       "mem.iota"(%ix) : (memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.iota"(%i32) : (memref<8xi32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.iota"(%i64) {tag} : (memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>) -> ()
// CHECK-GENERIC:       "mem.fill"(%x, %v) : (f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.fill"(%row, %m) {tag} : (memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.array"(%x, %y, %pair) : (f32, f32, memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.array"(%x, %y, %hpair) : (f32, f32, memref<2xf32, strided<[?], offset: ?>, #mem.space<host>>) -> ()
// CHECK-GENERIC:       "mem.array"(%y, %x, %y, %dyn) {tag} : (f32, f32, f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       "mem.array"(%row, %row2, %mat) : (memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<2x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) -> ()
func.func @constructors(%ix: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %i32: memref<8xi32, strided<[?], offset: ?>, #mem.space<device>>, %i64: memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>, %v: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %x: f32, %y: f32, %pair: memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>, %hpair: memref<2xf32, strided<[?], offset: ?>, #mem.space<host>>, %dyn: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %mat: memref<2x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %row2: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.iota outs(%ix : memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>)
  mem.iota outs(%i32 : memref<8xi32, strided<[?], offset: ?>, #mem.space<device>>)
  mem.iota outs(%i64 : memref<?xi64, strided<[?], offset: ?>, #mem.space<device 2>>) {tag}
  mem.fill %x, %v : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.fill %row, %m {tag} : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  mem.array [%x, %y] outs(%pair : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>)
  mem.array [%x, %y] outs(%hpair : memref<2xf32, strided<[?], offset: ?>, #mem.space<host>>)
  mem.array [%y, %x, %y] outs(%dyn : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {tag}
  mem.array [%row, %row2] outs(%mat : memref<2x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>)
  func.return
}


// The fused kernels (soac-fusion's combinators at level 2): a redomap writing its reduced
// value to a 0-d output and its mapped values to an array, one inside a map lambda with
// an SSA result, a scanomap whose map lambda builds a row output in place, a scanomap
// with a post lambda, a scatteromap and a histomap with a mapped output.

// CHECK-NEXT:   func.func @fused_kernels(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %s: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %out: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %is: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %h: memref<16xi32, strided<[?], offset: ?>, #mem.space<device>>, %sums: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:     %izero = arith.constant 0 : i32
// CHECK-NEXT:     %one = arith.constant 1 : i32
// CHECK-NEXT:     mem.redomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%s, %out : memref<f32, strided<[], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) attributes {tag} map {
// CHECK-NEXT:     ^bb0(%x: f32):
// CHECK-NEXT:       %y = arith.mulf %x, %x : f32
// CHECK-NEXT:       mem.yield %y, %y : f32, f32
// CHECK-NEXT:     } reduce(%zero : f32) commutative {
// CHECK-NEXT:     ^bb0(%l: f32, %r: f32):
// CHECK-NEXT:       %t = arith.addf %l, %r : f32
// CHECK-NEXT:       mem.yield %t : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.map ins(%m : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%sums : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK-NEXT:     ^bb0(%row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:       %rs = mem.redomap ins(%row : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) -> f32 map {
// CHECK-NEXT:       ^bb0(%x1: f32):
// CHECK-NEXT:         mem.yield %x1 : f32
// CHECK-NEXT:       } reduce(%zero : f32) commutative {
// CHECK-NEXT:       ^bb0(%l1: f32, %r1: f32):
// CHECK-NEXT:         %t1 = arith.addf %l1, %r1 : f32
// CHECK-NEXT:         mem.yield %t1 : f32
// CHECK-NEXT:       }
// CHECK-NEXT:       mem.yield %rs : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.scanomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%out, %rows : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) map {
// CHECK-NEXT:     ^bb0(%x2: f32, %row2: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:       mem.fill %x2, %row2 : f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:       mem.yield %x2, %row2 : f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
// CHECK-NEXT:     } scan(%zero : f32) {
// CHECK-NEXT:     ^bb0(%l2: f32, %r2: f32):
// CHECK-NEXT:       %t2 = arith.addf %l2, %r2 : f32
// CHECK-NEXT:       mem.yield %t2 : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.scanomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%out : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
// CHECK-NEXT:     ^bb0(%x3: f32):
// CHECK-NEXT:       mem.yield %x3, %x3 : f32, f32
// CHECK-NEXT:     } scan(%zero : f32) commutative {
// CHECK-NEXT:     ^bb0(%l3: f32, %r3: f32):
// CHECK-NEXT:       %t3 = arith.addf %l3, %r3 : f32
// CHECK-NEXT:       mem.yield %t3 : f32
// CHECK-NEXT:     } post {
// CHECK-NEXT:     ^bb0(%incl: f32, %x4: f32):
// CHECK-NEXT:       %e = arith.subf %incl, %x4 : f32
// CHECK-NEXT:       mem.yield %e : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.scatteromap %out : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> ins(%is, %a : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
// CHECK-NEXT:     ^bb0(%i: i64, %x5: f32):
// CHECK-NEXT:       mem.yield %i, %x5 : i64, f32
// CHECK-NEXT:     }
// CHECK-NEXT:     mem.histomap %h : memref<16xi32, strided<[?], offset: ?>, #mem.space<device>> ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%sums : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
// CHECK-NEXT:     ^bb0(%x6: f32):
// CHECK-NEXT:       %b = arith.fptosi %x6 : f32 to i32
// CHECK-NEXT:       mem.yield %b, %one, %x6 : i32, i32, f32
// CHECK-NEXT:     } hist(%izero : i32) {
// CHECK-NEXT:     ^bb0(%l4: i32, %r4: i32):
// CHECK-NEXT:       %t4 = arith.addi %l4, %r4 : i32
// CHECK-NEXT:       mem.yield %t4 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     func.return
// CHECK-NEXT:   }
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "fused_kernels",
// CHECK-GENERIC:     "mem.redomap"(%a, %zero, %s, %out) <{commutative = array<i1: true>, operandSegmentSizes = array<i32: 1, 1, 2, 0>}> ({
// CHECK-GENERIC:     }) {tag} : (memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, f32, memref<f32, strided<[], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> ()
// CHECK-GENERIC:       %rs = "mem.redomap"(%row, %zero) <{commutative = array<i1: true>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> ({
// CHECK-GENERIC:     "mem.scanomap"(%a, %zero, %out, %rows) <{commutative = array<i1: false>, operandSegmentSizes = array<i32: 1, 1, 2, 0>, regionSegmentSizes = array<i32: 1, 1, 0>}> ({
// CHECK-GENERIC:     "mem.scanomap"(%a, %zero, %out) <{commutative = array<i1: true>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, regionSegmentSizes = array<i32: 1, 1, 1>}> ({
// CHECK-GENERIC:     "mem.scatteromap"(%out, %is, %a) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>}> ({
// CHECK-GENERIC:     "mem.histomap"(%h, %a, %sums, %izero) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> ({
// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "indexed_fused_kernels",
// CHECK-GENERIC:     "mem.redomap"(%zero, %s, %n) <{commutative = array<i1: true>, operandSegmentSizes = array<i32: 0, 1, 1, 1>}> ({
// CHECK-GENERIC:     "mem.scanomap"(%a, %zero, %out, %n) <{commutative = array<i1: true>, operandSegmentSizes = array<i32: 1, 1, 1, 1>, regionSegmentSizes = array<i32: 1, 1, 0>}> ({
// CHECK-GENERIC:     "mem.scatteromap"(%out, %n) <{operandSegmentSizes = array<i32: 1, 0, 0, 1>}> ({
// CHECK-GENERIC:     "mem.histomap"(%h, %sums, %izero, %n) <{operandSegmentSizes = array<i32: 1, 0, 1, 1, 1>}> ({
func.func @fused_kernels(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %m: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %s: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %out: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %is: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %h: memref<16xi32, strided<[?], offset: ?>, #mem.space<device>>, %sums: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  mem.redomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%s, %out : memref<f32, strided<[], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) attributes {tag} map {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    mem.yield %y, %y : f32, f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    mem.yield %t : f32
  }
  mem.map ins(%m : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%sums : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%row: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
    %rs = mem.redomap ins(%row : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) -> f32 map {
    ^bb1(%x1: f32):
      mem.yield %x1 : f32
    } reduce(%zero : f32) commutative {
    ^bb1(%l1: f32, %r1: f32):
      %t1 = arith.addf %l1, %r1 : f32
      mem.yield %t1 : f32
    }
    mem.yield %rs : f32
  }
  mem.scanomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%out, %rows : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x2: f32, %row2: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>):
    mem.fill %x2, %row2 : f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.yield %x2, %row2 : f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
  } scan(%zero : f32) {
  ^bb0(%l2: f32, %r2: f32):
    %t2 = arith.addf %l2, %r2 : f32
    mem.yield %t2 : f32
  }
  mem.scanomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%out : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x3: f32):
    mem.yield %x3, %x3 : f32, f32
  } scan(%zero : f32) commutative {
  ^bb0(%l3: f32, %r3: f32):
    %t3 = arith.addf %l3, %r3 : f32
    mem.yield %t3 : f32
  } post {
  ^bb0(%incl: f32, %x4: f32):
    %e = arith.subf %incl, %x4 : f32
    mem.yield %e : f32
  }
  mem.scatteromap %out : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> ins(%is, %a : memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%i: i64, %x5: f32):
    mem.yield %i, %x5 : i64, f32
  }
  mem.histomap %h : memref<16xi32, strided<[?], offset: ?>, #mem.space<device>> ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%sums : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) map {
  ^bb0(%x6: f32):
    %b = arith.fptosi %x6 : f32 to i32
    mem.yield %b, %one, %x6 : i32, i32, f32
  } hist(%izero : i32) {
  ^bb0(%l4: i32, %r4: i32):
    %t4 = arith.addi %l4, %r4 : i32
    mem.yield %t4 : i32
  }
  func.return
}


// Indexed fused kernels (fuse-iota's): the map lambda takes the row number last, and
// `indexed(%n)` gives the row count, so that an op may read no array at all.

// CHECK-LABEL:  func.func @indexed_fused_kernels(%n: index, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %s: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %out: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %h: memref<16xi32, strided<[?], offset: ?>, #mem.space<device>>, %sums: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK:          mem.redomap outs(%s : memref<f32, strided<[], offset: ?>, #mem.space<device>>) indexed(%n) map {
// CHECK-NEXT:     ^bb0(%i: index):
// CHECK:          } reduce(%zero : f32) commutative {
// CHECK:          mem.scanomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%out : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) indexed(%n) map {
// CHECK-NEXT:     ^bb0(%xs: f32, %i1: index):
// CHECK:          mem.scatteromap %out : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> indexed(%n) map {
// CHECK-NEXT:     ^bb0(%i2: index):
// CHECK:          mem.histomap %h : memref<16xi32, strided<[?], offset: ?>, #mem.space<device>> outs(%sums : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) indexed(%n) map {
// CHECK-NEXT:     ^bb0(%i3: index):
// CHECK:          func.return
// CHECK-NEXT:   }
func.func @indexed_fused_kernels(%n: index, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %s: memref<f32, strided<[], offset: ?>, #mem.space<device>>, %out: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %h: memref<16xi32, strided<[?], offset: ?>, #mem.space<device>>, %sums: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  mem.redomap outs(%s : memref<f32, strided<[], offset: ?>, #mem.space<device>>) indexed(%n) map {
  ^bb0(%i: index):
    %c = arith.index_cast %i : index to i32
    %x = arith.sitofp %c : i32 to f32
    mem.yield %x : f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    mem.yield %t : f32
  }
  mem.scanomap ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%out : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) indexed(%n) map {
  ^bb0(%xs: f32, %i1: index):
    mem.yield %xs : f32
  } scan(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    mem.yield %t : f32
  }
  mem.scatteromap %out : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> indexed(%n) map {
  ^bb0(%i2: index):
    mem.yield %i2, %zero : index, f32
  }
  mem.histomap %h : memref<16xi32, strided<[?], offset: ?>, #mem.space<device>> outs(%sums : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) indexed(%n) map {
  ^bb0(%i3: index):
    mem.yield %i3, %one, %zero : index, i32, f32
  } hist(%izero : i32) {
  ^bb0(%l: i32, %r: i32):
    %t = arith.addi %l, %r : i32
    mem.yield %t : i32
  }
  func.return
}

// CHECK-NEXT: }
// CHECK-GENERIC: }) : () -> ()

