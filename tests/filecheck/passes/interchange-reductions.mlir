// RUN: soacc-opt %s --split-input-file -p interchange-reductions | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'interchange-reductions{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
//
// interchange-reductions: a reduction (or scan) of rows whose operator is one map over
// the rows (element by element) becomes a map over the columns of scalar reductions
// (scans). One chunk per case.

// The column sums of a matrix: the rows' map2 (+) as (+) on each column, with the
// column's neutral element (the map checks that the rows and the neutral row agree in
// size, as the reduction did; no rows give the neutral row).
// REPORT: interchange-reductions: %sums: a map over the columns
// CHECK-LABEL: func.func @column_sums
// CHECK-NEXT:    %a_columns = soac.transpose %a [1, 0]
// CHECK-NEXT:    %sums = soac.map(%a_columns, %z) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%column: tensor<?xf32>, %neutral: f32):
// CHECK-NEXT:      %sums_1 = soac.reduce(%column) neutral(%neutral : f32) commutative : (tensor<?xf32>) -> f32 {
// CHECK-NEXT:      ^bb{{[0-9]+}}(%0: f32, %1: f32):
// CHECK-NEXT:        %t = arith.addf %0, %1 : f32
// CHECK-NEXT:        soac.yield %t : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      soac.yield %sums_1 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %sums
func.func @column_sums(%a: tensor<?x?xf32>, %z: tensor<?xf32>) -> tensor<?xf32> {
  %sums = soac.reduce(%a) neutral(%z : tensor<?xf32>) commutative : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?xf32>, %y: tensor<?xf32>):
    %s = soac.map(%x, %y) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      soac.yield %t : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  func.return %sums : tensor<?xf32>
}

// -----

// Two arrays of rows and an operator that is not commutative (the second pair's
// values win where its flag is set), its map reading the parameters in another order
// (right before left): each column's reduction takes them where they were.
// REPORT: interchange-reductions: %v: a map over the columns
// CHECK-LABEL: func.func @last_set
// CHECK:         %a_columns = soac.transpose %a [1, 0]
// CHECK-NEXT:    %f_columns = soac.transpose %f [1, 0]
// CHECK-NEXT:    %v, %w = soac.map(%a_columns, %f_columns, %za, %zf)
// CHECK-NEXT:    ^bb0(%column: tensor<?xi32>, %column_1: tensor<?xi1>, %neutral: i32, %neutral_1: i1):
// CHECK-NEXT:      %v_1, %w_1 = soac.reduce(%column, %column_1) neutral(%neutral, %neutral_1 : i32, i1) : {{.*}} {
// CHECK-NEXT:      ^bb{{[0-9]+}}(%0: i32, %1: i1, %2: i32, %3: i1):
// CHECK-NEXT:        %o = arith.select %3, %2, %0 : i32
// CHECK-NEXT:        %g = arith.ori %3, %1 : i1
// CHECK-NEXT:        soac.yield %o, %g : i32, i1
func.func @last_set(%a: tensor<?x?xi32>, %f: tensor<?x?xi1>, %za: tensor<?xi32>, %zf: tensor<?xi1>) -> (tensor<?xi32>, tensor<?xi1>) {
  %v, %w = soac.reduce(%a, %f) neutral(%za, %zf : tensor<?xi32>, tensor<?xi1>) : (tensor<?x?xi32>, tensor<?x?xi1>) -> (tensor<?xi32>, tensor<?xi1>) {
  ^bb0(%x: tensor<?xi32>, %xf: tensor<?xi1>, %y: tensor<?xi32>, %yf: tensor<?xi1>):
    %r, %rf = soac.map(%y, %yf, %x, %xf) : (tensor<?xi32>, tensor<?xi1>, tensor<?xi32>, tensor<?xi1>) -> (tensor<?xi32>, tensor<?xi1>) {
    ^bb1(%q: i32, %qf: i1, %p: i32, %pf: i1):
      %o = arith.select %qf, %q, %p : i32
      %g = arith.ori %qf, %pf : i1
      soac.yield %o, %g : i32, i1
    }
    soac.yield %r, %rf : tensor<?xi32>, tensor<?xi1>
  }
  func.return %v, %w : tensor<?xi32>, tensor<?xi1>
}

