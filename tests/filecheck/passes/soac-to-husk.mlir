// RUN: soacc-opt %s --split-input-file -p soac-to-husk | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'soac-to-husk{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'soac-to-husk{scans=false scatters=false}' | filecheck %s --check-prefix=STUDY
//
// soac-to-husk: the combinators of host code that the thesis husks (map, reduce and
// the fused map-reduce) become husks, then its two simplification rules. One chunk per
// case of the study (Larsen, Multi-GPU Futhark Using Parallel Streams): T1-T3, T5-T9
// and T17, by the numbering of the project's digest; then histograms and scans, past
// the study.

// T1 (Listing 21): a map becomes a husk that concatenates; its body maps the
// partition, and it has nothing to reduce.
// REPORT: soac-to-husk: @t1_map: soac.map (%ys): partitions %xs; broadcast none; ~{{[0-9]+}} op(s) per row
// CHECK-LABEL: func.func @t1_map
// CHECK:         %rows = soac.size %xs[0] : tensor<?xi32>
// CHECK-NEXT:    %ys = husk.husk size(%rows) (%xs : tensor<?xi32>) -> (tensor<?xi32>) attributes {work_per_row = {{[0-9]+}} : i64} {
// CHECK-NEXT:    ^bb0(%offset: index, %size: index, %xs_part: tensor<?xi32>):
// CHECK-NEXT:      %[[M:.*]] = soac.map(%xs_part) : (tensor<?xi32>) -> tensor<?xi32> {
// CHECK:           husk.yield %[[M]] : tensor<?xi32>
// CHECK-NEXT:    } reduce {
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %ys
func.func @t1_map(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  func.return %ys : tensor<?xi32>
}

// -----

// T2 (Listing 23): a reduce becomes a husk that reduces: its body reduces the
// partition, and the husk combines the devices' values with the same operator and
// neutral element.
// CHECK-LABEL: func.func @t2_reduce
// CHECK:         %s = husk.husk size(%rows) (%xs : tensor<?xi32>) neutral(%zero : i32) -> (i32) attributes {work_per_row = {{[0-9]+}} : i64} {
// CHECK-NEXT:    ^bb0(%offset: index, %size: index, %xs_part: tensor<?xi32>):
// CHECK-NEXT:      %[[R:.*]] = soac.reduce(%xs_part) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
// CHECK:           husk.yield %[[R]] : i32
// CHECK-NEXT:    } reduce {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT:      husk.yield %[[T]] : i32
// CHECK-NEXT:    }
func.func @t2_reduce(%xs: tensor<?xi32>) -> i32 {
  %zero = arith.constant 0 : i32
  %s = soac.reduce(%xs) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
  ^bb0(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    soac.yield %t : i32
  }
  func.return %s : i32
}

// -----

// T3 (Listings 24, 33): the fused map-reduce is one husk whose body is the redomap
// over the partition.
// CHECK-LABEL: func.func @t3_redomap
// CHECK:         %s = husk.husk size(%rows) (%zs : tensor<?xi32>) neutral(%zero : i32) -> (i32) attributes {work_per_row = {{[0-9]+}} : i64} {
// CHECK-NEXT:    ^bb0(%offset: index, %size: index, %zs_part: tensor<?xi32>):
// CHECK-NEXT:      %[[R:.*]] = soac.redomap(%zs_part) : (tensor<?xi32>) -> i32 map {
// CHECK:           } reduce(%zero : i32) commutative {
// CHECK:           husk.yield %[[R]] : i32
// CHECK-NEXT:    } reduce {
// CHECK:           arith.addi
// CHECK-NOT:     husk.husk
func.func @t3_redomap(%zs: tensor<?xi32>) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %s = soac.redomap(%zs) : (tensor<?xi32>) -> i32 map {
  ^bb0(%z: i32):
    %y = arith.addi %z, %one : i32
    soac.yield %y : i32
  } reduce(%zero : i32) commutative {
  ^bb1(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    soac.yield %t : i32
  }
  func.return %s : i32
}

// -----

