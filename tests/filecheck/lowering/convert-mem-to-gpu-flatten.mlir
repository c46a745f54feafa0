// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu --split-input-file | filecheck %s
// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu -t cuda --split-input-file | filecheck %s --check-prefix=CUDA

// Perfectly nested maps (lowering/gpu_flatten.py): one kernel over the product of the
// levels' rows. The host launches it over rows0 * rows1 * rows2 elements and hands it
// the inner levels' row counts; each thread takes its element apart, innermost first
// (neighbouring threads, neighbouring elements), and runs the innermost lambda. Where
// the product has fewer than 2^31 elements (tested in the kernel) that is done in 32-bit
// arithmetic: 64-bit division is a long software sequence on the GPU.
// CHECK-LABEL: func.func @cube(
// CHECK:         %r = mem.view
// CHECK-NEXT:    [[R1:%[0-9]+]] = mem.size %v[1]
// CHECK-NEXT:    [[R2:%[0-9]+]] = mem.size %v[2]
// CHECK-NEXT:    [[R0:%[0-9]+]] = mem.size %v[0]
// CHECK-NEXT:    [[P:%[0-9]+]] = arith.muli [[R0]], [[R1]] : index
// CHECK-NEXT:    [[N:%[0-9]+]] = arith.muli [[P]], [[R2]] : index
// CHECK:         "gpu.launch_func"({{.*}}, %two, %v, %r, [[N]], [[R1]], [[R2]]) <{kernel = @kernels::@map0_flat,
// CHECK:         ^bb0(%two: f32, %v: {{.*}}, %r: {{.*}}, %elements: index, %rows1: index, %rows2: index):
// CHECK:           [[NARROW:%[0-9]+]] = arith.cmpi ult, %elements, {{%[0-9]+}} : index
// CHECK-NEXT:      scf.if [[NARROW]] {
// CHECK-NEXT:        [[N1:%[0-9]+]] = arith.index_cast %rows1 : index to i32
// CHECK-NEXT:        [[N2:%[0-9]+]] = arith.index_cast %rows2 : index to i32
// CHECK-NEXT:        scf.for %element = {{%[0-9]+}} to %elements step {{%[0-9]+}} {
// CHECK-NEXT:          [[E:%[0-9]+]] = arith.index_cast %element : index to i32
// CHECK-NEXT:          [[K:%[0-9]+]] = arith.remui [[E]], [[N2]] : i32
// CHECK-NEXT:          [[IJ:%[0-9]+]] = arith.divui [[E]], [[N2]] : i32
// CHECK-NEXT:          [[J:%[0-9]+]] = arith.remui [[IJ]], [[N1]] : i32
// CHECK-NEXT:          [[I:%[0-9]+]] = arith.divui [[IJ]], [[N1]] : i32
// CHECK-NEXT:          [[II:%[0-9]+]] = arith.index_cast [[I]] : i32 to index
// CHECK-NEXT:          [[JJ:%[0-9]+]] = arith.index_cast [[J]] : i32 to index
// CHECK-NEXT:          [[KK:%[0-9]+]] = arith.index_cast [[K]] : i32 to index
// CHECK-NEXT:          [[X:%[0-9]+]] = memref.load %v[[[II]], [[JJ]], [[KK]]]
// CHECK-NEXT:          %y = arith.mulf [[X]], %two : f32
// CHECK-NEXT:          memref.store %y, %r[[[II]], [[JJ]], [[KK]]]
// CHECK-NEXT:        }
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.for %element_1 = {{%[0-9]+}} to %elements step {{%[0-9]+}} {
// CHECK-NEXT:          [[K:%[0-9]+]] = arith.remui %element_1, %rows2 : index
// CHECK-NEXT:          [[IJ:%[0-9]+]] = arith.divui %element_1, %rows2 : index
// CHECK-NEXT:          [[J:%[0-9]+]] = arith.remui [[IJ]], %rows1 : index
// CHECK-NEXT:          [[I:%[0-9]+]] = arith.divui [[IJ]], %rows1 : index
// CHECK-NEXT:          [[X:%[0-9]+]] = memref.load %v[[[I]], [[J]], [[K]]]
// CHECK:         }) {sym_name = "map0_flat"}
// CUDA:        extern "C" __global__ void map0_flat(
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

// -----

// Each level's scalar code (here of its row's number and of an array's size) runs in
// every thread, before the level below: a stencil's clamped neighbours, at three levels
// of maps over iotas (arrays here: no fuse-iota).
// CHECK-LABEL: func.func @clamped(
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map3_flat,
// CHECK:           scf.for %element =
// CHECK:             [[I:%[0-9]+]] = arith.index_cast {{%[0-9]+}} : i32 to index
// CHECK:             [[IV:%[0-9]+]] = memref.load %is[[[I]]]
// CHECK-NEXT:        %ip1 = arith.addi [[IV]], %c1 : index
// CHECK-NEXT:        %iS = arith.minsi %ip1, %l0 : index
// CHECK-NEXT:        [[JV:%[0-9]+]] = memref.load %js[
// CHECK:             {{%[0-9]+}} = memref.dim %m,
// CHECK-NEXT:        %jp1 = arith.addi [[JV]], %c1 : index
// CHECK:             [[KV:%[0-9]+]] = memref.load %ks[
// CHECK-NEXT:        {{%[0-9]+}} = memref.load %m[%iS, %jE, [[KV]]]
// CHECK-NEXT:        {{%[0-9]+}} = memref.load %m[[[IV]], [[JV]], [[KV]]]
// CHECK:             memref.store %y, %r[[[I]],
// CHECK:         }) {sym_name = "map3_flat"}
func.func @clamped(%m: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c1 = arith.constant 1 : index
  %n0 = soac.size %m[0] : tensor<?x?x?xf32>
  %n1 = soac.size %m[1] : tensor<?x?x?xf32>
  %n2 = soac.size %m[2] : tensor<?x?x?xf32>
  %l0 = arith.subi %n0, %c1 : index
  %is = soac.iota %n0 : tensor<?xindex>
  %js = soac.iota %n1 : tensor<?xindex>
  %ks = soac.iota %n2 : tensor<?xindex>
  %r = soac.map(%is) : (tensor<?xindex>) -> tensor<?x?x?xf32> {
  ^bb0(%i: index):
    %ip1 = arith.addi %i, %c1 : index
    %iS = arith.minsi %ip1, %l0 : index
    %plane = soac.map(%js) : (tensor<?xindex>) -> tensor<?x?xf32> {
    ^bb1(%j: index):
      %w = soac.size %m[1] : tensor<?x?x?xf32>
      %jp1 = arith.addi %j, %c1 : index
      %jl = arith.subi %w, %c1 : index
      %jE = arith.minsi %jp1, %jl : index
      %row = soac.map(%ks) : (tensor<?xindex>) -> tensor<?xf32> {
      ^bb2(%k: index):
        %a = soac.index %m[%iS, %jE, %k] : tensor<?x?x?xf32>
        %x = soac.index %m[%i, %j, %k] : tensor<?x?x?xf32>
        %y = arith.addf %a, %x : f32
        soac.yield %y : f32
      }
      soac.yield %row : tensor<?xf32>
    }
    soac.yield %plane : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?x?xf32>
}

// -----

// A level that reads memory before the level below is no perfect nest: another thread
// of the same row could read after a write. It keeps a thread per row.
// CHECK-LABEL: func.func @reads_first(
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0,
// CHECK-NOT:     map0_flat
func.func @reads_first(%v: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %r = soac.map(%v) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  ^bb0(%plane: tensor<?x?xf32>):
    %corner = soac.index %plane[%c0, %c0] : tensor<?x?xf32>
    %p = soac.map(%plane) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
    ^bb1(%row: tensor<?xf32>):
      %q = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb2(%x: f32):
        %y = arith.subf %x, %corner : f32
        soac.yield %y : f32
      }
      soac.yield %q : tensor<?xf32>
    }
    soac.yield %p : tensor<?x?xf32>
  }
  func.return %r : tensor<?x?x?xf32>
}

// -----

// A lambda that yields more than the inner map's rows (here a scalar of its own) is no
// perfect nest either.
// CHECK-LABEL: func.func @with_a_scalar(
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0,
// CHECK-NOT:     map0_flat
func.func @with_a_scalar(%v: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xindex>) {
  %two = arith.constant 2.0 : f32
  %r, %n = soac.map(%v) : (tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xindex>) {
  ^bb0(%row: tensor<?xf32>):
    %q = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.mulf %x, %two : f32
      soac.yield %y : f32
    }
    %len = soac.size %row[0] : tensor<?xf32>
    soac.yield %q, %len : tensor<?xf32>, index
  }
  func.return %r, %n : tensor<?x?xf32>, tensor<?xindex>
}
