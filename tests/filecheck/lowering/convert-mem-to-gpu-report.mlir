// RUN: soacc-opt %s -p 'soacc-pipeline{report=true}' --split-input-file -o /dev/null 2>&1 | filecheck %s
// RUN: soacc-opt %s -p 'soacc-pipeline' --split-input-file | filecheck %s --check-prefix=MARK

// convert-mem-to-gpu{report=true} (lowering/kernel_parallelism.py): per host-level
// combinator, its kernels, how they share out its work, and the combinators nested in
// its lambdas that each thread runs sequentially (issue 21: no silent cliff). The
// kernels that run any carry them in `soacc.sequential_inside`, for the runtime's
// statistics. A function's forked copy has the same kernels and is not reported.

// A histogram inside a map whose bins start as a row of an input (not one value, nor
// an array from outside: lowering/gpu_segmented_hist.py's group per row does not take
// it): a thread per row, each making its row's histogram element by element.
// CHECK:      convert-mem-to-gpu: @hist_in_map: soac.map %hs (as mem.map) -> map0: a thread per row; in each thread: soac.histomap %h (as mem.histomap)
// CHECK-NOT:  @hist_in_map__forked
// MARK:       {sym_name = "map0", soacc.sequential_inside = "soac.histomap %h (as mem.histomap)"}
func.func @hist_in_map(%xss: tensor<?x?xi32>, %starts: tensor<?x8xi32>, %zero: i32) -> tensor<?x8xi32> {
  %hs = soac.map(%xss, %starts) : (tensor<?x?xi32>, tensor<?x8xi32>) -> tensor<?x8xi32> {
  ^bb0(%row: tensor<?xi32>, %start: tensor<8xi32>):
    %is = soac.map(%row) : (tensor<?xi32>) -> tensor<?xindex> {
    ^bb1(%x: i32):
      %e = arith.constant 7 : i32
      %b = arith.andi %x, %e : i32
      %i = arith.index_cast %b : i32 to index
      soac.yield %i : index
    }
    %h = soac.hist %start[%is], %row neutral(%zero : i32) : tensor<8xi32>, tensor<?xindex>, tensor<?xi32> {
    ^bb2(%a: i32, %c: i32):
      %s = arith.addi %a, %c : i32
      soac.yield %s : i32
    }
    soac.yield %h : tensor<8xi32>
  }
  func.return %hs : tensor<?x8xi32>
}

// -----

// Row sums: a thread, a warp or a block per row (the group shares out the row's
// reduction); nothing left to one thread.
// CHECK:      convert-mem-to-gpu: @row_sums: soac.map %sums (as mem.map) -> map0, map0_block_per_row, map0_warp_per_row: a thread, a warp or a block per row (by the rows' length){{$}}
// (the thread-per-row kernel is the host's choice for short rows: no cliff there)
// MARK:       {sym_name = "map0"}
// MARK:       {sym_name = "map0_block_per_row"}
// MARK:       {sym_name = "map0_warp_per_row"}
func.func @row_sums(%xss: tensor<?x?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %sums = soac.map(%xss) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    soac.yield %s : f32
  }
  func.return %sums : tensor<?xf32>
}

// -----

// A map of maps of reductions (a matrix product's shape, the issue's sgemm cliff):
// tiled where both sides of the result are wide (a block per tile, each thread folding
// a tile of dot products from shared memory: lowering/gpu_tile.py), else a group of
// threads per row of the result, each thread computing its elements' dot products
// alone (the innermost level, run sequentially).
// CHECK:      convert-mem-to-gpu: @matmul: soac.map %c (as mem.map) -> map0_tiled, map0, map0_block_per_row, map0_warp_per_row: a block per tile of its results, a tile of it per thread, the operands through shared memory (where both sides are wide; else a thread, a warp or a block per row (by the rows' length)); in each thread: mem.redomap %d
// MARK:       {sym_name = "map0", soacc.sequential_inside = "mem.redomap %d"}
// MARK:       {sym_name = "map0_block_per_row", soacc.sequential_inside = "mem.redomap %d"}
func.func @matmul(%a: tensor<?x?xf32>, %bt: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c = soac.map(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%arow: tensor<?xf32>):
    %crow = soac.map(%bt) : (tensor<?x?xf32>) -> tensor<?xf32> {
    ^bb1(%bcol: tensor<?xf32>):
      %p = soac.map(%arow, %bcol) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb2(%x: f32, %y: f32):
        %m = arith.mulf %x, %y : f32
        soac.yield %m : f32
      }
      %d = soac.reduce(%p) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
      ^bb3(%l: f32, %r: f32):
        %s = arith.addf %l, %r : f32
        soac.yield %s : f32
      }
      soac.yield %d : f32
    }
    soac.yield %crow : tensor<?xf32>
  }
  func.return %c : tensor<?x?xf32>
}

// -----

// Maps three deep (a 3-D stencil's shape), a perfect nest: flattened, a thread per
// element of the product of the three levels' rows, nothing left sequential in it (the
// map writes its input's memory, but each thread reads only the element it writes).
// CHECK:      convert-mem-to-gpu: @cube: soac.map %r (as mem.map) -> map0_flat: a thread per element of its perfectly nested maps (flattened)
// MARK:       {sym_name = "map0_flat"}
func.func @cube(%v: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %two = arith.constant 2.0 : f32
  %r = soac.map(%v) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  ^bb0(%plane: tensor<?x?xf32>):
    %p = soac.map(%plane) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb1(%row: tensor<?xf32>):
      %q = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb2(%x: f32):
        %y = arith.mulf %x, %two : f32
        soac.yield %y : f32
      }
      soac.yield %q : tensor<?xf32>
    }
    soac.yield %p : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?x?xf32>
}
