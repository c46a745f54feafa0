// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,fuse-iota' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,fuse-iota{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
//
// fuse-iota: a map over `iota n` reads its row number instead of the iota's array;
// when nothing else reads the array, the iota, its view and its block are gone.

// The map's only input is the iota (series' coefficients): the map has no inputs left,
// its outputs give the row count, and the outputs' sizes, which were `mem.size` of the
// iota's array, are the iota's size.
// CHECK-LABEL: func.func @only_input(
// CHECK-NOT:     mem.iota
// CHECK:         %ys = mem.view %ys_mem[{{%[0-9]+}}] sizes(%n)
// CHECK:         mem.map ins(:) outs(%ys : {{.*}}) indexed {
// CHECK-NEXT:    ^bb0(%row: index):
// CHECK-NEXT:      %one = arith.constant 1 : index
// CHECK-NEXT:      %j = arith.addi %row, %one : index
// REPORT: fuse-iota: @only_input: %is read as the row number by 1 map(s); its block is gone
func.func @only_input(%n: index) -> tensor<?xindex> {
  %is = soac.iota %n : tensor<?xindex>
  %ys = soac.map(%is) : (tensor<?xindex>) -> tensor<?xindex> {
  ^bb0(%i: index):
    %one = arith.constant 1 : index
    %j = arith.addi %i, %one : index
    soac.yield %j : index
  }
  func.return %ys : tensor<?xindex>
}

// -----

// An i32 iota beside another input of the same size, read by two maps: each map takes
// the row number, cast to i32 where the element was used; one block fewer.
// CHECK-LABEL: func.func @two_maps(
// CHECK-NOT:     mem.iota
// CHECK:         mem.map ins(%xs : {{.*}}) outs({{.*}}) indexed {
// CHECK-NEXT:    ^bb0(%x: f32, %row: index):
// CHECK-NEXT:      [[K:%k[_0-9]*]] = arith.index_cast %row : index to i32
// CHECK-NEXT:      %f = arith.sitofp [[K]] : i32 to f32
// CHECK:         mem.map ins(%xs : {{.*}}) outs({{.*}}) indexed {
// CHECK-NEXT:    ^bb0(%x_1: f32, %row_1: index):
// CHECK-NEXT:      [[K2:%k[_0-9]*]] = arith.index_cast %row_1 : index to i32
// CHECK-NEXT:      %p = arith.muli [[K2]], [[K2]] : i32
// REPORT: fuse-iota: @two_maps: %ks read as the row number by 2 map(s); its block is gone
func.func @two_maps(%xs: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %n = soac.size %xs[0] : tensor<?xf32>
  %ks = soac.iota %n : tensor<?xi32>
  %a = soac.map(%xs, %ks) : (tensor<?xf32>, tensor<?xi32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %k: i32):
    %f = arith.sitofp %k : i32 to f32
    %s = arith.addf %x, %f : f32
    soac.yield %s : f32
  }
  %b = soac.map(%xs, %ks) : (tensor<?xf32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: f32, %k: i32):
    %p = arith.muli %k, %k : i32
    soac.yield %p : i32
  }
  func.return %a, %b : tensor<?xf32>, tensor<?xi32>
}

// -----

// The iota is also returned (copied to the host): its array must exist, so nothing
// changes.
// CHECK-LABEL: func.func @returned(
// CHECK:         mem.iota outs(%is :
// CHECK:         mem.map ins(%is : {{.*}}) outs({{.*}}) {
// REPORT-NOT: fuse-iota: @returned
func.func @returned(%n: index) -> (tensor<?xindex>, tensor<?xindex>) {
  %is = soac.iota %n : tensor<?xindex>
  %ys = soac.map(%is) : (tensor<?xindex>) -> tensor<?xindex> {
  ^bb0(%i: index):
    %j = arith.muli %i, %i : index
    soac.yield %j : index
  }
  func.return %is, %ys : tensor<?xindex>, tensor<?xindex>
}

// -----

// The map's other array has a size not known to be the iota's: the map would check
// that they agree, so it keeps reading the iota.
// CHECK-LABEL: func.func @sizes_unknown(
// CHECK:         mem.iota outs(%is :
// CHECK:         mem.map ins(%xs, %is : {{.*}}) outs({{.*}}) {
// REPORT-NOT: fuse-iota: @sizes_unknown
func.func @sizes_unknown(%xs: tensor<?xindex>, %n: index) -> tensor<?xindex> {
  %is = soac.iota %n : tensor<?xindex>
  %ys = soac.map(%xs, %is) : (tensor<?xindex>, tensor<?xindex>) -> tensor<?xindex> {
  ^bb0(%x: index, %i: index):
    %j = arith.addi %x, %i : index
    soac.yield %j : index
  }
  func.return %ys : tensor<?xindex>
}

// -----

// A reduction reads the iota too: it keeps the array (only maps take the row number).
// CHECK-LABEL: func.func @reduced(
// CHECK:         mem.iota outs(%is :
// REPORT-NOT: fuse-iota: @reduced
func.func @reduced(%n: index) -> (tensor<?xindex>, index) {
  %is = soac.iota %n : tensor<?xindex>
  %ys = soac.map(%is) : (tensor<?xindex>) -> tensor<?xindex> {
  ^bb0(%i: index):
    %j = arith.muli %i, %i : index
    soac.yield %j : index
  }
  %c0 = arith.constant 0 : index
  %s = soac.reduce(%is) neutral(%c0 : index) : (tensor<?xindex>) -> index {
  ^bb0(%l: index, %r: index):
    %t = arith.addi %l, %r : index
    soac.yield %t : index
  }
  func.return %ys, %s : tensor<?xindex>, index
}
