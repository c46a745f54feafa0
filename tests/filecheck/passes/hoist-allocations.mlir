// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem' | filecheck %s --check-prefix=EM
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{sizes=false}' | filecheck %s --check-prefix=NOSIZE
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false}' | filecheck %s --check-prefix=NOALLOC
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
//
// hoist-allocations: allocation hoisting (for short-circuit) and allocation-size
// hoisting (for memory-reuse's max trick), the study's chapter 7, on its figures
// and on the test list's explicit-memory cases (digest §13.1, EM lines: level 2 before
// any optimisation). CHECK lines give the order of statements after hoisting.

// T-EM1 (Fig 3.3), before any optimisation: one allocation of i * 4 bytes.
// EM-LABEL:   func.func @em1(
// EM:           [[FOUR:%[0-9]+]] = arith.constant 4 : index
// EM-NEXT:      [[BYTES:%[0-9]+]] = arith.muli %i, [[FOUR]] overflow<nsw> : index
// EM-NEXT:      %result_mem = mem.alloc [[BYTES]] : !mem.block<device>
// EM:           %result = mem.view %result_mem[{{%[0-9]+}}] sizes(%i)
// EM-NEXT:      mem.iota outs(%result :
// REPORT: hoist-allocations: @em1: 1 sizes read from views, 1 size computations hoisted, 0 allocations hoisted, 0 in-place targets made earlier
func.func @em1(%i: index) -> tensor<?xi32> {
  %result = soac.iota %i : tensor<?xi32>
  func.return %result : tensor<?xi32>
}

// -----

// T-EM2 (Fig 3.4): t0a, a view of t0 (a transpose here), shares its block.
// EM-LABEL:   func.func @em2(
// EM:           %t0_mem = mem.alloc
// EM:           %t0a = mem.transpose %t0 [1, 0]
// EM-NOT:       mem.alloc {{.*}}<device>
// EM:           mem.copy %t0a, %t0a_host
// REPORT: hoist-allocations: @em2: 4 sizes read from views, 2 size computations hoisted, 0 allocations hoisted, 0 in-place targets made earlier
func.func @em2(%ns: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %one = arith.constant 1 : i32
  %t0 = soac.map(%ns) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%r: tensor<?xi32>):
    %s = soac.map(%r) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    soac.yield %s : tensor<?xi32>
  }
  %t0a = soac.transpose %t0 [1, 0] : tensor<?x?xi32> -> tensor<?x?xi32>
  func.return %t0a : tensor<?x?xi32>
}

// -----

// T-EM3 (Fig 3.5): a loop's result has existential memory: the loop carries a block
// and a view, and each iteration's array is in a new block.
// EM-LABEL:   func.func @em3(
// EM:           %xs1_mem, %xs1 = scf.for %i = %c0 to {{%[0-9]+}} step %c1 iter_args(%ys_mem = %xs_mem, %ys = %xs)
// EM:             %ys1_mem = mem.alloc
// EM:             scf.yield %ys1_mem, %ys1
// REPORT: hoist-allocations: @em3: 3 sizes read from views, 2 size computations hoisted, 0 allocations hoisted, 0 in-place targets made earlier
func.func @em3(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %xs[0] : tensor<?xi32>
  %xs1 = scf.for %i = %c0 to %n step %c1 iter_args(%ys = %xs) -> (tensor<?xi32>) {
    %ii = arith.index_cast %i : index to i32
    %ys1 = soac.map(%ys) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %ii : i32
      soac.yield %y : i32
    }
    scf.yield %ys1 : tensor<?xi32>
  }
  func.return %xs1 : tensor<?xi32>
}

// -----

// Fig 7.1 -> 7.2 (coalescing/hoisting/copy): m_res moves above arr's making.
// CHECK-LABEL: func.func @h_copy(
// CHECK:         %res_mem = mem.alloc
// CHECK-NEXT:    %res = mem.view %res_mem
// CHECK:         %arr_mem = mem.alloc
// CHECK-NEXT:    {{%[0-9]+}} = arith.constant 0 : index
// CHECK-NEXT:    %arr = mem.view %arr_mem
// CHECK-NEXT:    mem.iota outs(%arr
// CHECK-NEXT:    mem.copy %arr, %res
// NOALLOC-LABEL: func.func @h_copy(
// NOALLOC:        %arr_mem = mem.alloc
// NOALLOC:        %res_mem = mem.alloc
// REPORT: hoist-allocations: @h_copy: 2 sizes read from views, 2 size computations hoisted, 1 allocations hoisted, 0 in-place targets made earlier
func.func @h_copy(%n: index) -> tensor<?xi32> {
  %arr = soac.iota %n : tensor<?xi32>
  %res = soac.copy %arr : tensor<?xi32>
  func.return %res : tensor<?xi32>
}