// T5 (matrix-vector, Listing 1's cases a and b): the rows of xss are partitioned, ys
// is used whole inside the body: broadcast.
// REPORT: soac-to-husk: @t5_matvec: soac.map (%mv): partitions %xss; broadcast %ys; ~{{[0-9]+}} op(s) per row
// CHECK-LABEL: func.func @t5_matvec
// CHECK:         %mv = husk.husk size(%rows) (%xss : tensor<?x3xi32>) -> (tensor<?xi32>) attributes {work_per_row = {{[0-9]+}} : i64} {
// CHECK-NEXT:    ^bb0(%offset: index, %size: index, %xss_part: tensor<?x3xi32>):
// CHECK-NEXT:      soac.map(%xss_part)
// CHECK:             soac.redomap(%row, %ys)
func.func @t5_matvec(%xss: tensor<?x3xi32>, %ys: tensor<3xi32>) -> tensor<?xi32> {
  %zero = arith.constant 0 : i32
  %mv = soac.map(%xss) : (tensor<?x3xi32>) -> tensor<?xi32> {
  ^bb0(%row: tensor<3xi32>):
    %d = soac.redomap(%row, %ys) : (tensor<3xi32>, tensor<3xi32>) -> i32 map {
    ^bb1(%a: i32, %b: i32):
      %p = arith.muli %a, %b : i32
      soac.yield %p : i32
    } reduce(%zero : i32) commutative {
    ^bb2(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      soac.yield %t : i32
    }
    soac.yield %d : i32
  }
  func.return %mv : tensor<?xi32>
}

// -----

// T6 (Listings 28-30): the body reads xs whole, so xs is broadcast anyway: its
// partition becomes a slice of it inside the body, and the husk has no partition.
// REPORT: soac-to-husk: @t6_internalise: soac.map (%ys): partitions none; broadcast %xs; 1 partition(s) internalised; ~{{[0-9]+}} op(s) per row
// CHECK-LABEL: func.func @t6_internalise
// CHECK:         %ys = husk.husk size(%rows) () -> (tensor<?xi32>) attributes {work_per_row = {{[0-9]+}} : i64} {
// CHECK-NEXT:    ^bb0(%offset: index, %size: index):
// CHECK-NEXT:      %xs_part = soac.slice %xs[%offset:%size] : tensor<?xi32> -> tensor<?xi32>
// CHECK-NEXT:      soac.map(%xs_part)
// CHECK:             soac.index %xs[%{{.*}}] : tensor<?xi32>
func.func @t6_internalise(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %i = arith.index_cast %x : i32 to index
    %v = soac.index %xs[%i] : tensor<?xi32>
    %w = arith.addi %x, %v : i32
    soac.yield %w : i32
  }
  func.return %ys : tensor<?xi32>
}

// -----

// T7 (Listings 26-27): the lambda never reads its row, so the map maps `iota %size`
// (its width kept) and the partition, unused, goes; offset and size stay.
// REPORT: soac-to-husk: @t7_unused: soac.map (%zeros): partitions none; broadcast none; 1 unused partition(s) dropped; ~{{[0-9]+}} op(s) per row
// CHECK-LABEL: func.func @t7_unused
// CHECK:         %zeros = husk.husk size(%rows) () -> (tensor<?xi32>) attributes {work_per_row = {{[0-9]+}} : i64} {
// CHECK-NEXT:    ^bb0(%offset: index, %size: index):
// CHECK-NEXT:      %[[I:.*]] = soac.iota %size : tensor<?xindex>
// CHECK-NEXT:      soac.map(%[[I]]) : (tensor<?xindex>) -> tensor<?xi32> {
func.func @t7_unused(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %zero = arith.constant 0 : i32
  %zeros = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    soac.yield %zero : i32
  }
  func.return %zeros : tensor<?xi32>
}

// -----

// T8 (strategy 2): a transposed source is still partitioned here: each device's rows
// are a view of it (the runtime copies a strided view's rows as they are), where the
// thesis, copying byte ranges, broadcast it whole.
// CHECK-LABEL: func.func @t8_transposed
// CHECK:         %t = soac.transpose %yss
// CHECK:         %sums = husk.husk size(%rows) (%t : tensor<4x3xi32>) -> (tensor<4xi32>) attributes {work_per_row = {{[0-9]+}} : i64} {
// CHECK-NEXT:    ^bb0(%offset: index, %size: index, %t_part: tensor<?x3xi32>):
func.func @t8_transposed(%yss: tensor<3x4xi32>) -> tensor<4xi32> {
  %zero = arith.constant 0 : i32
  %t = soac.transpose %yss [1, 0] : tensor<3x4xi32> -> tensor<4x3xi32>
  %sums = soac.map(%t) : (tensor<4x3xi32>) -> tensor<4xi32> {
  ^bb0(%r: tensor<3xi32>):
    %s = soac.reduce(%r) neutral(%zero : i32) commutative : (tensor<3xi32>) -> i32 {
    ^bb1(%a: i32, %b: i32):
      %u = arith.addi %a, %b : i32
      soac.yield %u : i32
    }
    soac.yield %s : i32
  }
  func.return %sums : tensor<4xi32>
}

