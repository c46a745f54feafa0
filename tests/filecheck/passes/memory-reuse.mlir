// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=COUNT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{report=true strategy=linear-scan}' -o /dev/null 2>&1 | filecheck %s --check-prefix=LINEAR
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{sizes=false allocations=false},memory-reuse{report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=NOSIZE
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,memory-reuse{strategy=first-fit}' --verify-diagnostics | filecheck %s --check-prefix=BAD
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations{allocations=false},memory-reuse{loops=false}' | filecheck %s --check-prefix=NOLOOP
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,hoist-allocations,short-circuit,memory-reuse' | grep -E 'func.func|mem.alloc|mem.copy' | filecheck %s --check-prefix=FULL
//
// memory-reuse on every reuse case of the study's test list (digest §13.3, "mode R":
// allocation-size hoisting, then reuse; the combined cases are ports in
// memory-block-merging/). CHECK lines show which block each array is in, COUNT lines
// list every allocation and copy left, in order, REPORT lines what the pass says it did
// with its default strategy (colouring) and LINEAR with the study's linear scan.
//
// Counting against the study: an entry point's used array arguments are copied into
// device blocks of the program's own (`%xs_mem`), and those are the "consumed
// parameters" reused here: the study's 0 allocations are 1 here when the result takes
// its argument's block, and so on.
//
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

// -----

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

// R-unique-param (input-reuse/simple-pos0): map (+1) xs, in xs's (device) block.
// Expected: ys -> m_xs; 0 allocations (here xs's device block).
// CHECK-LABEL: func.func @r_unique_param(
// CHECK:         %ys = mem.view %xs_mem
// CHECK-NEXT:    mem.map ins(%xs : {{.*}}) outs(%ys :
// COUNT-LABEL: @r_unique_param(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_unique_param: 1 blocks reused (colouring), 4*dim(%xs_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_unique_param: %ys_mem reuses %xs_mem (4*dim(%xs_host, 0) bytes)
func.func @r_unique_param(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %one = arith.constant 1.0 : f32
  %ys = soac.map(%xs) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %one : f32
    soac.yield %y : f32
  }
  func.return %ys : tensor<?xf32>
}

// -----

// R-unique-param-type-size (different-type-sizes): an i64 result cannot be built in
// the i32 argument's block (lanes would overlap).
// Expected: no reuse (element size differs); 1 allocation.
// CHECK-LABEL: func.func @r_unique_param_type_size(
// CHECK:         %ys = mem.view %ys_mem
// COUNT-LABEL: @r_unique_param_type_size(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %ys_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_unique_param_type_size: 0 blocks reused (colouring), 0 bytes no longer allocated
func.func @r_unique_param_type_size(%xs: tensor<?xi32>) -> tensor<?xi64> {
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi64> {
  ^bb0(%x: i32):
    %y = arith.extsi %x : i32 to i64
    soac.yield %y : i64
  }
  func.return %ys : tensor<?xi64>
}

// -----

// R-assert-tracking (unique-input-assert-tracking): x: *[n], y: [n]; k = x[0]; map (+k) y.
// Here nothing says the two sizes are equal: z takes x's block with the max of both.
// Expected: z -> m_x via the size equality assert; 0 allocations. Here y's block
// is freed by the map (an exception) and taken: the same count.
// CHECK-LABEL: func.func @r_assert_tracking(
// CHECK:         %z = mem.view %y_mem
// COUNT-LABEL: @r_assert_tracking(
// COUNT-NEXT: %x_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %x_host, %x :
// COUNT-NEXT: %y_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %y_host, %y :
// COUNT-NEXT: %z_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %z, %z_host :
// REPORT: memory-reuse: @r_assert_tracking: 1 blocks reused (colouring), 4*dim(%y_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_assert_tracking: %z_mem reuses %y_mem (4*dim(%y_host, 0) bytes)
func.func @r_assert_tracking(%x: tensor<?xi32>, %y: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %k = soac.index %x[%c0] : tensor<?xi32>
  %z = soac.map(%y) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%e: i32):
    %f = arith.addi %e, %k : i32
    soac.yield %f : i32
  }
  func.return %z : tensor<?xi32>
}

// -----

// R-assert-tracking, with a fact: zipping x and y makes the map check that their sizes
// are equal, so z takes x's block (an index-access exception) without a max.
// Expected: z -> m_x without a max: the map checks that x and y have one size.
// CHECK-LABEL: func.func @r_assert_fact(
// CHECK-NOT:     arith.maxui
// CHECK:         %z = mem.view %x_mem
// COUNT-LABEL: @r_assert_fact(
// COUNT-NEXT: %x_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %x_host, %x :
// COUNT-NEXT: %y_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %y_host, %y :
// COUNT-NEXT: %z_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %z, %z_host :
// REPORT: memory-reuse: @r_assert_fact: 1 blocks reused (colouring), 4*dim(%x_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_assert_fact: %z_mem reuses %x_mem (4*dim(%x_host, 0) bytes)
func.func @r_assert_fact(%x: tensor<?xi32>, %y: tensor<?xi32>) -> tensor<?xi32> {
  %z = soac.map(%x, %y) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%a: i32, %b: i32):
    %f = arith.addi %a, %b : i32
    soac.yield %f : i32
  }
  func.return %z : tensor<?xi32>
}

// -----