// -----

// Figs 7.3-7.5: for t1[i] = t0, both m_t1 and the making of t1 (and of the row it is
// made from) move above t0's making (Fig 7.5); hoisting only m_t1 (Fig 7.4) would let
// t1's making overwrite t0.
// CHECK-LABEL: func.func @h_inplace(
// CHECK:         %t1_mem = mem.alloc
// CHECK:         %t0_mem = mem.alloc
// CHECK:         mem.iota outs(%row
// CHECK-NEXT:    mem.fill %row, %t1
// CHECK-NEXT:    mem.map ins(%ns : {{.*}}) outs(%t0 :
// CHECK:         mem.copy %t0, {{%[0-9]+}}
// REPORT: hoist-allocations: @h_inplace: 5 sizes read from views, 4 size computations hoisted, 1 allocations hoisted, 1 in-place targets made earlier
func.func @h_inplace(%i: index, %ns: tensor<?xi32>) -> tensor<?x?xi32> {
  %one = arith.constant 1 : i32
  %n = soac.size %ns[0] : tensor<?xi32>
  %t0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %row = soac.iota %n : tensor<?xi32>
  %t1 = soac.replicate %n, %row : tensor<?xi32> -> tensor<?x?xi32>
  %t2 = soac.update %t1[%i] = %t0 : tensor<?x?xi32>, tensor<?xi32>
  func.return %t2 : tensor<?x?xi32>
}

// -----

// Figs 7.7 -> 7.9 (allocation-size hoisting): n1 = n + 1 and ys's size move up, so that
// memory-reuse can take max(n, n1) where xs is allocated.
// CHECK-LABEL: func.func @h_sizes(
// CHECK:         %n1 = arith.addi
// CHECK:         %xs0_mem = mem.alloc
// CHECK:         mem.map ins(%xs0
// CHECK:         %k = mem.load %xs[%i]
// CHECK-NEXT:    %ys_mem = mem.alloc
// NOSIZE-LABEL: func.func @h_sizes(
// NOSIZE:         %k = mem.load %xs[%i]
// NOSIZE:         %n1 = arith.addi
// REPORT: hoist-allocations: @h_sizes: 3 sizes read from views, 3 size computations hoisted, 0 allocations hoisted, 0 in-place targets made earlier
func.func @h_sizes(%xs0: tensor<?xi32>, %i: index) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %c1 = arith.constant 1 : index
  %n = soac.size %xs0[0] : tensor<?xi32>
  %xs = soac.map(%xs0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %xs[%i] : tensor<?xi32>
  %n1 = arith.addi %n, %c1 : index
  %ys = soac.replicate %n1, %k : i32 -> tensor<?xi32>
  func.return %ys : tensor<?xi32>
}

// -----

// Figs 7.10/7.11 (the heuristic, chain4): moving vss's making above xs's (so that xs
// could be made in vss[j]) would cross use_wsss, a kernel reading wsss, which vss is
// copied into next: that would stop vss being made in wsss[i], so it stays (Fig 7.10),
// and only the allocations move.
// CHECK-LABEL: func.func @h_heuristic(
// CHECK:         %wsss2_mem = mem.alloc
// CHECK:         %vss_mem = mem.alloc
// CHECK:         mem.map ins(%ns : {{.*}}) outs(%xs :
// CHECK:         mem.map ins(%wsss : {{.*}}) outs(%use_wsss :
// CHECK:         mem.copy %wsss, %wsss2
// CHECK-NEXT:    mem.fill %v1, %vss
// CHECK:         mem.copy %xs, {{%[0-9]+}}
// CHECK:         mem.copy %vss, {{%[0-9]+}}
// REPORT: hoist-allocations: @h_heuristic: 18 sizes read from views, 9 size computations hoisted, 2 allocations hoisted, 1 in-place targets made earlier
func.func @h_heuristic(%wsss0: tensor<?x?x?xi32>, %ns: tensor<?xi32>, %i: index, %j: index) -> (tensor<?x?x?xi32>, tensor<?x?x?xi32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %n = soac.size %ns[0] : tensor<?xi32>
  %wsss = soac.map(%wsss0) : (tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  ^bb0(%wss: tensor<?x?xi32>):
    %a = soac.map(%wss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
    ^bb1(%ws: tensor<?xi32>):
      %b = soac.map(%ws) : (tensor<?xi32>) -> tensor<?xi32> {
      ^bb2(%w: i32):
        %v = arith.addi %w, %one : i32
        soac.yield %v : i32
      }
      soac.yield %b : tensor<?xi32>
    }
    soac.yield %a : tensor<?x?xi32>
  }
  %xs = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %xs[%c0] : tensor<?xi32>
  %use_wsss = soac.map(%wsss) : (tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  ^bb0(%wss: tensor<?x?xi32>):
    %a = soac.map(%wss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
    ^bb1(%ws: tensor<?xi32>):
      %b = soac.map(%ws) : (tensor<?xi32>) -> tensor<?xi32> {
      ^bb2(%w: i32):
        %v = arith.addi %w, %k : i32
        soac.yield %v : i32
      }
      soac.yield %b : tensor<?xi32>
    }
    soac.yield %a : tensor<?x?xi32>
  }
  %v1 = soac.replicate %n, %two : i32 -> tensor<?xi32>
  %vss = soac.replicate %n, %v1 : tensor<?xi32> -> tensor<?x?xi32>
  %vss2 = soac.update %vss[%j] = %xs : tensor<?x?xi32>, tensor<?xi32>
  %wsss2 = soac.update %wsss[%i] = %vss2 : tensor<?x?x?xi32>, tensor<?x?xi32>
  func.return %wsss2, %use_wsss : tensor<?x?x?xi32>, tensor<?x?x?xi32>
}

