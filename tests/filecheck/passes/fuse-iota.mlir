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

// A reduction reads the iota too: it keeps the array (maps and the fused combinators
// take the row number; an unfused reduce has no lambda to give it to).
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

// -----

// canny's flat indices: the iota is the only input of a scanomap and of a scatteromap
// (soac-fusion's forms). Each becomes `indexed(%n)`, the iota's size its row count, and
// the iota's block is gone.
// CHECK-LABEL: func.func @fused_only_input(
// CHECK-NOT:     mem.iota
// CHECK:         mem.scanomap outs(%flags, %pos : {{.*}}) indexed(%n) map {
// CHECK-NEXT:    ^bb0(%row: index):
// CHECK-NEXT:      [[K:%k[_0-9]*]] = arith.index_cast %row : index to i32
// CHECK-NEXT:      %odd = arith.andi [[K]], %one : i32
// CHECK:         mem.scatteromap %zeros : {{.*}} indexed(%n) map {
// CHECK-NEXT:    ^bb0(%row_1: index):
// CHECK-NEXT:      [[K2:%k[_0-9]*]] = arith.index_cast %row_1 : index to i32
// CHECK-NEXT:      %i = arith.index_cast [[K2]] : i32 to index
// REPORT: fuse-iota: @fused_only_input: %ks read as the row number by 2 map(s); its block is gone
func.func @fused_only_input(%n: index) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %ks = soac.iota %n : tensor<?xi32>
  %flags, %pos = soac.scanomap(%ks) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) map {
  ^bb0(%k: i32):
    %odd = arith.andi %k, %one : i32
    soac.yield %odd, %odd : i32, i32
  } scan(%zero : i32) commutative {
  ^bb0(%l: i32, %r: i32):
    %t = arith.addi %l, %r : i32
    soac.yield %t : i32
  }
  %zeros = soac.replicate %n, %zero : i32 -> tensor<?xi32>
  %out = soac.scatteromap %zeros(%ks) : tensor<?xi32>, (tensor<?xi32>) -> tensor<?xi32> map {
  ^bb0(%k: i32):
    %i = arith.index_cast %k : i32 to index
    %f = soac.index %flags[%i] : tensor<?xi32>
    %p = soac.index %pos[%i] : tensor<?xi32>
    %is = arith.cmpi eq, %f, %one : i32
    %p1 = arith.subi %p, %one : i32
    %none = arith.constant -1 : i32
    %at = arith.select %is, %p1, %none : i32
    soac.yield %at, %k : i32, i32
  }
  func.return %out : tensor<?xi32>
}

// -----

// A redomap reading the iota beside an array of the iota's size (the size check is kept
// by that array) and a histomap whose other array has a size not known to be the
// iota's: the redomap takes the row number, the histomap keeps the array.
// CHECK-LABEL: func.func @fused_sizes(
// CHECK:         mem.iota outs(%is :
// CHECK:         mem.redomap ins(%xs : {{.*}}) outs({{.*}}) indexed(%n) map {
// CHECK-NEXT:    ^bb0(%x: f32, %row: index):
// CHECK:         mem.histomap %h0 : {{.*}} ins(%is, %ys : {{.*}}) map {
// REPORT-NOT: fuse-iota: @fused_sizes
func.func @fused_sizes(%n: index, %ys: tensor<?xf32>) -> (f32, tensor<4xi32>) {
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %is = soac.iota %n : tensor<?xindex>
  %xs = soac.replicate %n, %zero : f32 -> tensor<?xf32>
  %s = soac.redomap(%is, %xs) : (tensor<?xindex>, tensor<?xf32>) -> f32 map {
  ^bb0(%i: index, %x: f32):
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %v = arith.addf %f, %x : f32
    soac.yield %v : f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  }
  %c4 = arith.constant 4 : index
  %h0 = soac.replicate %c4, %izero : i32 -> tensor<4xi32>
  %h = soac.histomap %h0(%is, %ys) : tensor<4xi32>, (tensor<?xindex>, tensor<?xf32>) -> tensor<4xi32> map {
  ^bb0(%i: index, %y: f32):
    soac.yield %i, %one : index, i32
  } hist(%izero : i32) {
  ^bb0(%l: i32, %r: i32):
    %t = arith.addi %l, %r : i32
    soac.yield %t : i32
  }
  func.return %s, %h : f32, tensor<4xi32>
}

// -----

// canny's stencils: a map over the columns' iota nested in a map over rows. The inner
// map's output is a row of the outer map's output, whose rows are stated to be %w long,
// the iota's size: the inner map takes the row number (the column).
// CHECK-LABEL: func.func @nested(
// CHECK-NOT:     mem.iota
// CHECK:         mem.map ins(%xs : {{.*}}) outs(%out : {{.*}}) {
// CHECK-NEXT:    ^bb0(%row: {{.*}}, %out_row: {{.*}}):
// CHECK-NEXT:      mem.map ins(:) outs(%out_row : {{.*}}) indexed {
// CHECK-NEXT:      ^bb{{[0-9]}}(%row_1: index):
// CHECK-NEXT:        %v = mem.load %row[%row_1]
// REPORT: fuse-iota: @nested: %cols read as the row number by 1 map(s); its block is gone
func.func @nested(%xs: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %w = soac.size %xs[1] : tensor<?x?xf32>
  %cols = soac.iota %w : tensor<?xindex>
  %out = soac.map(%xs) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %r = soac.map(%cols) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb1(%x: index):
      %v = soac.index %row[%x] : tensor<?xf32>
      soac.yield %v : f32
    }
    soac.yield %r : tensor<?xf32>
  }
  func.return %out : tensor<?x?xf32>
}