// R-unique-interfering (unique-input): shifted writes u[i] = t[i-1] + k make z
// interfere with x; v may take x's block, not z's.
// Expected: z does not take m_x (lane i reads x[i-1]); v -> m_x; 1 allocation.
// CHECK-LABEL: func.func @r_unique_interfering(
// CHECK:         %z = mem.view %z_mem
// CHECK:         %w = mem.view %x_mem
// COUNT-LABEL: @r_unique_interfering(
// COUNT-NEXT: %x_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %x_host, %x :
// COUNT-NEXT: %is_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %z_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %w_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %w, %w_host :
// REPORT: memory-reuse: @r_unique_interfering: 1 blocks reused (colouring), 4*dim(%x_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_unique_interfering: %w_mem reuses %x_mem (4*dim(%x_host, 0) bytes)
func.func @r_unique_interfering(%x: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %n = soac.size %x[0] : tensor<?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %z = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %first = arith.cmpi eq, %i, %c0 : index
    %v = scf.if %first -> (i32) {
      scf.yield %zero : i32
    } else {
      %p = arith.subi %i, %c1 : index
      %t = soac.index %x[%p] : tensor<?xi32>
      %s = arith.addi %t, %one : i32
      scf.yield %s : i32
    }
    soac.yield %v : i32
  }
  %k = soac.index %z[%c1] : tensor<?xi32>
  %w = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %first = arith.cmpi eq, %i, %c0 : index
    %v = scf.if %first -> (i32) {
      scf.yield %zero : i32
    } else {
      %p = arith.subi %i, %c1 : index
      %t = soac.index %z[%p] : tensor<?xi32>
      %s = arith.addi %t, %k : i32
      scf.yield %s : i32
    }
    soac.yield %v : i32
  }
  func.return %w : tensor<?xi32>
}

// -----

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

// R-loop-outside (Fig 6.3, copy-from-outside): t is made before the loop and read in
// every iteration: nothing in the loop may take its block.
// Expected: no reuse of t's block inside the loop. Here v, the next iteration's acc,
// is made in init's block (the loop iterates in place: init's block is the loop's, and
// it no longer carries acc), so u keeps a block of its own: 3 device blocks, as when v
// takes u's block.
// CHECK-LABEL: func.func @r_loop_outside(
// CHECK:         %t = mem.view %t_mem
// CHECK:         scf.for %i = %c0 to %k step %c1 {
// CHECK:           %u = mem.view %u_mem
// CHECK:           %v = mem.view %init_mem
// CHECK:         mem.copy %init, %res_host
// COUNT-LABEL: @r_loop_outside(
// COUNT-NEXT: %t_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %init_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %u_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %res_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %init, %res_host :
// REPORT: memory-reuse: @r_loop_outside: 1 blocks reused (colouring), 4*%k bytes no longer allocated
// REPORT: memory-reuse: @r_loop_outside: %v_mem reuses %init_mem (the loop's carried block) (4*%k bytes)
func.func @r_loop_outside(%k: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = soac.iota %k : tensor<?xi32>
  %init = soac.iota %k : tensor<?xi32>
  %res = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %init) -> (tensor<?xi32>) {
    %u = soac.map(%acc, %t) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      soac.yield %s : i32
    }
    %v = soac.map(%u) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%a: i32):
      %s = arith.muli %a, %a : i32
      soac.yield %s : i32
    }
    scf.yield %v : tensor<?xi32>
  }
  func.return %res : tensor<?xi32>
}

// -----

// R-loop-inner (reuse/loop/loop1): in the body, xs2 takes xs1's block.
// Expected: xs2 -> m_xs1; 2 allocations. Here xs2 is made in the carried block instead
// (the map reads xs[i] before writing xs2[i], and the loop consumes xs0's device
// block): the loop iterates in place, also 2 allocations.
// CHECK-LABEL: func.func @r_loop_inner(
// CHECK:         scf.for %it = %c0 to {{%[0-9]+}} step %c1 {
// CHECK:           %xs1 = mem.view %xs1_mem
// CHECK:           %xs2 = mem.view %xs0_mem
// COUNT-LABEL: @r_loop_inner(
// COUNT-NEXT: %xs0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs0_host, %xs0 :
// COUNT-NEXT: %xs1_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %r_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %xs0, %r_host :
// REPORT: memory-reuse: @r_loop_inner: 1 blocks reused (colouring), 4*dim(%xs0_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_loop_inner: %xs2_mem reuses %xs0_mem (the loop's carried block) (4*dim(%xs0_host, 0) bytes)
func.func @r_loop_inner(%xs0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %xs0[0] : tensor<?xi32>
  %r = scf.for %it = %c0 to %n step %c1 iter_args(%xs = %xs0) -> (tensor<?xi32>) {
    %xs1 = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %k = soac.index %xs1[%c0] : tensor<?xi32>
    %xs2 = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %k : i32
      soac.yield %y : i32
    }
    scf.yield %xs2 : tensor<?xi32>
  }
  func.return %r : tensor<?xi32>
}

// -----

// R-index-exception (Fig 6.6, multiple-pos0): ys = map (+k0) xs reads xs[i] and writes
// ys[i] only: ys takes xs's block although xs's last use makes ys.
// Expected: exception (m_ys, m_xs), ys -> m_xs; 1 allocation.
// CHECK-LABEL: func.func @r_index_exception(
// CHECK:         %xs = mem.view %ns_mem
// CHECK:         %ys = mem.view %ns_mem
// CHECK-NEXT:    mem.map ins(%xs : {{.*}}) outs(%ys :
// COUNT-LABEL: @r_index_exception(
// COUNT-NEXT: %ns_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %ns_host, %ns :
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_index_exception: 2 blocks reused (colouring), 8*dim(%ns_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_index_exception: %xs_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
// REPORT: memory-reuse: @r_index_exception: %ys_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
func.func @r_index_exception(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %xs = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k0 = soac.index %xs[%c0] : tensor<?xi32>
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k0 : i32
    soac.yield %y : i32
  }
  func.return %ys : tensor<?xi32>
}