// -----
// A scan of rows (each row the element-wise sums of the rows up to it): a map of the
// columns' scans, transposed back to rows.
// REPORT: interchange-reductions: %p: a map over the columns
// CHECK-LABEL: func.func @prefix_rows
// CHECK-NEXT:    %a_columns = soac.transpose %a [1, 0]
// CHECK-NEXT:    %p_by_columns = soac.map(%a_columns, %z) : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32> {
// CHECK-NEXT:    ^bb0(%column: tensor<?xf32>, %neutral: f32):
// CHECK-NEXT:      %p = soac.scan(%column) neutral(%neutral : f32) : (tensor<?xf32>) -> tensor<?xf32> {
// CHECK:           soac.yield %p : tensor<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %p_1 = soac.transpose %p_by_columns [1, 0]
// CHECK-NEXT:    func.return %p_1
func.func @prefix_rows(%a: tensor<?x?xf32>, %z: tensor<?xf32>) -> tensor<?x?xf32> {
  %p = soac.scan(%a) neutral(%z : tensor<?xf32>) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%x: tensor<?xf32>, %y: tensor<?xf32>):
    %s = soac.map(%x, %y) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      soac.yield %t : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  func.return %p : tensor<?x?xf32>
}

// -----
// Left alone: an operator that picks a whole row (not element by element), a map
// lambda with a combinator inside, and a reduction of rows inside a map's lambda (its
// thread runs it already).
// REPORT-NOT: interchange-reductions
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     soac.transpose
// CHECK:         soac.reduce(%a) neutral(%z : tensor<?xf32>)
// CHECK:         soac.reduce(%a) neutral(%z : tensor<?xf32>)
// CHECK:         soac.reduce(%row) neutral(%zz : tensor<?xi64>)
func.func @left_alone(%a: tensor<?x?xf32>, %z: tensor<?xf32>, %m: tensor<?x?x?xi64>, %zz: tensor<?xi64>, %c: index)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?x?xi64>) {
  %first = soac.reduce(%a) neutral(%z : tensor<?xf32>) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?xf32>, %y: tensor<?xf32>):
    %x0 = soac.index %x[%c] : tensor<?xf32>
    %y0 = soac.index %y[%c] : tensor<?xf32>
    %gt = arith.cmpf ogt, %x0, %y0 : f32
    %r = arith.select %gt, %x, %y : tensor<?xf32>
    soac.yield %r : tensor<?xf32>
  }
  %nested = soac.reduce(%a) neutral(%z : tensor<?xf32>) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?xf32>, %y: tensor<?xf32>):
    %s = soac.map(%x, %y) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      %rep = soac.replicate %c, %t : f32 -> tensor<?xf32>
      %u = soac.index %rep[%c] : tensor<?xf32>
      soac.yield %u : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  %per = soac.map(%m) : (tensor<?x?x?xi64>) -> tensor<?x?xi64> {
  ^bb0(%row: tensor<?x?xi64>):
    %s = soac.reduce(%row) neutral(%zz : tensor<?xi64>) commutative : (tensor<?x?xi64>) -> tensor<?xi64> {
    ^bb1(%x: tensor<?xi64>, %y: tensor<?xi64>):
      %e = soac.map(%x, %y) : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64> {
      ^bb2(%p: i64, %q: i64):
        %t = arith.addi %p, %q : i64
        soac.yield %t : i64
      }
      soac.yield %e : tensor<?xi64>
    }
    soac.yield %s : tensor<?xi64>
  }
  func.return %first, %nested, %per : tensor<?xf32>, tensor<?xf32>, tensor<?x?xi64>
}
