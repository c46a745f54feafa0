// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=COUNT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true strategy=linear-scan}' -o /dev/null 2>&1 | filecheck %s --check-prefix=LINEAR
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{sizes=false allocations=false},memory-reuse{report=true}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{loops=false}' | filecheck %s --check-prefix=RUNS
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | filecheck %s --check-prefix=RUNS
// RUNS: builtin.module
//
// memory-reuse: last uses: a choice between blocks, a result's last use, an if's last
// uses.
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

// R-choice (Fig 5.27, simple2): xs and ys both die at k; zs may take either block.
// Expected: zs -> m_xs (the first candidate); 2 allocations.
// CHECK-LABEL: func.func @r_choice(
// CHECK:         %zs = mem.view %xs0_mem
// LINEAR:        memory-reuse: @r_choice: %zs_mem reuses %xs0_mem
// COUNT-LABEL: @r_choice(
// COUNT-NEXT: %xs0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs0_host, %xs0 :
// COUNT-NEXT: %ys0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %ys0_host, %ys0 :
// COUNT-NEXT: %zs_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %zs, %zs_host :
// REPORT: memory-reuse: @r_choice: 3 blocks reused (colouring), 8*dim(%xs0_host, 0) + 4*dim(%ys0_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_choice: %xs_mem reuses %xs0_mem (4*dim(%xs0_host, 0) bytes)
// REPORT: memory-reuse: @r_choice: %zs_mem reuses %xs0_mem (4*dim(%xs0_host, 0) bytes)
// REPORT: memory-reuse: @r_choice: %ys_mem reuses %ys0_mem (4*dim(%ys0_host, 0) bytes)
func.func @r_choice(%xs0: tensor<?xi32>, %ys0: tensor<?xi32>, %i: index) -> tensor<?xi32> {
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %n = soac.size %xs0[0] : tensor<?xi32>
  %xs = soac.map(%xs0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %two : i32
    soac.yield %y : i32
  }
  %ys = soac.map(%ys0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %three : i32
    soac.yield %y : i32
  }
  %a = soac.index %xs[%i] : tensor<?xi32>
  %b = soac.index %ys[%i] : tensor<?xi32>
  %k = arith.addi %a, %b : i32
  %zs = soac.replicate %n, %k : i32 -> tensor<?xi32>
  func.return %zs : tensor<?xi32>
}

// -----

// R-result-last-use (Fig 6.1): dst0's last use is the function's result, not k.
// Expected: NO reuse of dst0 (its last use is the result); 2 allocations.
// CHECK-LABEL: func.func @r_result_last_use(
// CHECK:         %dst0 = mem.view %dst0_mem
// CHECK:         %dst1 = mem.view %src_mem
// COUNT-LABEL: @r_result_last_use(
// COUNT-NEXT: %src_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %src_host, %src :
// COUNT-NEXT: %dst0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %dst0_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %dst0, %dst0_host :
// COUNT-NEXT: %dst1_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %dst1, %dst1_host :
// REPORT: memory-reuse: @r_result_last_use: 1 blocks reused (colouring), 4*dim(%src_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_result_last_use: %dst1_mem reuses %src_mem (4*dim(%src_host, 0) bytes)
func.func @r_result_last_use(%src: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %dst0 = soac.map(%src) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %dst0[%c0] : tensor<?xi32>
  %dst1 = soac.map(%src) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %k : i32
    soac.yield %y : i32
  }
  func.return %dst0, %dst1 : tensor<?xi32>, tensor<?xi32>
}

// -----

// R-cond-last-use (Fig 9.7): zs_then could take xs's block if last uses were
// conditional; they are not (the study's limitation L7), and a branch's arrays are
// only merged with its own.
// Expected: no reuse of m_xs for zs_then (the study's limitation L7; an improved analysis
// would give zs_then -> m_xs).
// CHECK-LABEL: func.func @r_cond_last_use(
// CHECK:         scf.if
// CHECK:           %zs_then_mem = mem.alloc
// COUNT-LABEL: @r_cond_last_use(
// COUNT-NEXT: %xs0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs0_host, %xs0 :
// COUNT-NEXT: %zs_then_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_cond_last_use: 1 blocks reused (colouring), 4*dim(%xs0_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_cond_last_use: %xs_mem reuses %xs0_mem (4*dim(%xs0_host, 0) bytes)
func.func @r_cond_last_use(%xs0: tensor<?xi32>, %cond: i1, %i: index) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %n = soac.size %xs0[0] : tensor<?xi32>
  %xs = soac.map(%xs0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %xs[%i] : tensor<?xi32>
  %ys = scf.if %cond -> (tensor<?xi32>) {
    %zs_then = soac.replicate %n, %k : i32 -> tensor<?xi32>
    scf.yield %zs_then : tensor<?xi32>
  } else {
    scf.yield %xs : tensor<?xi32>
  }
  func.return %ys : tensor<?xi32>
}