// -----

// multiple-pos1: three arrays in a row, all in one block.
// Expected (multiple-pos1): 1 allocation.
// CHECK-LABEL: func.func @r_index_exception3(
// CHECK:         %zs = mem.view %ns_mem
// CHECK-NEXT:    mem.map ins(%ys : {{.*}}) outs(%zs :
// COUNT-LABEL: @r_index_exception3(
// COUNT-NEXT: %ns_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %ns_host, %ns :
// COUNT-NEXT: %zs_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %zs, %zs_host :
// REPORT: memory-reuse: @r_index_exception3: 3 blocks reused (colouring), 12*dim(%ns_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_index_exception3: %xs_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
// REPORT: memory-reuse: @r_index_exception3: %ys_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
// REPORT: memory-reuse: @r_index_exception3: %zs_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
func.func @r_index_exception3(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %xs = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k0 = soac.index %xs[%c0] : tensor<?xi32>
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k0 : i32
    soac.yield %y : i32
  }
  %k1 = soac.index %ys[%c0] : tensor<?xi32>
  %zs = soac.map(%ys) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %k1 : i32
    soac.yield %y : i32
  }
  func.return %zs : tensor<?xi32>
}

// -----

// R-index-neg (input-reuse/difficult-neg0): xs is used again after ys is made.
// Expected (difficult-neg0): ys does not take xs's block (xs is read again); 1 allocation.
// Here zs takes it, as both die as zs is made lane by lane.
// CHECK-LABEL: func.func @r_index_neg(
// CHECK:         %ys = mem.view %ys_mem
// CHECK:         %zs = mem.view %xs_mem
// COUNT-LABEL: @r_index_neg(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %ys_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %zs_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %zs, %zs_host :
// REPORT: memory-reuse: @r_index_neg: 1 blocks reused (colouring), 4*dim(%xs_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_index_neg: %zs_mem reuses %xs_mem (4*dim(%xs_host, 0) bytes)
func.func @r_index_neg(%xs: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ys = soac.map(%xs) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %ys[%c0] : tensor<?xi32>
  %zs = soac.map(%xs, %ys) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    %t = arith.addi %s, %k : i32
    soac.yield %t : i32
  }
  func.return %zs : tensor<?xi32>
}

// -----

// R-mismatched-index (interfering-neg1): ys[i] = t[n-i-1] + k: no exception.
// Expected: no exception for ys, no reuse; 2 allocations.
// CHECK-LABEL: func.func @r_mismatched_index(
// CHECK:         %ys = mem.view %ys_mem
// COUNT-LABEL: @r_mismatched_index(
// COUNT-NEXT: %t0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %t0_host, %t0 :
// COUNT-NEXT: %is_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %ys_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %ys_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %ys, %ys_host :
// REPORT: memory-reuse: @r_mismatched_index: 1 blocks reused (colouring), 4*dim(%t0_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_mismatched_index: %t_mem reuses %t0_mem (4*dim(%t0_host, 0) bytes)
func.func @r_mismatched_index(%t0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %t0[0] : tensor<?xi32>
  %t = soac.map(%t0) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %k = soac.index %t[%c0] : tensor<?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %ys = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %last = arith.subi %n, %c1 : index
    %j = arith.subi %last, %i : index
    %e = soac.index %t[%j] : tensor<?xi32>
    %s = arith.addi %e, %k : i32
    soac.yield %s : i32
  }
  func.return %ys : tensor<?xi32>
}

// -----

// R-linear-scan-suboptimal (Fig 9.6, limitation0). With the real last uses, xs0, xs1 and
// xs2 interfere pairwise (a clique of three), so three blocks is the optimum here; xs3
// takes xs1's block (the study's table counts xs0 and xs1 as interference-free).
// Expected (study): linear scan 4 -> 3 blocks, optimum 2 by its table; here 3 either way.
// CHECK-LABEL: func.func @r_limitation(
// CHECK:         %xs0 = mem.view %xs0_mem
// CHECK:         %xs2 = mem.view %xs2_mem
// CHECK:         %xs3 = mem.view %ns_mem
// LINEAR:        memory-reuse: @r_limitation: 2 blocks reused
// COUNT-LABEL: @r_limitation(
// COUNT-NEXT: %ns_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %ns_host, %ns :
// COUNT-NEXT: %is_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %xs0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %xs2_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %xs3_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %xs3, %xs3_host :
// REPORT: memory-reuse: @r_limitation: 2 blocks reused (colouring), 8*dim(%ns_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_limitation: %xs1_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
// REPORT: memory-reuse: @r_limitation: %xs3_mem reuses %ns_mem (4*dim(%ns_host, 0) bytes)
func.func @r_limitation(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 1 : i32
  %n = soac.size %ns[0] : tensor<?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %xs0 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k0 : i32
    soac.yield %y : i32
  }
  %k1 = soac.index %xs0[%c0] : tensor<?xi32>
  %xs1 = soac.map(%ns) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %k1 : i32
    soac.yield %y : i32
  }
  %k2 = soac.index %xs1[%c0] : tensor<?xi32>
  %xs2 = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %last = arith.subi %n, %c1 : index
    %j = arith.subi %last, %i : index
    %e = soac.index %xs1[%j] : tensor<?xi32>
    %s = arith.addi %e, %k2 : i32
    soac.yield %s : i32
  }
  %k3 = soac.index %xs2[%c0] : tensor<?xi32>
  %xs3 = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %last = arith.subi %n, %c1 : index
    %j = arith.subi %last, %i : index
    %e = soac.index %xs0[%j] : tensor<?xi32>
    %f = soac.index %xs2[%j] : tensor<?xi32>
    %s = arith.addi %e, %f : i32
    %t = arith.addi %s, %k3 : i32
    soac.yield %t : i32
  }
  func.return %xs3 : tensor<?xi32>
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

