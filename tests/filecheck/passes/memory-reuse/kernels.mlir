// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=COUNT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true strategy=linear-scan}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{sizes=false allocations=false},memory-reuse{report=true}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{loops=false}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | filecheck %s --check-prefix=RUNS
// RUNS: builtin.module
//
// memory-reuse: inside kernels: the data-race rule, the max trick per lane, a captured
// array's last read.
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

// R-kernel-race (the kernel data-race rule): a map over the transpose of xss reads, in
// lane i, column i of xss: its output must not take xss's block even though xss dies
// there (lanes would overwrite rows other lanes still read).
// Expected: they interfere.
// CHECK-LABEL: func.func @r_kernel_race_layout(
// CHECK:         %yss = mem.view %yss_mem
// COUNT-LABEL: @r_kernel_race_layout(
// COUNT-NEXT: %xss_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xss_host, %xss :
// COUNT-NEXT: %yss_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %yss_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %yss, %yss_host :
// REPORT: memory-reuse: @r_kernel_race_layout: 0 blocks reused (colouring), 0 bytes no longer allocated
func.func @r_kernel_race_layout(%xss: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %one = arith.constant 1.0 : f32
  %t = soac.transpose %xss [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %yss = soac.map(%t) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%col: tensor<?xf32>):
    %r = soac.map(%col) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.addf %x, %one : f32
      soac.yield %y : f32
    }
    soac.yield %r : tensor<?xf32>
  }
  func.return %yss : tensor<?x?xf32>
}

// -----

// R-kernel-race, element sizes: i32 rows into i64 rows would make lane i write bytes
// lane 2i still reads.
// Expected: they interfere.
// CHECK-LABEL: func.func @r_kernel_race_sizes(
// CHECK:         %ys = mem.view %ys_mem
// COUNT-LABEL: @r_kernel_race_sizes(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %ys_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_kernel_race_sizes: 0 blocks reused (colouring), 0 bytes no longer allocated
func.func @r_kernel_race_sizes(%xs: tensor<?xi32>) -> tensor<?xi64> {
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi64> {
  ^bb0(%x: i32):
    %y = arith.extsi %x : i32 to i64
    soac.yield %y : i64
  }
  func.return %ys : tensor<?xi64>
}

// -----

// R-kernel-max (the max trick inside kernels): each lane allocates a row of n and a row
// of m elements, one after the other's last use: one per-lane block of max(n, m).
// Expected: s_max = max s0 s1 for the allocation inside the kernel.
// CHECK-LABEL: func.func @r_kernel_max(
// CHECK:         mem.map
// CHECK:           %maxed = arith.maxui
// CHECK-NEXT:      %a_mem = mem.alloc %maxed
// CHECK:           %b = mem.view %a_mem
// COUNT-LABEL: @r_kernel_max(
// COUNT-NEXT: %xss_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xss_host, %xss :
// COUNT-NEXT: %r_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %a_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %r_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %r, %r_host :
// REPORT: memory-reuse: @r_kernel_max: 1 blocks reused (colouring), 4*%m bytes no longer allocated
// REPORT: memory-reuse: @r_kernel_max: %b_mem reuses %a_mem (4*%m bytes)
func.func @r_kernel_max(%xss: tensor<?x?xi32>, %m: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %n = soac.size %xss[1] : tensor<?x?xi32>
  %r = soac.map(%xss) : (tensor<?x?xi32>) -> tensor<?xi32> {
  ^bb0(%xs: tensor<?xi32>):
    %a = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb1(%x: i32):
      %y = arith.muli %x, %x : i32
      soac.yield %y : i32
    }
    %k = soac.reduce(%a) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb1(%l: i32, %q: i32):
      %s = arith.addi %l, %q : i32
      soac.yield %s : i32
    }
    %b = soac.replicate %m, %k : i32 -> tensor<?xi32>
    %s2 = soac.reduce(%b) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb1(%l: i32, %q: i32):
      %s = arith.addi %l, %q : i32
      soac.yield %s : i32
    }
    soac.yield %s2 : i32
  }
  func.return %r : tensor<?xi32>
}

// -----

// A lambda that yields an array captured from outside (here through an `if`) copies it
// into its output row when it ends: the map reads %p, so %p is live until the map and
// the iota made before the map may not reuse %p's block. (A regression: the map's
// yield was not counted as a read, and the iota overwrote %p.)
// CHECK-LABEL: func.func @yielded_capture(
// CHECK:         %p_mem = mem.alloc
// CHECK:         %ir_mem = mem.alloc
// CHECK-NEXT:    %ir = mem.view %ir_mem
func.func @yielded_capture(%m: tensor<?x?xf32>, %p: tensor<?xf32>, %k: index) -> tensor<?x?xf32> {
  %rows = soac.size %m[0] : tensor<?x?xf32>
  %ir = soac.iota %rows : tensor<?xindex>
  %r = soac.map(%m, %ir) : (tensor<?x?xf32>, tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>, %i: index):
    %isk = arith.cmpi eq, %i, %k : index
    %new = scf.if %isk -> (tensor<?xf32>) {
      scf.yield %p : tensor<?xf32>
    } else {
      scf.yield %row : tensor<?xf32>
    }
    soac.yield %new : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}