// -----

// alloc-hinder0: t2's size depends on t0's contents: its allocation cannot move
// above t0's making, only above annoying's.
// CHECK-LABEL: func.func @h_alloc_hinder(
// CHECK:         mem.map ins(%ns : {{.*}}) outs(%t0 :
// CHECK:         %k = arith.index_cast
// CHECK:         %t2_mem = mem.alloc
// CHECK:         %annoying_mem = mem.alloc
// REPORT: hoist-allocations: @h_alloc_hinder: 6 sizes read from views, 3 size computations hoisted, 1 allocations hoisted, 0 in-place targets made earlier
func.func @h_alloc_hinder(%ns: tensor<?xi64>) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %t0 = soac.map(%ns) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %one : i64
    soac.yield %y : i64
  }
  %k0 = soac.index %t0[%c0] : tensor<?xi64>
  %k = arith.index_cast %k0 : i64 to index
  %annoying = soac.iota %k : tensor<?xi64>
  %t2 = soac.concat %t0, %annoying : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  func.return %t2 : tensor<?xi64>
}

// -----

// Nothing moves out of a body: the copy destination's allocation in a loop body moves
// to the body's start, not before the loop.
// CHECK-LABEL: func.func @h_loop_body(
// CHECK:         scf.for
// CHECK:           %db_mem = mem.alloc
// CHECK:           %res_mem = mem.alloc
// CHECK:           mem.copy %res, %db
// REPORT: hoist-allocations: @h_loop_body: 2 sizes read from views, 2 size computations hoisted, 1 allocations hoisted, 0 in-place targets made earlier
func.func @h_loop_body(%xs0: tensor<?xf32>, %iters: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %r = scf.for %it = %c0 to %iters step %c1 iter_args(%xs = %xs0) -> (tensor<?xf32>) {
    %res = soac.map(%xs) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%x: f32):
      %y = arith.mulf %x, %half : f32
      soac.yield %y : f32
    }
    %db = soac.copy %res : tensor<?xf32>
    scf.yield %db : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// -----

// Sizes are read from the views that state them: the size of a view made with
// sizes(%n) is %n, of a slice its count, of a transpose its source's.
// CHECK-LABEL: func.func @h_fold_sizes(
// CHECK:         [[N1:%[0-9]+]] = mem.size %m_host[1]
// CHECK-NEXT:    [[N0:%[0-9]+]] = mem.size %m_host[0]
// CHECK-NOT:     mem.size
// CHECK:         func.return %c, [[N0]], [[N1]]
// REPORT: hoist-allocations: @h_fold_sizes: 5 sizes read from views, 1 size computations hoisted, 0 allocations hoisted, 0 in-place targets made earlier
func.func @h_fold_sizes(%m: tensor<?x?xf32>, %o: index, %c: index) -> (index, index, index) {
  %one = arith.constant 1.0 : f32
  %t = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%r: tensor<?xf32>):
    %s = soac.map(%r) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.addf %x, %one : f32
      soac.yield %y : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  %tt = soac.transpose %t [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %part = soac.slice %tt[%o:%c] : tensor<?x?xf32> -> tensor<?x?xf32>
  %d0 = soac.size %part[0] : tensor<?x?xf32>
  %d1 = soac.size %part[1] : tensor<?x?xf32>
  %d2 = soac.size %tt[0] : tensor<?x?xf32>
  func.return %d0, %d1, %d2 : index, index, index
}