// -----

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

// -----

// Where linear scan is not optimal (study §9.2): a (40 floats a row) and b (1) are
// made together and die together; then c (1) is made, then d (40). First fit gives c
// the first free block, a's, ten times too big for it, and d then only fits in b's
// block grown to its size: two classes of 40 each. Colouring by size puts c in b's
// block and d in a's: 40 + 1, and a lower peak.
// CHECK-LABEL: func.func @r_colouring(
// CHECK:         %a = mem.view %a_mem
// CHECK:         %b = mem.view %b_mem
// CHECK:         %c = mem.view %b_mem
// CHECK:         %d = mem.view %a_mem
// LINEAR:        memory-reuse: @r_colouring: %c_mem reuses %a_mem
// LINEAR-NEXT:   memory-reuse: @r_colouring: %d_mem reuses %b_mem
// COUNT-LABEL: @r_colouring(
// COUNT-NEXT: %x_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %x_host, %x :
// COUNT-NEXT: %y_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %y_host, %y :
// COUNT-NEXT: %a_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: %b_mem = mem.alloc {{.*}} : !mem.block<device>
// REPORT: memory-reuse: @r_colouring: 2 blocks reused (colouring), 4*dim(%x_host, 0) + 160*dim(%y_host, 0) bytes no longer allocated
// REPORT: memory-reuse: @r_colouring: %d_mem reuses %a_mem (160*dim(%y_host, 0) bytes)
// REPORT: memory-reuse: @r_colouring: %c_mem reuses %b_mem (4*dim(%x_host, 0) bytes)
func.func @r_colouring(%x: tensor<?xf32>, %y: tensor<?x40xf32>) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a = soac.map(%y) : (tensor<?x40xf32>) -> tensor<?x40xf32> {
  ^bb0(%r: tensor<40xf32>):
    %s = soac.map(%r) : (tensor<40xf32>) -> tensor<40xf32> {
    ^bb1(%e: f32):
      %f = arith.addf %e, %one : f32
      soac.yield %f : f32
    }
    soac.yield %s : tensor<40xf32>
  }
  %b = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%e: f32):
    %f = arith.addf %e, %one : f32
    soac.yield %f : f32
  }
  %ka = soac.index %a[%c0, %c0] : tensor<?x40xf32>
  %kb = soac.index %b[%c0] : tensor<?xf32>
  %c = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%e: f32):
    %f = arith.addf %e, %kb : f32
    soac.yield %f : f32
  }
  %d = soac.map(%y) : (tensor<?x40xf32>) -> tensor<?x40xf32> {
  ^bb0(%r: tensor<40xf32>):
    %s = soac.map(%r) : (tensor<40xf32>) -> tensor<40xf32> {
    ^bb1(%e: f32):
      %f = arith.addf %e, %ka : f32
      soac.yield %f : f32
    }
    soac.yield %s : tensor<40xf32>
  }
  %kc = soac.index %c[%c0] : tensor<?xf32>
  %kd = soac.index %d[%c0, %c0] : tensor<?x40xf32>
  %s1 = arith.addf %kc, %kd : f32
  %x1 = soac.index %x[%c0] : tensor<?xf32>
  %y1 = soac.index %y[%c0, %c0] : tensor<?x40xf32>
  %s2 = arith.addf %x1, %y1 : f32
  func.return %s1, %s2 : f32, f32
}

// -----

// A lane that yields its input element to a second output reads it when the lane
// ends, after it has written the first output: the first output must not take the
// input's block (index-access exception refused); the second may (each lane writes
// back the element it read). Found by benchmarks/memory.py on canny.
// CHECK-LABEL: func.func @r_pass_through(
// CHECK:         %ps = mem.view %ps_mem
// CHECK:         %vs = mem.view %xs_mem
// COUNT-LABEL: @r_pass_through(
// COUNT-NEXT: %xs_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %xs_host, %xs :
// COUNT-NEXT: %ps_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NOT: mem.alloc
// REPORT: memory-reuse: @r_pass_through: %vs_mem reuses %xs_mem
func.func @r_pass_through(%xs: tensor<?xi32>) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %ps, %vs = soac.map(%xs) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {
  ^bb0(%x: i32):
    %p = arith.addi %x, %one : i32
    soac.yield %p, %x : i32, i32
  }
  %a = soac.index %ps[%c0] : tensor<?xi32>
  %b = soac.index %vs[%c0] : tensor<?xi32>
  func.return %a, %b : i32, i32
}

// -----

