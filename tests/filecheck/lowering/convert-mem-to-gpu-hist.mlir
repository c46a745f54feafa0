// RUN: soacc-opt %s -p convert-mem-to-gpu --split-input-file | filecheck %s
// RUN: soacc-opt %s -p convert-mem-to-gpu -t cuda --split-input-file | filecheck %s --check-prefix=CUDA

// A host-level hist becomes one kernel; its name says where the bins live while the
// input is read (shared: a sub-histogram per block; global: dest itself) and how a
// bin is updated (atomic: one atomic op; cas: a compare-and-swap loop).

// An operator that is one arith op CUDA has an atomic for (its operands swapped is
// the same operator) on a static number of bins that fits shared memory: each block
// fills a shared sub-histogram with the neutral element, updates it with shared
// atomics for the in-bounds indices (an unsigned compare also rejects negatives) of a
// grid-stride part of the input, four elements loaded at a time, and merges every bin
// it changed into dest with one global atomic. At most 264 blocks.

func.func @counts(%counts: memref<256xi32, strided<[?], offset: ?>, #mem.space<device>>, %bins: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %ones: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) {
  %zero = arith.constant 0 : i32
  mem.hist %counts[%bins], %ones neutral(%zero : i32) : memref<256xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %r, %l : i32
    mem.yield %s : i32
  }
  func.return
}

// CHECK-LABEL: func.func @counts
// CHECK-NOT:   mem.hist
// CHECK:       [[N:%[0-9]+]] = mem.size %bins[0]
// CHECK:       [[WANTED:%[0-9]+]] = arith.ceildivui [[N]], {{%[0-9]+}} : index
// CHECK-NEXT:  [[CAP:%[0-9]+]] = arith.constant 264 : index
// CHECK-NEXT:  [[CAPPED:%[0-9]+]] = arith.minui [[WANTED]], [[CAP]] : index
// CHECK:       [[BLOCKS:%[0-9]+]] = arith.maxui [[CAPPED]], {{%[0-9]+}} : index
// CHECK:       "gpu.launch_func"([[BLOCKS]], {{.*}}, %zero, %counts, %bins, %ones, [[N]]) <{kernel = @kernels::@hist0_shared_atomic
// CHECK:       "gpu.func"()
// CHECK-NEXT:  ^bb0(%zero: i32, %counts: memref<256xi32, {{.*}}>, %bins: memref<?xi32, {{.*}}>, %ones: memref<?xi32, {{.*}}>, %count: index):
// CHECK-NEXT:    %sub_histogram = soacc_gpu.shared : memref<256xi32>
// CHECK-NEXT:    [[TID:%[0-9]+]] = "gpu.thread_id"()
// CHECK-NEXT:    [[BINS:%[0-9]+]] = arith.constant 256 : index
// CHECK-NEXT:    [[THREADS:%[0-9]+]] = arith.constant 256 : index
// CHECK-NEXT:    scf.for [[J:%[0-9]+]] = [[TID]] to [[BINS]] step [[THREADS]] {
// CHECK-NEXT:      memref.store %zero, %sub_histogram[[[J]]] : memref<256xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.barrier"()
// CHECK:         scf.for [[I:%[0-9]+]] = {{.*}} {
// CHECK-NEXT:      [[K32:%[0-9]+]] = memref.load %bins[[[I]]]
// CHECK-NEXT:      [[V:%[0-9]+]] = memref.load %ones[[[I]]]
// CHECK-NEXT:      [[K:%[0-9]+]] = arith.index_cast [[K32]] : i32 to index
// CHECK-COUNT-3:   memref.load %ones
// CHECK:           [[INSIDE:%[0-9]+]] = arith.cmpi ult, [[K]], [[BINS]] : index
// CHECK-NEXT:      scf.if [[INSIDE]] {
// CHECK-NEXT:        soacc_gpu.atomic_rmw "addi" [[V]], %sub_histogram[[[K]]] : i32, memref<256xi32>
// CHECK:         scf.for [[I2:%[0-9]+]] = {{.*}} to %count step {{.*}} {
// CHECK:           soacc_gpu.atomic_rmw "addi" {{%[0-9]+}}, %sub_histogram
// CHECK:         "gpu.barrier"()
// CHECK-NEXT:    scf.for [[B:%[0-9]+]] = [[TID]] to [[BINS]] step [[THREADS]] {
// CHECK-NEXT:      [[PARTIAL:%[0-9]+]] = memref.load %sub_histogram[[[B]]] : memref<256xi32>
// CHECK-NEXT:      [[CHANGED:%[0-9]+]] = arith.cmpi ne, [[PARTIAL]], %zero : i32
// CHECK-NEXT:      scf.if [[CHANGED]] {
// CHECK-NEXT:        soacc_gpu.atomic_rmw "addi" [[PARTIAL]], %counts[[[B]]] : i32, memref<256xi32, {{.*}}>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.return"()
// CHECK:       sym_name = "hist0_shared_atomic"