// -----

// T9 (Listing 25): a redomap that also keeps its map's array: one husk with one
// reduced value and one concatenated array; its operator takes 2 parameters, not 4.
// CHECK-LABEL: func.func @t9_both
// CHECK:         %s, %ys = husk.husk size(%rows) (%xs : tensor<?xi32>) neutral(%zero : i32) -> (i32, tensor<?xi32>) attributes {work_per_row = {{[0-9]+}} : i64} {
// CHECK:           husk.yield %{{.*}}, %{{.*}} : i32, tensor<?xi32>
// CHECK-NEXT:    } reduce {
// CHECK-NEXT:    ^bb0(%{{[^:]*}}: i32, %{{[^:]*}}: i32):
func.func @t9_both(%xs: tensor<?xi32>) -> (i32, tensor<?xi32>) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %s, %ys = soac.redomap(%xs) : (tensor<?xi32>) -> (i32, tensor<?xi32>) map {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y, %y : i32, i32
  } reduce(%zero : i32) commutative {
  ^bb1(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    soac.yield %t : i32
  }
  func.return %s, %ys : i32, tensor<?xi32>
}

// -----

// T17: in the study a scan is never a husk (scans=false keeps that; by default it is a
// scan husk, below); a map of scans is one at the outer map only (the scan runs
// inside the body); a map nested in a lambda is never one (one level).
// STUDY-LABEL: func.func @t17_unsupported
// STUDY:         %sc = soac.scan(%xs)
// CHECK-LABEL: func.func @t17_unsupported
// CHECK:         %sc = husk.husk size(%{{.*}}) (%xs : tensor<?xi32>) neutral(%zero : i32) scan
// CHECK:         %mapped = husk.husk size(%{{.*}}) (%xss : tensor<?x4xi32>) -> (tensor<?x4xi32>) attributes {work_per_row = {{[0-9]+}} : i64} {
// CHECK:             soac.scan(%row)
// CHECK:           husk.yield
// CHECK:         %inner = husk.husk size(%{{.*}}) (%xss : tensor<?x4xi32>) -> (tensor<?x4xi32>) attributes {work_per_row = {{[0-9]+}} : i64} {
// CHECK:             soac.map(%r)
// CHECK-NOT:         husk.husk
// CHECK:         func.return
func.func @t17_unsupported(%xs: tensor<?xi32>, %xss: tensor<?x4xi32>) -> (tensor<?xi32>, tensor<?x4xi32>, tensor<?x4xi32>) {
  %zero = arith.constant 0 : i32
  %sc = soac.scan(%xs) neutral(%zero : i32) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    soac.yield %t : i32
  }
  %mapped = soac.map(%xss) : (tensor<?x4xi32>) -> tensor<?x4xi32> {
  ^bb0(%row: tensor<4xi32>):
    %s = soac.scan(%row) neutral(%zero : i32) : (tensor<4xi32>) -> tensor<4xi32> {
    ^bb1(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      soac.yield %t : i32
    }
    soac.yield %s : tensor<4xi32>
  }
  %inner = soac.map(%xss) : (tensor<?x4xi32>) -> tensor<?x4xi32> {
  ^bb0(%r: tensor<4xi32>):
    %d = soac.map(%r) : (tensor<4xi32>) -> tensor<4xi32> {
    ^bb1(%e: i32):
      %f = arith.addi %e, %e : i32
      soac.yield %f : i32
    }
    soac.yield %d : tensor<4xi32>
  }
  func.return %sc, %mapped, %inner : tensor<?xi32>, tensor<?x4xi32>, tensor<?x4xi32>
}

// -----