// R-loop-in-place (the study's L3, Fig 9.5 ixfun-analysis-across-iterations): each
// iteration's b1 reads b0[i] before it writes b1[i], and the loop consumes a0's
// (device) block: b1 is made in the carried block, and the loop needs no block of
// its own. The study could not do this (two allocations, b1 and the double buffer).
// CHECK-LABEL: func.func @r_loop_in_place(
// CHECK:         scf.for %i = %c0 to {{%[0-9]+}} step %c1 {
// CHECK:           %b1 = mem.view %a0_mem
// CHECK:           mem.map ins(%a0 : {{.*}}) outs(%b1 :
// CHECK:         mem.copy %a0, %a1_host
// COUNT-LABEL: @r_loop_in_place(
// COUNT-NEXT: %a0_mem = mem.alloc {{.*}} : !mem.block<device>
// COUNT-NEXT: mem.copy %a0_host, %a0 :
// COUNT-NEXT: %a1_host_mem = mem.alloc {{.*}} : !mem.block<host>
// COUNT-NEXT: mem.copy %a0, %a1_host :
// REPORT: memory-reuse: @r_loop_in_place: 1 blocks reused (colouring), 4*dim(%a0_host, 0) bytes no longer allocated
// REPORT-NEXT: memory-reuse: @r_loop_in_place: %b1_mem reuses %a0_mem (the loop's carried block) (4*dim(%a0_host, 0) bytes)
// NOLOOP-LABEL: func.func @r_loop_in_place(
// NOLOOP:         scf.for
// NOLOOP:           %b1_mem = mem.alloc
func.func @r_loop_in_place(%a0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  func.return %a1 : tensor<?xi32>
}

// -----

// R-loop-in-place-neg-late-read: b0 is read after b1 is written: no in-place
// iteration (b1 keeps a block of its own in the body).
// CHECK-LABEL: func.func @r_loop_in_place_late_read(
// CHECK:         scf.for
// CHECK:           %b1_mem = mem.alloc
// CHECK:           scf.yield %b1_mem
// REPORT: memory-reuse: @r_loop_in_place_late_read: 0 blocks reused
func.func @r_loop_in_place_late_read(%a0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %k = soac.index %b0[%i] : tensor<?xi32>
    %b2 = soac.update %b1[%c0] = %k : tensor<?xi32>, i32
    scf.yield %b2 : tensor<?xi32>
  }
  func.return %a1 : tensor<?xi32>
}

// -----

// R-loop-in-place-neg-reversed: lane i reads b0[n-1-i]: no index-access exception,
// no in-place iteration.
// CHECK-LABEL: func.func @r_loop_in_place_reversed(
// CHECK:         scf.for
// CHECK:           %b1_mem = mem.alloc
// CHECK:           scf.yield %b1_mem
// REPORT: memory-reuse: @r_loop_in_place_reversed: 0 blocks reused
func.func @r_loop_in_place_reversed(%a0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %a0[0] : tensor<?xi32>
  %is = soac.iota %n : tensor<?xindex>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
    ^bb0(%j: index):
      %last = arith.subi %n, %c1 : index
      %r = arith.subi %last, %j : index
      %x = soac.index %b0[%r] : tensor<?xi32>
      soac.yield %x : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  func.return %a1 : tensor<?xi32>
}

// -----

// R-loop-in-place-neg-kept: a0 is read after the loop, so the loop must not
// overwrite its block; the body copies nothing, so no copy is moved before it either.
// CHECK-LABEL: func.func @r_loop_in_place_kept(
// CHECK:         scf.for
// CHECK:           %b1_mem = mem.alloc
// CHECK:           scf.yield %b1_mem
// REPORT: memory-reuse: @r_loop_in_place_kept: 0 blocks reused
func.func @r_loop_in_place_kept(%a0: tensor<?xi32>) -> (tensor<?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  %k = soac.index %a0[%c0] : tensor<?xi32>
  func.return %a1, %k : tensor<?xi32>, i32
}

// -----

// R-loop-copy-before (LocVolCalib's tridagSeq): each lane updates a copy of its row
// in a loop, the copy written out in every iteration (y2 = copy y with [i] = ...). The
// row is not the loop's to overwrite, so the copy is made once, before the loop, into a
// block the loop then iterates in. b, made by the lane itself, is updated in place by
// convert-soac-to-mem already (its other uses are reads before the update), which also
// does this for a loop that updates its unowned start with no copy written.
// CHECK-LABEL: func.func @r_loop_copy_before(
// CHECK:           %b_mem = mem.alloc
// CHECK:           %y_mem = mem.alloc
// CHECK-NEXT:      %y_1 = mem.view %y_mem
// CHECK-NEXT:      mem.copy %ur, %y_1 :
// CHECK-NEXT:      scf.for %i = %c1 to {{%[0-9]+}} step %c1 {
// CHECK-NOT:         mem.alloc
// CHECK-NOT:         mem.copy
// CHECK:             mem.store %nb, %b[%i]
// CHECK-NOT:         mem.copy
// CHECK:             %yc = mem.view %y_mem
// CHECK-NOT:         mem.copy
// CHECK:           mem.map ins(%y_1, %b :
// REPORT: memory-reuse: @r_loop_copy_before: 1 copies removed from loops
// REPORT-NEXT: memory-reuse: @r_loop_copy_before: %yc_mem reuses %y_mem (the loop's carried block, copied into once before the loop)
func.func @r_loop_copy_before(%u: tensor<?x?xf32>, %v: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c1 = arith.constant 1 : index
  %m = soac.size %u[1] : tensor<?x?xf32>
  %r = soac.map(%u, %v) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%ur: tensor<?xf32>, %vr: tensor<?xf32>):
    %b = soac.map(%vr) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.addf %x, %x : f32
      soac.yield %y : f32
    }
    %yf, %bf = scf.for %i = %c1 to %m step %c1 iter_args(%y = %ur, %bb = %b) -> (tensor<?xf32>, tensor<?xf32>) {
      %im = arith.subi %i, %c1 : index
      %bm = soac.index %bb[%im] : tensor<?xf32>
      %bi = soac.index %bb[%i] : tensor<?xf32>
      %nb = arith.subf %bi, %bm : f32
      %bb2 = soac.update %bb[%i] = %nb : tensor<?xf32>, f32
      %yi = soac.index %y[%i] : tensor<?xf32>
      %ym = soac.index %y[%im] : tensor<?xf32>
      %ny = arith.subf %yi, %ym : f32
      %yc = soac.copy %y : tensor<?xf32>
      %y2 = soac.update %yc[%i] = %ny : tensor<?xf32>, f32
      scf.yield %y2, %bb2 : tensor<?xf32>, tensor<?xf32>
    }
    %s = soac.map(%yf, %bf) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32, %z: f32):
      %w = arith.addf %x, %z : f32
      soac.yield %w : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// R-loop-disjoint-read (LUD, the study's runtime regression §10.6): each iteration