// CUDA-LABEL: extern "C" __global__ void hist0_shared_atomic(
// CUDA:         __shared__ int sub_histogram[256];
// CUDA:         __syncthreads();
// CUDA:         atomicAdd((unsigned int*)&sub_histogram[
// CUDA:         __syncthreads();
// CUDA:         atomicAdd((unsigned int*)&counts[

// -----

// The same with a dynamic number of bins: every element updates dest with a global
// atomic (here a float add, indexed by index values), bins from dest's size. At most
// 1024 blocks.

func.func @sums(%sums: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %bins: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %xs: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %zero = arith.constant 0.0 : f32
  mem.hist %sums[%bins], %xs neutral(%zero : f32) : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    mem.yield %s : f32
  }
  func.return
}

// CHECK-LABEL: func.func @sums
// CHECK:       arith.constant 1024 : index
// CHECK:       "gpu.launch_func"({{.*}}, %zero, %sums, %bins, %xs, {{%[0-9]+}}) <{kernel = @kernels::@hist0_global_atomic
// CHECK:       ^bb0(%zero: f32, %sums: memref<?xf32, {{.*}}>, %bins: memref<?xindex, {{.*}}>, %xs: memref<?xf32, {{.*}}>, %count: index):
// CHECK-NOT:     soacc_gpu.shared
// CHECK:         [[BINS:%[0-9]+]] = memref.dim %sums, {{%[0-9]+}}
// CHECK:         [[K:%[0-9]+]] = memref.load %bins[{{%[0-9]+}}] : memref<?xindex
// CHECK-NEXT:    [[V:%[0-9]+]] = memref.load %xs
// CHECK:         [[INSIDE:%[0-9]+]] = arith.cmpi ult, [[K]], [[BINS]] : index
// CHECK-NEXT:    scf.if [[INSIDE]] {
// CHECK-NEXT:      soacc_gpu.atomic_rmw "addf" [[V]], %sums[[[K]]] : f32
// CHECK-NOT:     "gpu.barrier"
// CHECK:       sym_name = "hist0_global_atomic"

// CUDA-LABEL: extern "C" __global__ void hist0_global_atomic(
// CUDA-NOT:     __shared__
// CUDA:         atomicAdd((float*)&sums[

// -----

// Any other operator (here maximumf, which CUDA has no atomic for, with i64 indices)
// on bins that fit shared memory: a compare-and-swap loop on the shared sub-histogram,
// then the same loop on dest for each changed bin. The loop reads the bin (volatile),
// combines, and swaps the result in unless the operator left the bin's bits as they
// were; it retries with the bits it found until they are the bits it read (bits, not
// values: a NaN ends it).

func.func @peaks(%peaks: memref<100xf32, strided<[?], offset: ?>, #mem.space<device>>, %bins: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %xs: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %ninf = arith.constant 0xFF800000 : f32
  mem.hist %peaks[%bins], %xs neutral(%ninf : f32) : memref<100xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%l: f32, %r: f32):
    %m = arith.maximumf %l, %r : f32
    mem.yield %m : f32
  }
  func.return
}

