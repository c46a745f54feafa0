// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=COUNT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true strategy=linear-scan}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{sizes=false allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=NOSIZE
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{loops=false}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | filecheck %s --check-prefix=RUNS
// RUNS: builtin.module
//
// memory-reuse: blocks of other sizes: the max trick (sizes hoisted, or not: NOSIZE),
// many sizes, different dimensions of the same bytes.
//
// memory-reuse's lit tests are the reuse cases of the study's test list (digest §13.3,
// "mode R": allocation-size hoisting, then reuse; the combined cases are ports in
// memory-block-merging/), one file per topic in this folder. CHECK lines show which
// block each array is in, COUNT lines list every allocation and copy left, in order,
// REPORT lines what the pass says it did with its default strategy (colouring) and
// LINEAR with the study's linear scan; NOSIZE without size hoisting, NOLOOP without
// the loop steps, FULL after hoist-allocations and short-circuit too. A RUN line
// without FileCheck puts every case through that pipeline (it must not fail).
//
// Counting against the study: an entry point's used array arguments are copied into
// device blocks of the program's own (`%xs_mem`), and those are the "consumed
// parameters" reused here: the study's 0 allocations are 1 here when the result takes
// its argument's block, and so on.

// R-max-smaller (Fig 5.23, smaller0): ys of n-1 elements after xs's last use.
// Expected: ys -> m_xs, allocated at max(n, n-1) elements; 1 allocation.
// CHECK-LABEL: func.func @r_max_smaller(
// CHECK:         %maxed = arith.maxui
// CHECK-NEXT:    %xs0_mem = mem.alloc %maxed
// CHECK:         %ys = mem.view %xs0_mem
// COUNT-LABEL: @r_max_smaller(
// COUNT-NEXT: %xs0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs0_host, %xs0 :
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_max_smaller: 2 blocks reused (colouring), 8*dim(%xs0_host, 0) - 4 bytes no longer allocated
// REPORT: memory-reuse: @r_max_smaller: %xs_mem reuses %xs0_mem (4*dim(%xs0_host, 0) bytes)
// REPORT: memory-reuse: @r_max_smaller: %ys_mem reuses %xs0_mem (4*dim(%xs0_host, 0) - 4 bytes)
func.func @r_max_smaller(%xs0: tensor<?xi32>, %i: index) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %c1 = arith.constant 1 : index
  %n = soac.size %xs0[0] : tensor<?xi32>
  %xs = soac.map(%xs0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %xs[%i] : tensor<?xi32>
  %n1 = arith.subi %n, %c1 : index
  %ys = soac.replicate %n1, %k : i32 -> tensor<?xi32>
  func.return %ys : tensor<?xi32>
}

// -----