// replaces the rows below row k by a map of them that also reads row k. The map reads
// each row before writing it, and reads row k, which no lane writes: the loop updates
// the matrix in place (no copy of it per iteration, no second block).
// Here (memory-reuse alone) the copy of m in every iteration goes; with
// short-circuit first (FULL), upd is made in place too, reading row k meanwhile.
// CHECK-LABEL: func.func @r_loop_disjoint_read(
// CHECK:         scf.for %k = %c0 to %last step %c1 {
// CHECK:           %m2 = mem.view %a_mem
// CHECK:         mem.copy %a, %r_host
// REPORT: memory-reuse: @r_loop_disjoint_read: 1 copies removed from loops
// FULL-LABEL: func.func @r_loop_disjoint_read(
// FULL-NEXT:    %a_mem = mem.alloc {{.*}} : !mem.block<device>
// FULL-NEXT:    mem.copy %a_host, %a :
// FULL-NEXT:    %r_host_mem = mem.alloc {{.*}} : !mem.block<host>
// FULL-NEXT:    mem.copy %a, %r_host :
func.func @r_loop_disjoint_read(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %a[0] : tensor<?x?xf32>
  %last = arith.subi %n, %c1 : index
  %r = scf.for %k = %c0 to %last step %c1 iter_args(%m = %a) -> (tensor<?x?xf32>) {
    %prow = soac.index %m[%k] : tensor<?x?xf32>
    %k1 = arith.addi %k, %c1 : index
    %cnt = arith.subi %n, %k1 : index
    %below = soac.slice %m[%k1:%cnt] : tensor<?x?xf32> -> tensor<?x?xf32>
    %upd = soac.map(%below) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb0(%row: tensor<?xf32>):
      %new = soac.map(%row, %prow) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%e: f32, %p: f32):
        %v = arith.subf %e, %p : f32
        soac.yield %v : f32
      }
      soac.yield %new : tensor<?xf32>
    }
    %m2 = soac.update %m[%k1:%cnt] = %upd : tensor<?x?xf32>, tensor<?x?xf32>
    scf.yield %m2 : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// R-loop-gpu-body (the study's Listing 12 after reduce-device-syncs): each iteration
// makes an array literal in a gpu_body, whose result is a 1-row array, and carries its
// row 0. The row has the layout of the array the loop starts from, and nothing reads
// the carried array: the gpu_body writes into the loop's carried block, and the loop
// allocates nothing per iteration and carries no array.
// CHECK-LABEL: func.func @r_loop_gpu_body(
// CHECK:         scf.for
// CHECK-NOT:       mem.alloc
// CHECK:           %lit_dev = mem.view %A0_mem
// CHECK:           mem.gpu_body outs(%lit_dev
// REPORT: memory-reuse: @r_loop_gpu_body: %lit_dev_mem reuses %A0_mem (the loop's carried block) (16 bytes)
func.func @r_loop_gpu_body(%A0: tensor<2xi64>, %v0: i64, %n: index) -> (tensor<2xi64>, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %A, %v = scf.for %i = %c0 to %n step %c1 iter_args(%a = %A0, %w = %v0) -> (tensor<2xi64>, i64) {
    %w1 = arith.addi %w, %one : i64
    %lit_dev = soac.gpu_body -> tensor<1x2xi64> {
      %lit = soac.array [%one, %w] : tensor<2xi64>
      soac.yield %lit : tensor<2xi64>
    }
    %row = soac.index %lit_dev[%c0] : tensor<1x2xi64>
    scf.yield %row, %w1 : tensor<2xi64>, i64
  }
  func.return %A, %v : tensor<2xi64>, i64
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

// -----

// R-loop-carried-block (past the study: its reuse of consumed parameters, §5.5, for a
// loop's carried block). The body makes v for the next iteration before it last
// reads b0, so the loop cannot iterate in place; but u, made by the statement that
// last reads b0 (element by element: the kernel data-race rule) and not yielded, is
// made in the carried block: a0's block in the first iteration (the loop consumes
// it), the previous iteration's v after. One allocation per iteration instead of two,
// and two blocks live in the body instead of three.
// CHECK-LABEL: func.func @r_loop_carried_block(
// CHECK:         scf.for {{.*}} iter_args(%b0_mem = %a0_mem, %b0 = %a0, %acc = %s0)
// CHECK:           %v_mem = mem.alloc
// CHECK:           %u = mem.view %b0_mem
// CHECK:           mem.map ins(%b0, %v : {{.*}}) outs(%u :
// CHECK:           scf.yield %v_mem, %v, %acc1
// COUNT-LABEL: @r_loop_carried_block(
// COUNT-NEXT: %a0_mem = mem.alloc
// COUNT-NEXT: mem.copy %a0_host, %a0 :
// COUNT-NEXT: %v_mem = mem.alloc
// COUNT-NEXT: %s_dev_mem = mem.alloc
// COUNT-NEXT: %a1_host_mem = mem.alloc
// REPORT: memory-reuse: @r_loop_carried_block: 1 blocks reused (colouring), 4*dim(%a0_host, 0) bytes no longer allocated
// REPORT-NEXT: memory-reuse: @r_loop_carried_block: %u_mem reuses %b0_mem (the loop's carried block, once its array is dead) (4*dim(%a0_host, 0) bytes)
// NOLOOP-LABEL: func.func @r_loop_carried_block(
// NOLOOP:         scf.for
// NOLOOP:           %v_mem = mem.alloc
// NOLOOP:           %u_mem = mem.alloc
func.func @r_loop_carried_block(%a0: tensor<?xi32>, %s0: i32) -> (tensor<?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1, %s1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0, %acc = %s0) -> (tensor<?xi32>, i32) {
    %v = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %u = soac.map(%b0, %v) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32, %y: i32):
      %z = arith.muli %x, %y : i32
      soac.yield %z : i32
    }
    %s = soac.reduce(%u) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb0(%l: i32, %r: i32):
      %t = arith.addi %l, %r : i32
      soac.yield %t : i32
    }
    %acc1 = arith.addi %acc, %s : i32
    scf.yield %v, %acc1 : tensor<?xi32>, i32
  }
  func.return %a1, %s1 : tensor<?xi32>, i32
}