// CHECK-LABEL: func.func @peaks
// CHECK:       "gpu.launch_func"({{.*}}, %ninf, %peaks, %bins, %xs, {{%[0-9]+}}) <{kernel = @kernels::@hist0_shared_cas
// CHECK:       %sub_histogram = soacc_gpu.shared : memref<100xf32>
// CHECK:       [[K64:%[0-9]+]] = memref.load %bins[{{%[0-9]+}}] : memref<?xi64
// CHECK-NEXT:  [[V:%[0-9]+]] = memref.load %xs
// CHECK-NEXT:  [[K:%[0-9]+]] = arith.index_cast [[K64]] : i64 to index
// CHECK:       scf.if {{%[0-9]+}} {
// CHECK-NEXT:    [[FIRST:%[0-9]+]] = soacc_gpu.load_volatile %sub_histogram[[[K]]] : memref<100xf32> -> f32
// CHECK-NEXT:    {{%[0-9]+}} = scf.while (%assumed = [[FIRST]]) : (f32) -> f32 {
// CHECK-NEXT:      %m = arith.maximumf %assumed, [[V]] : f32
// CHECK-NEXT:      [[ASSUMED_BITS:%[0-9]+]] = arith.bitcast %assumed : f32 to i32
// CHECK-NEXT:      [[DESIRED_BITS:%[0-9]+]] = arith.bitcast %m : f32 to i32
// CHECK-NEXT:      [[UNCHANGED:%[0-9]+]] = arith.cmpi eq, [[DESIRED_BITS]], [[ASSUMED_BITS]] : i32
// CHECK-NEXT:      %seen = scf.if [[UNCHANGED]] -> (f32) {
// CHECK-NEXT:        scf.yield %assumed : f32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        [[OLD:%[0-9]+]] = soacc_gpu.atomic_cas %assumed, %m, %sub_histogram[[[K]]] : f32, memref<100xf32>
// CHECK-NEXT:        scf.yield [[OLD]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      [[SEEN_BITS:%[0-9]+]] = arith.bitcast %seen : f32 to i32
// CHECK-NEXT:      [[RETRY:%[0-9]+]] = arith.cmpi ne, [[SEEN_BITS]], [[ASSUMED_BITS]] : i32
// CHECK-NEXT:      scf.condition([[RETRY]]) %seen : f32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0([[AGAIN:%[0-9]+]]: f32):
// CHECK-NEXT:      scf.yield [[AGAIN]] : f32
// CHECK-NEXT:    }
// CHECK:       "gpu.barrier"()
// CHECK-NEXT:  scf.for [[B:%[0-9]+]] = {{.*}} {
// CHECK-NEXT:    [[PARTIAL:%[0-9]+]] = memref.load %sub_histogram[[[B]]] : memref<100xf32>
// CHECK-NEXT:    [[PARTIAL_BITS:%[0-9]+]] = arith.bitcast [[PARTIAL]] : f32 to i32
// CHECK-NEXT:    [[NEUTRAL_BITS:%[0-9]+]] = arith.bitcast %ninf : f32 to i32
// CHECK-NEXT:    [[CHANGED:%[0-9]+]] = arith.cmpi ne, [[PARTIAL_BITS]], [[NEUTRAL_BITS]] : i32
// CHECK-NEXT:    scf.if [[CHANGED]] {
// CHECK-NEXT:      [[FIRST2:%[0-9]+]] = soacc_gpu.load_volatile %peaks[[[B]]]
// CHECK-NEXT:      scf.while (%{{.*}} = [[FIRST2]]) : (f32) -> f32 {
// CHECK-NEXT:        arith.maximumf %{{.*}}, [[PARTIAL]] : f32
// CHECK:             soacc_gpu.atomic_cas {{.*}}, %peaks[[[B]]]
// CHECK:       sym_name = "hist0_shared_cas"

// CUDA-LABEL: extern "C" __global__ void hist0_shared_cas(
// CUDA:         __shared__ float sub_histogram[100];
// CUDA:         *(volatile float*)&sub_histogram[
// CUDA:         while (true) {
// CUDA:           soacc_maximumf(
// CUDA:           __uint_as_float(atomicCAS((unsigned int*)&sub_histogram[

// -----

// A CAS operator (a wrapping multiply, with a value captured from outside: kernel
// parameters are the captured values first) on a static number of bins too large for
// shared memory (10000 x 8 bytes): the loop runs on dest directly, with i32 indices.

func.func @products(%p: memref<10000xi64, strided<[?], offset: ?>, #mem.space<device>>, %bins: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %xs: memref<?xi64, strided<[?], offset: ?>, #mem.space<device>>, %mask: i64) {
  %one = arith.constant 1 : i64
  mem.hist %p[%bins], %xs neutral(%one : i64) : memref<10000xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xi64, strided<[?], offset: ?>, #mem.space<device>> {
  ^bb0(%l: i64, %r: i64):
    %m = arith.muli %l, %r : i64
    %k = arith.andi %m, %mask : i64
    mem.yield %k : i64
  }
  func.return
}

