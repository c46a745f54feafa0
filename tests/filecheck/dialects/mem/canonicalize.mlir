// RUN: soacc-opt %s -p canonicalize | filecheck %s
//
// The mem dialect's canonicalization patterns. mem.size of a mem.view is the view's
// size: its static size (a constant), or the size operand it was made with. mem.size
// of anything else (a slice, a parameter) stays.

// CHECK-LABEL: func.func @sizes(
// CHECK-SAME:    %b: !mem.block<device>, %n: index, %m: index, %p: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>)
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %v = mem.view %b[%c0] sizes(%n, %m)
// CHECK-NEXT:    %four = arith.constant 4 : index
// CHECK-NEXT:    %s = mem.slice %v[%c0]
// CHECK-NEXT:    %sn = mem.size %s[0]
// CHECK-NEXT:    %pn = mem.size %p[0]
// CHECK-NEXT:    func.return %m, %n, %four, %sn, %pn : index, index, index, index, index
func.func @sizes(%b: !mem.block<device>, %n: index, %m: index, %p: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> (index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %v = mem.view %b[%c0] sizes(%n, %m) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %w = mem.view %b[%c0] sizes(%n) : !mem.block<device> -> memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %cols = mem.size %v[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %rows = mem.size %v[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %four = mem.size %w[1] : memref<?x4xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
  %s = mem.slice %v[%c0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %sn = mem.size %s[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  %pn = mem.size %p[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  func.return %cols, %rows, %four, %sn, %pn : index, index, index, index, index
}