// -----

// R-loop-carried-block-neg-late-read: b0 is read after u is made: u keeps its block.
// CHECK-LABEL: func.func @r_loop_carried_block_late_read(
// CHECK:         scf.for
// CHECK:           %v_mem = mem.alloc
// CHECK:           %u_mem = mem.alloc
// REPORT: memory-reuse: @r_loop_carried_block_late_read: 0 blocks reused
func.func @r_loop_carried_block_late_read(%a0: tensor<?xi32>, %s0: i32) -> (tensor<?xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1, %s1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0, %acc = %s0) -> (tensor<?xi32>, i32) {
    %v = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %u = soac.map(%b0, %v) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32, %y: i32):
      %z = arith.muli %x, %y : i32
      soac.yield %z : i32
    }
    %s = soac.reduce(%u) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb0(%l: i32, %r: i32):
      %t = arith.addi %l, %r : i32
      soac.yield %t : i32
    }
    %first = soac.index %b0[%c0] : tensor<?xi32>
    %acc0 = arith.addi %acc, %s : i32
    %acc1 = arith.addi %acc0, %first : i32
    scf.yield %v, %acc1 : tensor<?xi32>, i32
  }
  func.return %a1, %s1 : tensor<?xi32>, i32
}

// -----

// R-loop-carried-block-neg-kept: a0 is read after the loop, so the loop may not
// overwrite the block it starts from: u keeps its block.
// CHECK-LABEL: func.func @r_loop_carried_block_kept(
// CHECK:         scf.for
// CHECK:           %v_mem = mem.alloc
// CHECK:           %u_mem = mem.alloc
// REPORT: memory-reuse: @r_loop_carried_block_kept: 0 blocks reused
func.func @r_loop_carried_block_kept(%a0: tensor<?xi32>, %s0: i32) -> (tensor<?xi32>, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1, %s1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0, %acc = %s0) -> (tensor<?xi32>, i32) {
    %v = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %u = soac.map(%b0, %v) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32, %y: i32):
      %z = arith.muli %x, %y : i32
      soac.yield %z : i32
    }
    %s = soac.reduce(%u) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
    ^bb0(%l: i32, %r: i32):
      %t = arith.addi %l, %r : i32
      soac.yield %t : i32
    }
    %acc1 = arith.addi %acc, %s : i32
    scf.yield %v, %acc1 : tensor<?xi32>, i32
  }
  %last = soac.index %a0[%c0] : tensor<?xi32>
  func.return %a1, %s1, %last : tensor<?xi32>, i32, i32
}

// -----

// R-loop-into-destination (past the study: its L2, Fig 9.4 ixfun-merge-param, which it
// left disabled): the loop's result is the second half of a concat. The loop starts
// from a copy of a0 made in x's second half (x's block moves above the loop) and
// iterates there in place (the map reads b0[i] before writing b1[i]); b1's block,
// made every iteration, and the copy of a1 into x go. Two device blocks, a0's and x's.
// CHECK-LABEL: func.func @r_loop_into_destination(
// CHECK:         %x_mem = mem.alloc
// CHECK:         %a1 = mem.slice %x[
// CHECK-NEXT:    mem.copy %a0, %a1
// CHECK-NEXT:    scf.for %i = %c0 to {{%[0-9]+}} step %c1 {
// CHECK:           mem.map ins(%a1 : {{.*}}) outs(%a1 :
// COUNT-LABEL: @r_loop_into_destination(
// COUNT-NEXT: %a0_mem = mem.alloc
// COUNT-NEXT: mem.copy %a0_host, %a0 :
// COUNT-NEXT: %x_mem = mem.alloc
// COUNT-NEXT: mem.copy %a0, %a1 :
// COUNT-NEXT: mem.copy %a0, {{%[0-9]+}} :
// COUNT-NEXT: %x_host_mem = mem.alloc
// REPORT: memory-reuse: @r_loop_into_destination: 1 blocks reused (colouring), 4*dim(%a0_host, 0) bytes no longer allocated
// REPORT-NEXT: memory-reuse: @r_loop_into_destination: %b1_mem reuses part of %x_mem (the loop iterates in its destination) (4*dim(%a0_host, 0) bytes)
// NOLOOP-LABEL: func.func @r_loop_into_destination(
// NOLOOP:         scf.for
// NOLOOP:           %b1_mem = mem.alloc
func.func @r_loop_into_destination(%a0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  %x = soac.concat %a0, %a1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %x : tensor<?xi32>
}