// R-max-larger (Fig 5.24, 7.7-7.9): ys of n+1 elements; its size is computed late.
// Expected: n1 hoisted, maxed = max n n1, ys -> m_xs; 1 allocation. Without size hoisting
// (R-max-invalid, Fig 7.8) the max cannot be taken where m_xs is allocated: no reuse of ys.
// CHECK-LABEL: func.func @r_max_larger(
// CHECK:         %n1 = arith.addi
// CHECK:         %maxed = arith.maxui
// CHECK-NEXT:    %xs0_mem = mem.alloc %maxed
// CHECK:         %ys = mem.view %xs0_mem[{{%[0-9]+}}] sizes(%n1)
// NOSIZE:        memory-reuse: @r_max_larger: 1 blocks reused
// NOSIZE-NEXT:   memory-reuse: @r_max_larger: %xs_mem reuses %xs0_mem
// COUNT-LABEL: @r_max_larger(
// COUNT-NEXT: %xs0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs0_host, %xs0 :
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_max_larger: 2 blocks reused (colouring), 8*dim(%xs0_host, 0) + 4 bytes no longer allocated
// REPORT: memory-reuse: @r_max_larger: %xs_mem reuses %xs0_mem (4*dim(%xs0_host, 0) bytes)
// REPORT: memory-reuse: @r_max_larger: %ys_mem reuses %xs0_mem (4*dim(%xs0_host, 0) + 4 bytes)
func.func @r_max_larger(%xs0: tensor<?xi32>, %i: index) -> tensor<?xi32> {
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

// R-many-sizes (many-different-sizes): four arrays of four sizes, each dead after one read.
// Expected: all four in one block of the max of the four sizes; 1 allocation. Here the
// four arguments are copied to the device on entry, so all four are live at once: each
// array takes its own argument's block instead.
// CHECK-LABEL: func.func @r_many_sizes(
// CHECK:         %a1 = mem.view %a_mem
// CHECK:         %d1 = mem.view %d_mem
// COUNT-LABEL: @r_many_sizes(
// COUNT-NEXT: %a_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %a_host, %a :
// COUNT-NEXT: %b_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %b_host, %b :
// COUNT-NEXT: %c_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %c_host, %c :
// COUNT-NEXT: %d_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %d_host, %d :
// REPORT: memory-reuse: @r_many_sizes: 4 blocks reused (colouring), 4*dim(%a_host, 0) + 4*dim(%b_host, 0) + 4*dim(%c_host, 0) + 4*dim(%d_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_many_sizes: %a1_mem reuses %a_mem (4*dim(%a_host, 0) bytes)
// REPORT: memory-reuse: @r_many_sizes: %b1_mem reuses %b_mem (4*dim(%b_host, 0) bytes)
// REPORT: memory-reuse: @r_many_sizes: %c1_mem reuses %c_mem (4*dim(%c_host, 0) bytes)
// REPORT: memory-reuse: @r_many_sizes: %d1_mem reuses %d_mem (4*dim(%d_host, 0) bytes)
func.func @r_many_sizes(%a: tensor<?xi32>, %b: tensor<?xi32>, %c: tensor<?xi32>, %d: tensor<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %a1 = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %ka = soac.index %a1[%c0] : tensor<?xi32>
  %b1 = soac.map(%b) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %ka : i32
    soac.yield %y : i32
  }
  %kb = soac.index %b1[%c0] : tensor<?xi32>
  %c1 = soac.map(%c) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %kb : i32
    soac.yield %y : i32
  }
  %kc = soac.index %c1[%c0] : tensor<?xi32>
  %d1 = soac.map(%d) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %kc : i32
    soac.yield %y : i32
  }
  %kd = soac.index %d1[%c0] : tensor<?xi32>
  func.return %kd : i32
}

// -----

// R-different-dims-same-bytes (different-dimensions): yss : [m][n], zss : [n][m].
// Expected: zss -> m_yss (the same bytes); 1 allocation.
// CHECK-LABEL: func.func @r_different_dims(
// CHECK:         %zss = mem.view %xss_mem
// COUNT-LABEL: @r_different_dims(
// COUNT-NEXT: %xss_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xss_host, %xss :
// COUNT-NEXT: %row_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %zss_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %zss, %zss_host :
// REPORT: memory-reuse: @r_different_dims: 2 blocks reused (colouring), 8*dim(%xss_host, 0)*dim(%xss_host, 1) bytes no longer allocated
// REPORT: memory-reuse: @r_different_dims: %yss_mem reuses %xss_mem (4*dim(%xss_host, 0)*dim(%xss_host, 1) bytes)
// REPORT: memory-reuse: @r_different_dims: %zss_mem reuses %xss_mem (4*dim(%xss_host, 0)*dim(%xss_host, 1) bytes)
func.func @r_different_dims(%xss: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %m = soac.size %xss[0] : tensor<?x?xi32>
  %n = soac.size %xss[1] : tensor<?x?xi32>
  %yss = soac.map(%xss) : (tensor<?x?xi32>) -> tensor<?x?xi32> {
  ^bb0(%xs: tensor<?xi32>):
    %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    soac.yield %ys : tensor<?xi32>
  }
  %k = soac.index %yss[%c0, %c0] : tensor<?x?xi32>
  %row = soac.replicate %m, %k : i32 -> tensor<?xi32>
  %zss = soac.replicate %n, %row : tensor<?xi32> -> tensor<?x?xi32>
  func.return %zss : tensor<?x?xi32>
}
