// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=COUNT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true strategy=linear-scan}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{sizes=false allocations=false},memory-reuse{report=true}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,memory-reuse{strategy=first-fit}' --verify-diagnostics | filecheck %s --check-prefix=BAD
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{loops=false}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | filecheck %s --check-prefix=RUNS
// RUNS: builtin.module
//
// memory-reuse: blocks reused when arrays die (the study's basic cases, chains,
// interference) and the option that names an unknown strategy.
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

// BAD: memory-reuse: unknown strategy 'first-fit'; use one of colouring, linear-scan

// R-basic (Fig 5.10, reuse/misc/simple0): xs = map (+1) xs0; k = xs[i]; ys = replicate n k.
// Expected: ys -> m_xs; 1 allocation (here xs is made in its argument's block too).
// CHECK-LABEL: func.func @r_basic(
// CHECK:         %xs = mem.view %xs0_mem
// CHECK:         %ys = mem.view %xs0_mem
// CHECK-NEXT:    mem.fill %k, %ys
// COUNT-LABEL: @r_basic(
// COUNT-NEXT: %xs0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs0_host, %xs0 :
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_basic: 2 blocks reused (colouring), 8*dim(%xs0_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_basic: %xs_mem reuses %xs0_mem (4*dim(%xs0_host, 0) bytes)
// REPORT: memory-reuse: @r_basic: %ys_mem reuses %xs0_mem (4*dim(%xs0_host, 0) bytes)
func.func @r_basic(%xs0: tensor<?xi32>, %i: index) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %n = soac.size %xs0[0] : tensor<?xi32>
  %xs = soac.map(%xs0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %xs[%i] : tensor<?xi32>
  %ys = soac.replicate %n, %k : i32 -> tensor<?xi32>
  func.return %ys : tensor<?xi32>
}

// -----

// R-size-var-eq (reuse/misc/simple1): ys = replicate (length xs) k.
// Expected: 1 allocation: length xs and n are one size.
// CHECK-LABEL: func.func @r_size_var_eq(
// CHECK-NOT:     arith.maxui
// CHECK:         %ys = mem.view %xs0_mem
// COUNT-LABEL: @r_size_var_eq(
// COUNT-NEXT: %xs0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs0_host, %xs0 :
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_size_var_eq: 2 blocks reused (colouring), 8*dim(%xs0_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_size_var_eq: %xs_mem reuses %xs0_mem (4*dim(%xs0_host, 0) bytes)
// REPORT: memory-reuse: @r_size_var_eq: %ys_mem reuses %xs0_mem (4*dim(%xs0_host, 0) bytes)
func.func @r_size_var_eq(%xs0: tensor<?xi32>, %i: index) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %xs = soac.map(%xs0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %len = soac.size %xs[0] : tensor<?xi32>
  %k = soac.index %xs[%i] : tensor<?xi32>
  %ys = soac.replicate %len, %k : i32 -> tensor<?xi32>
  func.return %ys : tensor<?xi32>
}

// -----

// R-chain (reuse/chain/chain0): xs, then ys, then zs, each dead when the next is made.
// Expected: ys, zs -> m_xs; 1 allocation.
// CHECK-LABEL: func.func @r_chain(
// CHECK:         %ys = mem.view %ns_mem
// CHECK:         %zs = mem.view %ns_mem
// COUNT-LABEL: @r_chain(
// COUNT-NEXT: %xs0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs0_host, %xs0 :
// COUNT-NEXT: %ns_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %ns_host, %ns :
// COUNT-NEXT: %zs_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %zs, %zs_host :
// REPORT: memory-reuse: @r_chain: 3 blocks reused (colouring), 8*dim(%ns_host, 0) + 4*dim(%xs0_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_chain: %xs_mem reuses %xs0_mem (4*dim(%xs0_host, 0) bytes)
// REPORT: memory-reuse: @r_chain: %ys_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
// REPORT: memory-reuse: @r_chain: %zs_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
func.func @r_chain(%xs0: tensor<?xi32>, %ns: tensor<?xi32>, %i: index) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %n = soac.size %ns[0] : tensor<?xi32>
  %xs = soac.map(%xs0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k0 = soac.index %xs[%i] : tensor<?xi32>
  %ys = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k0 : i32
    soac.yield %y : i32
  }
  %k1 = soac.index %ys[%i] : tensor<?xi32>
  %zs = soac.replicate %n, %k1 : i32 -> tensor<?xi32>
  func.return %zs : tensor<?xi32>
}

// -----

// R-interfere (Fig 5.17, overlap0): a and b are both live when b is made.
// Expected: a and b in blocks of their own; 2 allocations (b may take its argument's block).
// CHECK-LABEL: func.func @r_interfere(
// CHECK:         %a = mem.view %a_mem
// CHECK:         %b = mem.view %xs_mem
// COUNT-LABEL: @r_interfere(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %a_mem = mem.alloc {{.*}} : !mem.block<device>
// REPORT: memory-reuse: @r_interfere: 1 blocks reused (colouring), 4*dim(%xs_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_interfere: %b_mem reuses %xs_mem (4*dim(%xs_host, 0) bytes)
func.func @r_interfere(%xs: tensor<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ten = arith.constant 10 : i32
  %a = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %b = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %ten : i32
    soac.yield %y : i32
  }
  %a_end = soac.index %a[%c0] : tensor<?xi32>
  %b_end = soac.index %b[%c0] : tensor<?xi32>
  %s = arith.addi %a_end, %b_end : i32
  func.return %s : i32
}

// -----

// R-partial-interfere (overlap1): a-b and b-c interfere, c may take a's block.
// Expected: c -> a dead block (m_a in the study); 2 allocations. Here c takes xs's
// block, freed by the same map (an index-access exception), and a keeps its own.
// CHECK-LABEL: func.func @r_partial_interfere(
// CHECK:         %a = mem.view %a_mem
// CHECK:         %b = mem.view %b_mem
// CHECK:         %c = mem.view %xs_mem
// COUNT-LABEL: @r_partial_interfere(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %a_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %b_mem = mem.alloc {{.*}} : !mem.block<device>
// REPORT: memory-reuse: @r_partial_interfere: 1 blocks reused (colouring), 4*dim(%xs_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_partial_interfere: %c_mem reuses %xs_mem (4*dim(%xs_host, 0) bytes)
func.func @r_partial_interfere(%xs: tensor<?xi32>) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %ten = arith.constant 10 : i32
  %a = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %b = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %ten : i32
    soac.yield %y : i32
  }
  %b0 = soac.index %b[%c0] : tensor<?xi32>
  %a0 = soac.index %a[%c0] : tensor<?xi32>
  %a_end = arith.addi %b0, %a0 : i32
  %c = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %three : i32
    soac.yield %y : i32
  }
  %b1 = soac.index %b[%c1] : tensor<?xi32>
  %c0v = soac.index %c[%c0] : tensor<?xi32>
  %r = arith.addi %b1, %a_end : i32
  func.return %r, %c0v : i32, i32
}