// -----

// R-loop-into-destination-neg-late-read: the body reads b0 after it writes b1, so the
// loop cannot iterate in place, in its destination or anywhere: it double-buffers and
// its result is copied into x.
// CHECK-LABEL: func.func @r_loop_into_destination_late_read(
// CHECK:         scf.for
// CHECK:           %b1_mem = mem.alloc
// CHECK:         mem.copy %a1, {{%[0-9]+}}
// REPORT: memory-reuse: @r_loop_into_destination_late_read: 0 blocks reused
func.func @r_loop_into_destination_late_read(%a0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    %first = soac.index %b0[%c0] : tensor<?xi32>
    %b2 = soac.update %b1[%c0] = %first : tensor<?xi32>, i32
    scf.yield %b2 : tensor<?xi32>
  }
  %x = soac.concat %a0, %a1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %x : tensor<?xi32>
}

// -----

// R-loop-into-destination-neg-too-large: x is three times a1. Moving x's block above
// the loop would make it live through the loop at more than twice the body's block,
// whose double buffer is all it would replace: the peak could rise, so the loop keeps
// its own blocks and its result is copied.
// CHECK-LABEL: func.func @r_loop_into_destination_too_large(
// CHECK:         scf.for
// CHECK:           %b1_mem = mem.alloc
// CHECK:         %x_mem = mem.alloc
// CHECK:         mem.copy %a1, {{%[0-9]+}}
// REPORT: memory-reuse: @r_loop_into_destination_too_large: 0 blocks reused
func.func @r_loop_into_destination_too_large(%a0: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  %x = soac.concat %a0, %a1, %a0 : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  func.return %x : tensor<?xi32>
}

// -----

// R-loop-into-destination-neg-read-in-body: the body reads m[1][0], the row the loop's
// result is copied into, so the loop may not iterate in that row (it would read its own
// array; a regression test: the wrong result was [15, 16, 17, 18] for row 1). It
// iterates in a0's block instead, which it consumes.
// CHECK-LABEL: func.func @r_loop_into_destination_read_in_body(
// CHECK:         scf.for
// CHECK:         mem.copy %a0, {{%[0-9]+}}
// REPORT: memory-reuse: @r_loop_into_destination_read_in_body: 1 blocks reused
// REPORT-NEXT: memory-reuse: @r_loop_into_destination_read_in_body: %b1_mem reuses %a0_mem (the loop's carried block) (4*dim(%a0_host, 0) bytes)
func.func @r_loop_into_destination_read_in_body(%a0: tensor<?xi32>, %k: index) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %z = arith.constant 0 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %zr = soac.replicate %n, %z : i32 -> tensor<?xi32>
  %m = soac.replicate %k, %zr : tensor<?xi32> -> tensor<?x?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %old = soac.index %m[%c1, %c0] : tensor<?x?xi32>
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      %y1 = arith.addi %y, %old : i32
      soac.yield %y1 : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  %m2 = soac.update %m[%c1] = %a1 : tensor<?x?xi32>, tensor<?xi32>
  func.return %m2 : tensor<?x?xi32>
}

// -----

// R-loop-into-row: the loop's result is written as a row of m, which is made before
// the loop: the loop starts from a copy of a0 in m[1] and iterates there (m does not
// move); the body reads nothing of m.
// CHECK-LABEL: func.func @r_loop_into_row(
// CHECK:         %m_mem = mem.alloc
// CHECK:         %a1 = mem.slice %m[%c1]
// CHECK-NEXT:    mem.copy %a0, %a1
// CHECK-NEXT:    scf.for
// CHECK:           mem.map ins(%a1 : {{.*}}) outs(%a1 :
// REPORT: memory-reuse: @r_loop_into_row: 1 blocks reused
// REPORT-NEXT: memory-reuse: @r_loop_into_row: %b1_mem reuses part of %m_mem (the loop iterates in its destination) (4*dim(%a0_host, 0) bytes)
func.func @r_loop_into_row(%a0: tensor<?xi32>, %k: index) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %z = arith.constant 0 : i32
  %n = soac.size %a0[0] : tensor<?xi32>
  %zr = soac.replicate %n, %z : i32 -> tensor<?xi32>
  %m = soac.replicate %k, %zr : tensor<?xi32> -> tensor<?x?xi32>
  %a1 = scf.for %i = %c0 to %n step %c1 iter_args(%b0 = %a0) -> (tensor<?xi32>) {
    %b1 = soac.map(%b0) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32):
      %y = arith.addi %x, %one : i32
      soac.yield %y : i32
    }
    scf.yield %b1 : tensor<?xi32>
  }
  %m2 = soac.update %m[%c1] = %a1 : tensor<?x?xi32>, tensor<?xi32>
  func.return %m2 : tensor<?x?xi32>
}