// Past the study: a histogram splits. Each device's body makes the histogram of its
// rows in bins of its own (the neutral element replicated); the husk combines the
// devices' bins with a map of the operator, and a map combines them into the
// destination. A histogram of rows (bins that are vectors) stays whole.
// REPORT: soac-to-husk: @histograms: soac.hist (%histogram): partitions %is, %vs; broadcast none; ~{{[0-9]+}} op(s) per row
// CHECK-LABEL: func.func @histograms
// CHECK:         %bin_count = soac.size %bins[0] : tensor<?xi32>
// CHECK-NEXT:    %empty_bins = soac.replicate %bin_count, %low : i32 -> tensor<?xi32>
// CHECK-NEXT:    %rows = soac.size %is[0] : tensor<?xindex>
// CHECK-NEXT:    %histogram = husk.husk size(%rows) (%is, %vs : tensor<?xindex>, tensor<?xi32>) neutral(%empty_bins : tensor<?xi32>) -> (tensor<?xi32>)
// CHECK-NEXT:    ^bb0(%offset: index, %size: index, %is_part: tensor<?xindex>, %vs_part: tensor<?xi32>):
// CHECK-NEXT:      %own_bins = soac.replicate %bin_count, %low : i32 -> tensor<?xi32>
// CHECK-NEXT:      %[[H:.*]] = soac.hist %own_bins[%is_part], %vs_part neutral(%low : i32)
// CHECK:           husk.yield %[[H]] : tensor<?xi32>
// CHECK-NEXT:    } reduce {
// CHECK-NEXT:    ^bb0(%left: tensor<?xi32>, %right: tensor<?xi32>):
// CHECK-NEXT:      %[[C:.*]] = soac.map(%left, %right)
// CHECK:             arith.maxsi
// CHECK:           husk.yield %[[C]] : tensor<?xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %h = soac.map(%bins, %histogram)
// CHECK:         %vectors = soac.hist %vbins[%is], %rows_of neutral(%zrow : tensor<2xf32>)
// CHECK:         func.return %h, %vectors
func.func @histograms(%bins: tensor<?xi32>, %is: tensor<?xindex>, %vs: tensor<?xi32>, %vbins: tensor<?x2xf32>, %rows_of: tensor<?x2xf32>, %zrow: tensor<2xf32>) -> (tensor<?xi32>, tensor<?x2xf32>) {
  %low = arith.constant -2147483648 : i32
  %h = soac.hist %bins[%is], %vs neutral(%low : i32) : tensor<?xi32>, tensor<?xindex>, tensor<?xi32> {
  ^bb0(%a: i32, %b: i32):
    %m = arith.maxsi %a, %b : i32
    soac.yield %m : i32
  }
  %vectors = soac.hist %vbins[%is], %rows_of neutral(%zrow : tensor<2xf32>) : tensor<?x2xf32>, tensor<?xindex>, tensor<?x2xf32> {
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    %s = soac.map(%x, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> {
    ^bb1(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      soac.yield %r : f32
    }
    soac.yield %s : tensor<2xf32>
  }
  func.return %h, %vectors : tensor<?xi32>, tensor<?x2xf32>
}

// -----

// Past the study: a scan of scalars is a scan husk. Each device scans its rows; the
// husk completes the scans with the operator (its reduce region). A scanomap's post
// lambda is a map after it, a husk of its own. A scan of rows stays whole.
// REPORT: soac-to-husk: @scans: soac.scanomap (%scanned, %mapped): partitions %xs; broadcast none; ~{{[0-9]+}} op(s) per row
// REPORT: soac-to-husk: @scans: soac.map (%incl, %excl): partitions %scanned, %mapped; broadcast none; ~{{[0-9]+}} op(s) per row
// CHECK-LABEL: func.func @scans
// CHECK:         %rows = soac.size %xs[0] : tensor<?xi64>
// CHECK-NEXT:    %scanned, %mapped = husk.husk size(%rows) (%xs : tensor<?xi64>) neutral(%zero : i64) scan -> (tensor<?xi64>, tensor<?xi64>)
// CHECK-NEXT:    ^bb0(%offset: index, %size: index, %xs_part: tensor<?xi64>):
// CHECK-NEXT:      %[[S:.*]], %[[M:.*]] = soac.scanomap(%xs_part)
// CHECK-NOT:       post
// CHECK:           husk.yield %[[S]], %[[M]] : tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:    } reduce {
// CHECK-NEXT:    ^bb0(%[[L:.*]]: i64, %[[R:.*]]: i64):
// CHECK-NEXT:      %[[C:.*]] = arith.addi %[[L]], %[[R]] : i64
// CHECK-NEXT:      husk.yield %[[C]] : i64
// CHECK-NEXT:    }
// CHECK:         %incl, %excl = husk.husk size(%{{.*}}) (%scanned, %mapped : tensor<?xi64>, tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK:           arith.subi
// CHECK:         %by_rows = soac.scan(%ws) neutral(%zrow : tensor<2xf32>)
// CHECK:         func.return %incl, %excl, %by_rows
// STUDY-LABEL: func.func @scans
// STUDY-NOT:     husk.husk
// STUDY:         func.return
func.func @scans(%xs: tensor<?xi64>, %ws: tensor<?x2xf32>, %zrow: tensor<2xf32>) -> (tensor<?xi64>, tensor<?xi64>, tensor<?x2xf32>) {
  %zero = arith.constant 0 : i64
  %incl, %excl = soac.scanomap(%xs) : (tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) map {
  ^bb0(%x: i64):
    %sq = arith.muli %x, %x : i64
    soac.yield %sq, %sq : i64, i64
  } scan(%zero : i64) {
  ^bb0(%l: i64, %r: i64):
    %s = arith.addi %l, %r : i64
    soac.yield %s : i64
  } post {
  ^bb0(%s: i64, %sq: i64):
    %e = arith.subi %s, %sq : i64
    soac.yield %s, %e : i64, i64
  }
  %by_rows = soac.scan(%ws) neutral(%zrow : tensor<2xf32>) : (tensor<?x2xf32>) -> tensor<?x2xf32> {
  ^bb0(%p: tensor<2xf32>, %q: tensor<2xf32>):
    %s = soac.map(%p, %q) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> {
    ^bb1(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      soac.yield %c : f32
    }
    soac.yield %s : tensor<2xf32>
  }
  func.return %incl, %excl, %by_rows : tensor<?xi64>, tensor<?xi64>, tensor<?x2xf32>
}

// -----

// Past the study: a fused scatter is a scatter husk. Each device maps its rows to
// their (index, value) pairs and mapped rows; the husk writes the pairs into the
// destination, which is not broadcast. A plain scatter has nothing to split.
// REPORT: soac-to-husk: @scatters: soac.scatteromap (%r, %m): partitions %xs; broadcast none; pairs written into %dest on the main device; ~{{[0-9]+}} op(s) per row
// CHECK-LABEL: func.func @scatters
// CHECK:         %rows = soac.size %xs[0] : tensor<?xi64>
// CHECK-NEXT:    %r, %m = husk.husk size(%rows) (%xs : tensor<?xi64>) scatter(%dest : tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>)
// CHECK-NEXT:    ^bb0(%offset: index, %size: index, %xs_part: tensor<?xi64>):
// CHECK-NEXT:      %indices, %values, %[[M:.*]] = soac.map(%xs_part) : (tensor<?xi64>) -> (tensor<?xi64>, tensor<?xf32>, tensor<?xi64>)
// CHECK:           husk.yield %indices, %values, %[[M]] : tensor<?xi64>, tensor<?xf32>, tensor<?xi64>
// CHECK-NEXT:    } reduce {
// CHECK-NEXT:    }
// CHECK-NEXT:    %plain = soac.scatter %r[%xs] = %fs
// STUDY-LABEL: func.func @scatters
// STUDY-NOT:     husk.husk
// STUDY:         func.return
func.func @scatters(%dest: tensor<?xf32>, %xs: tensor<?xi64>, %fs: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>) {
  %two = arith.constant 2 : i64
  %r, %m = soac.scatteromap %dest(%xs) : tensor<?xf32>, (tensor<?xi64>) -> (tensor<?xf32>, tensor<?xi64>) map {
  ^bb0(%x: i64):
    %i = arith.muli %x, %two : i64
    %f = arith.sitofp %x : i64 to f32
    soac.yield %i, %f, %i : i64, f32, i64
  }
  %plain = soac.scatter %r[%xs] = %fs : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>
  func.return %plain, %m : tensor<?xf32>, tensor<?xi64>
}
