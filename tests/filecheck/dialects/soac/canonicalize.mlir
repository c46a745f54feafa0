// RUN: soacc-opt %s -p canonicalize,cse --split-input-file | filecheck %s

// The soac dialect's canonicalization patterns (dialects/shared/soac_canonicalization.py):
// Futhark's simplifier's rules that reduce-device-syncs depends on (issue 22, class 1).

// An index of a slice is an index of the array: offset plus index, kept out of bounds
// (the array's size) where the index is outside the slice or the slice outside the
// array, so that a wrong program fails as before.
// CHECK-LABEL: func.func @index_of_range
// CHECK-NEXT:    %n = soac.size %a[0] : tensor<?xf32>
// CHECK-NEXT:    %count = arith.subi %n, %j : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[POS:.*]] = arith.addi %j, %k : index
// CHECK-NEXT:    %[[LASTSTEP:.*]] = arith.subi %count, %[[ONE]] : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.addi %j, %[[LASTSTEP]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %k, %count : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.cmpi ult, %j, %n : index
// CHECK-NEXT:    %[[END:.*]] = arith.cmpi ult, %[[LAST]], %n : index
// CHECK-NEXT:    %[[A1:.*]] = arith.andi %[[IN]], %[[FIRST]] : i1
// CHECK-NEXT:    %[[A2:.*]] = arith.andi %[[A1]], %[[END]] : i1
// CHECK-NEXT:    %[[AT:.*]] = arith.select %[[A2]], %[[POS]], %n : index
// CHECK-NEXT:    %x = soac.index %a[%[[AT]]] : tensor<?xf32>
// CHECK-NEXT:    func.return %x : f32
func.func @index_of_range(%a: tensor<?xf32>, %j: index, %k: index) -> f32 {
  %n = soac.size %a[0] : tensor<?xf32>
  %count = arith.subi %n, %j : index
  %tail = soac.slice %a[%j:%count] : tensor<?xf32> -> tensor<?xf32>
  %x = soac.index %tail[%k] : tensor<?xf32>
  func.return %x : f32
}

// -----

// A strided range: offset plus stride times index; a fixed entry stays an index; a
// dimension past the slice's entries keeps its index.
// CHECK-LABEL: func.func @index_of_strided
// CHECK:         %[[STEP:.*]] = arith.muli %s, %k : index
// CHECK-NEXT:    %[[POS:.*]] = arith.addi %o, %[[STEP]] : index
// CHECK:         %[[AT:.*]] = arith.select %{{.*}}, %[[POS]], %{{.*}} : index
// CHECK-NEXT:    %x = soac.index %m[%i, %[[AT]], %l] : tensor<?x?x?xf32>
// CHECK-NOT:     soac.slice
func.func @index_of_strided(%m: tensor<?x?x?xf32>, %i: index, %o: index, %c: index, %s: index, %k: index, %l: index) -> f32 {
  %part = soac.slice %m[%i, %o:%c:%s] : tensor<?x?x?xf32> -> tensor<?x?xf32>
  %x = soac.index %part[%k, %l] : tensor<?x?xf32>
  func.return %x : f32
}

// -----

// Fewer indices than the slice's ranged dimensions: a sub-array of a range, which
// stays a slice.
// CHECK-LABEL: func.func @row_of_a_block
// CHECK:         %block = soac.slice %m[%o:%c, %p:%d]
// CHECK-NEXT:    %row = soac.index %block[%k]
func.func @row_of_a_block(%m: tensor<?x?xf32>, %o: index, %c: index, %p: index, %d: index, %k: index) -> tensor<?xf32> {
  %block = soac.slice %m[%o:%c, %p:%d] : tensor<?x?xf32> -> tensor<?x?xf32>
  %row = soac.index %block[%k] : tensor<?x?xf32>
  func.return %row : tensor<?xf32>
}

// -----

// An index of an index is one index.
// CHECK-LABEL: func.func @index_of_index
// CHECK-NEXT:    %x = soac.index %m[%i, %j] : tensor<?x?xf32>
// CHECK-NEXT:    func.return %x : f32
func.func @index_of_index(%m: tensor<?x?xf32>, %i: index, %j: index) -> f32 {
  %row = soac.index %m[%i] : tensor<?x?xf32>
  %x = soac.index %row[%j] : tensor<?xf32>
  func.return %x : f32
}