// CHECK-LABEL: func.func @products
// CHECK:       "gpu.launch_func"({{.*}}, %mask, %one, %p, %bins, %xs, {{%[0-9]+}}) <{kernel = @kernels::@hist0_global_cas
// CHECK:       ^bb0(%mask: i64, %one: i64, %p: memref<10000xi64, {{.*}}>, %bins: memref<?xi32, {{.*}}>, %xs: memref<?xi64, {{.*}}>, %count: index):
// CHECK-NOT:     soacc_gpu.shared
// CHECK:         [[FIRST:%[0-9]+]] = soacc_gpu.load_volatile %p[[[K:%[0-9]+]]]
// CHECK-NEXT:    scf.while (%assumed = [[FIRST]]) : (i64) -> i64 {
// CHECK-NEXT:      %m = arith.muli %assumed, {{%[0-9]+}} : i64
// CHECK-NEXT:      %k = arith.andi %m, %mask : i64
// CHECK-NEXT:      [[UNCHANGED:%[0-9]+]] = arith.cmpi eq, %k, %assumed : i64
// CHECK-NEXT:      %seen = scf.if [[UNCHANGED]] -> (i64) {
// CHECK:             soacc_gpu.atomic_cas %assumed, %k, %p[[[K]]] : i64
// CHECK:           [[RETRY:%[0-9]+]] = arith.cmpi ne, %seen, %assumed : i64
// CHECK-NEXT:      scf.condition([[RETRY]]) %seen : i64
// CHECK:       sym_name = "hist0_global_cas"

// CUDA-LABEL: extern "C" __global__ void hist0_global_cas(
// CUDA-NOT:     __shared__
// CUDA:         atomicCAS((unsigned long long*)&p[

// -----

// A hist of rows whose operator adds rows element by element (as k-means sums the
// points of each cluster) is a hist of elements: a grid-stride loop over every element
// (i, j) of the value rows, each an atomic add into element j of row indices[i].

func.func @row_sums(%sums: memref<8x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %bins: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %zeros: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.hist %sums[%bins], %rows neutral(%zeros : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) : memref<8x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> {
  ^bb0(%l: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %r: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>):
    %n = mem.size %l[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %c4 = arith.constant 4 : index
    %bytes = arith.muli %c4, %n : index
    %s_mem = mem.alloc %bytes : !mem.block<device>
    %c0 = arith.constant 0 : index
    %s = mem.view %s_mem[%c0] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.map ins(%l, %r : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%s : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb1(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      mem.yield %c : f32
    }
    mem.yield %s : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  }
  func.return
}

// CHECK-LABEL: func.func @row_sums
// CHECK:         [[ROWS:%[0-9]+]] = mem.size %rows[0]
// CHECK:         [[WIDTH:%[0-9]+]] = mem.size %rows[1]
// CHECK:         [[N:%[0-9]+]] = arith.muli [[ROWS]], [[WIDTH]] : index
// CHECK:         "gpu.launch_func"({{.*}}, %sums, %bins, %rows, [[N]]) <{kernel = @kernels::@hist0_rows_global_atomic
// CHECK:       "gpu.func"()
// CHECK:           [[I:%[0-9]+]] = arith.divui
// CHECK:           [[J:%[0-9]+]] = arith.remui
// CHECK:           soacc_gpu.atomic_rmw "addf" {{%[0-9]+}}, %sums[{{%[0-9]+}}, [[J]]]

// -----

// Rows combined element by element by an op CUDA has no atomic for (a product): each
// element of a value row combines into its own element of the bin's row by a
// compare-and-swap loop running the element lambda.
func.func @row_products(%prods: memref<8x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %bins: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %rows: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %ones: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.hist %prods[%bins], %rows neutral(%ones : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) : memref<8x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>> {
  ^bb0(%l: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %r: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>):
    %n = mem.size %l[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %c4 = arith.constant 4 : index
    %bytes = arith.muli %c4, %n : index
    %s_mem = mem.alloc %bytes : !mem.block<device>
    %c0 = arith.constant 0 : index
    %s = mem.view %s_mem[%c0] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.map ins(%r, %l : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%s : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb1(%a: f32, %b: f32):
      %c = arith.mulf %a, %b : f32
      mem.yield %c : f32
    }
    mem.yield %s : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
  }
  func.return
}

// CHECK-LABEL: func.func @row_products
// CHECK:         "gpu.launch_func"({{.*}}, %prods, %bins, %rows, {{%[0-9]+}}) <{kernel = @kernels::@hist0_rows_global_cas
// CHECK:       "gpu.func"()
// CHECK:           [[J:%[0-9]+]] = arith.remui
// CHECK:           [[V:%[0-9]+]] = memref.load %rows[{{%[0-9]+}}, [[J]]]
// CHECK-NEXT:      [[FIRST:%[0-9]+]] = soacc_gpu.load_volatile %prods[[[K:%[0-9]+]], [[J]]]
// CHECK-NEXT:      {{%[0-9]+}} = scf.while (%assumed = [[FIRST]]) : (f32) -> f32 {
// CHECK-NEXT:        %c = arith.mulf [[V]], %assumed : f32
// CHECK:             soacc_gpu.atomic_cas %assumed, %c, %prods[[[K]], [[J]]]

