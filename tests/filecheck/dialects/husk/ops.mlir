// RUN: soacc-opt %s --print-op-generic | soacc-opt | filecheck %s
// RUN: soacc-opt %s --print-op-generic | filecheck %s --check-prefix=CHECK-GENERIC
// RUN: xdsl-opt %s | filecheck %s

// Every husk op: custom form -> generic -> custom, the generic form itself, and plain
// xdsl-opt (the dialect is found through the entry point).

// A husk that reduces one value and concatenates one array (the thesis's Listing 25:
// a map whose result is also reduced), over one partitioned source.
// CHECK:      func.func @reduce_and_concatenate(%xs: tensor<?xi32>, %m: index) -> (i32, tensor<?xi32>) {
// CHECK:        %s, %ys = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) -> (i32, tensor<?xi32>) {
// CHECK-NEXT:   ^bb0(%offset: index, %size: index, %part: tensor<?xi32>):
// CHECK:          husk.yield %r, %q : i32, tensor<?xi32>
// CHECK-NEXT:   } reduce {
// CHECK-NEXT:   ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:     %[[T:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT:     husk.yield %[[T]] : i32
// CHECK-NEXT:   }
// CHECK-GENERIC: "husk.husk"(%m, %xs, %zero) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
func.func @reduce_and_concatenate(%xs: tensor<?xi32>, %m: index) -> (i32, tensor<?xi32>) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %s, %ys = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) -> (i32, tensor<?xi32>) {
  ^bb0(%offset: index, %size: index, %part: tensor<?xi32>):
    %q = soac.map(%part) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %r = soac.reduce(%q) neutral(%zero : i32) : (tensor<?xi32>) -> i32 {
    ^bb2(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      soac.yield %t : i32
    }
    husk.yield %r, %q : i32, tensor<?xi32>
  } reduce {
  ^bb1(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    husk.yield %t : i32
  }
  func.return %s, %ys : i32, tensor<?xi32>
}

// A husk without partitions (the thesis's Nil partition): only its size, and nothing
// to reduce (an empty reduce region).
// CHECK:      func.func @no_partition(%m: index) -> tensor<?xi64> {
// CHECK-NEXT:   %zs = husk.husk size(%m) () -> (tensor<?xi64>) {
// CHECK-NEXT:   ^bb0(%o: index, %n: index):
// CHECK-NEXT:     %is = soac.iota %n : tensor<?xi64>
// CHECK-NEXT:     husk.yield %is : tensor<?xi64>
// CHECK-NEXT:   } reduce {
// CHECK-NEXT:   }
func.func @no_partition(%m: index) -> tensor<?xi64> {
  %zs = husk.husk size(%m) () -> (tensor<?xi64>) {
  ^bb0(%o: index, %n: index):
    %is = soac.iota %n : tensor<?xi64>
    husk.yield %is : tensor<?xi64>
  } reduce {
  }
  func.return %zs : tensor<?xi64>
}

// A scan husk (past the thesis): the body scans its rows, and the husk completes the
// scans across devices with the operator; it reduces nothing.
// CHECK:      func.func @scan(%xs: tensor<?xi32>, %m: index) -> tensor<?xi32> {
// CHECK:        %ys = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) scan -> (tensor<?xi32>) {
// CHECK:          husk.yield %q : tensor<?xi32>
// CHECK-NEXT:   } reduce {
// CHECK-GENERIC: "husk.husk"(%m, %xs, %zero) <{scan, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
func.func @scan(%xs: tensor<?xi32>, %m: index) -> tensor<?xi32> {
  %zero = arith.constant 0 : i32
  %ys = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) scan -> (tensor<?xi32>) {
  ^bb0(%offset: index, %size: index, %part: tensor<?xi32>):
    %q = soac.scan(%part) neutral(%zero : i32) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb2(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      soac.yield %t : i32
    }
    husk.yield %q : tensor<?xi32>
  } reduce {
  ^bb1(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    husk.yield %t : i32
  }
  func.return %ys : tensor<?xi32>
}

// A scatter husk (past the thesis): the body yields its rows' indices and values, then
// the arrays to concatenate; the husk writes the pairs into %dest (consumed).
// CHECK:      func.func @scatter(%dest: tensor<?xf32>, %xs: tensor<?xi64>, %m: index) -> (tensor<?xf32>, tensor<?xi64>) {
// CHECK-NEXT:   %r, %q = husk.husk size(%m) (%xs : tensor<?xi64>) scatter(%dest : tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>) {
// CHECK:          husk.yield %is, %vs, %part : tensor<?xi64>, tensor<?xf32>, tensor<?xi64>
// CHECK-NEXT:   } reduce {
// CHECK-NEXT:   }
// CHECK-GENERIC: "husk.husk"(%m, %xs, %dest) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}> ({
func.func @scatter(%dest: tensor<?xf32>, %xs: tensor<?xi64>, %m: index) -> (tensor<?xf32>, tensor<?xi64>) {
  %r, %q = husk.husk size(%m) (%xs : tensor<?xi64>) scatter(%dest : tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>) {
  ^bb0(%offset: index, %size: index, %part: tensor<?xi64>):
    %is, %vs = soac.map(%part) : (tensor<?xi64>) -> (tensor<?xi64>, tensor<?xf32>) {
    ^bb1(%x: i64):
      %f = arith.sitofp %x : i64 to f32
      soac.yield %x, %f : i64, f32
    }
    husk.yield %is, %vs, %part : tensor<?xi64>, tensor<?xf32>, tensor<?xi64>
  } reduce {
  }
  func.return %r, %q : tensor<?xf32>, tensor<?xi64>
}

// A run that continues another over the same rows: the first %k devices.
// CHECK:      %again = husk.run size(%m) devices(%k) (%xs : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) outs(%xs : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) -> index {
// CHECK-GENERIC: %again = "husk.run"(%m, %k, %xs, %xs) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> ({
func.func @continued(%xs: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %m: index, %k: index) -> index {
  %again = husk.run size(%m) devices(%k) (%xs : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) outs(%xs : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) -> index {
  ^bb0(%device: index, %offset: index, %size: index, %part: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>):
    husk.yield
  }
  func.return %again : index
}

// Level 2: the number of devices, and a run with a partitioned source, an out and a
// slot array (one row per device), its estimated work per row, and the devices that
// had rows.
// CHECK:      func.func @run(%xs: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %ys: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %slots: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %m: index) -> index {
// CHECK-NEXT:   %n = husk.devices : index
// CHECK-NEXT:   %busy = husk.run size(%m) (%xs : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) outs(%ys : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) slots(%slots : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) -> index attributes {work_per_row = 3 : i64} {
// CHECK-NEXT:   ^bb0(%device: index, %offset: index, %size: index, %part: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %slot: memref<i32, strided<[], offset: ?>, #mem.space<device>>):
// CHECK-NEXT:     mem.copy %part, %rows
// CHECK:          husk.yield
// CHECK-NEXT:   }
// CHECK-GENERIC: %busy = "husk.run"(%m, %xs, %ys, %slots) <{operandSegmentSizes = array<i32: 1, 0, 1, 1, 1>}> ({
func.func @run(%xs: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %ys: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %slots: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %m: index) -> index {
  %n = husk.devices : index
  %busy = husk.run size(%m) (%xs : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) outs(%ys : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) slots(%slots : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) -> index attributes {work_per_row = 3 : i64} {
  ^bb0(%device: index, %offset: index, %size: index, %part: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %slot: memref<i32, strided<[], offset: ?>, #mem.space<device>>):
    mem.copy %part, %rows : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>
    %c = arith.constant 0 : i32
    mem.store %c, %slot[] : memref<i32, strided<[], offset: ?>, #mem.space<device>>
    husk.yield
  }
  func.return %n : index
}
