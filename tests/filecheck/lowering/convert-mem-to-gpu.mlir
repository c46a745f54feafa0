// RUN: soacc-opt %s -p convert-mem-to-gpu --split-input-file | filecheck %s
// RUN: soacc-opt %s -p convert-mem-to-gpu -t cuda --split-input-file | filecheck %s --check-prefix=CUDA

// A host-level map whose rows are reduced (a segmented reduction) and scaled by a
// captured scalar gets three kernels, and the host picks one by row length: for rows of
// at least 128 elements a block per row (its threads read consecutive elements, combine
// in the block, and thread 0 stores); for rows of 32 to 127 a warp per row (combined by
// shuffles alone); for shorter rows a grid-stride loop over the rows, each reduced
// sequentially by its thread. All read rows through the 2-D view (no copy) and are
// launched with the captured values, the views and the row count.

builtin.module {
  func.func @main(%a_host_mem: !mem.block<host>, %a_host: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>, %s: f32) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?x?xf32>, f32) -> tensor<?xf32>} {
    %0 = mem.size %a_host[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %1 = mem.size %a_host[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %2 = arith.constant 4 : index
    %3 = arith.muli %2, %0 : index
    %4 = arith.muli %3, %1 : index
    %a_mem = mem.alloc %4 : !mem.block<device>
    %5 = arith.constant 0 : index
    %a = mem.view %a_mem[%5] sizes(%0, %1) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.copy %a_host, %a : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %zero = arith.constant 0.000000e+00 : f32
    %6 = mem.size %a[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %7 = arith.constant 4 : index
    %8 = arith.muli %7, %6 : index
    %sums_mem = mem.alloc %8 : !mem.block<device>
    %9 = arith.constant 0 : index
    %sums = mem.view %sums_mem[%9] sizes(%6) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.map ins(%a : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%sums : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>):
      %t = mem.reduce ins(%row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zero : f32) -> f32 {
      ^bb0(%x: f32, %y: f32):
        %z = arith.addf %x, %y : f32
        mem.yield %z : f32
      }
      %u = arith.mulf %t, %s : f32
      mem.yield %u : f32
    }
    %10 = mem.size %sums[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %11 = arith.constant 4 : index
    %12 = arith.muli %11, %10 : index
    %sums_host_mem = mem.alloc %12 : !mem.block<host>
    %13 = arith.constant 0 : index
    %sums_host = mem.view %sums_host_mem[%13] sizes(%10) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    mem.copy %sums, %sums_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    func.return %sums_host_mem, %sums_host : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  }
}


// CHECK:      mem.alloc
// CHECK-NOT:  mem.map
// CHECK:      [[LENGTH:%[0-9]+]] = mem.size %a[1]
// CHECK:      [[LONG:%[0-9]+]] = arith.cmpi uge, [[LENGTH]], {{%[0-9]+}} : index
// CHECK:      scf.if [[LONG]] {
// CHECK:        "gpu.launch_func"({{.*}}, %zero, %s, %a, %sums, {{%[0-9]+}}) <{kernel = @kernels::@map0_block_per_row,
// CHECK:      } else {
// CHECK:        [[MEDIUM:%[0-9]+]] = arith.cmpi uge, [[LENGTH]], {{%[0-9]+}} : index
// CHECK:        scf.if [[MEDIUM]] {
// CHECK:          "gpu.launch_func"({{.*}}, %zero, %s, %a, %sums, {{%[0-9]+}}) <{kernel = @kernels::@map0_warp_per_row,
// CHECK:        } else {
// CHECK:          "gpu.launch_func"({{.*}}, %zero, %s, %a, %sums, [[ROWS:%[0-9]+]]) <{kernel = @kernels::@map0,
// CHECK:      "gpu.module"() <{sym_name = "kernels"}> ({
// CHECK-NEXT:   "gpu.func"() <{function_type = (f32, f32, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, index) -> (), kernel}> ({
// CHECK:          [[FIRST:%[0-9]+]] = "gpu.global_id"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK:          scf.for %row = [[FIRST]] to %rows step {{%[0-9]+}} {
// CHECK:            [[N:%[0-9]+]] = memref.dim %a, {{%[0-9]+}}
// CHECK:            [[SUM:%[0-9]+]] = scf.for [[J:%[0-9]+]] = {{%[0-9]+}} to [[N]] step {{%[0-9]+}} iter_args([[ACC:%[0-9]+]] = %zero) -> (f32) {
// CHECK-NEXT:         [[X:%[0-9]+]] = memref.load %a[%row, [[J]]]
// CHECK-NEXT:         %z = arith.addf [[ACC]], [[X]] : f32
// CHECK:            %u = arith.mulf [[SUM]], %s : f32
// CHECK-NEXT:       memref.store %u, %sums[%row]
// CHECK:          "gpu.return"() : () -> ()
// CHECK:        }) {sym_name = "map0"}
// CHECK:        "gpu.func"()
// CHECK:          [[BID:%[0-9]+]] = "gpu.block_id"()
// CHECK:          scf.for [[ROW:%[0-9]+]] = [[BID]] to %rows step {{%[0-9]+}} {
// CHECK:            [[TID:%[0-9]+]] = "gpu.thread_id"()
// CHECK:            scf.for {{.*}} iter_args({{.*}} = %zero) -> (f32)
// CHECK:            soacc_gpu.shuffle "down"
// CHECK:            soacc_gpu.shared : memref<8xf32>
// CHECK:            gpu.barrier
// CHECK:            %u = arith.mulf {{%[0-9]+}}, %s : f32
// CHECK:            memref.store %u, %sums[[[ROW]]]
// CHECK:        }) {sym_name = "map0_block_per_row"}
// CHECK:        "gpu.func"()
// CHECK:          [[WARP:%[0-9]+]] = arith.divui
// CHECK:          [[FIRSTROW:%[0-9]+]] = arith.addi {{%[0-9]+}}, [[WARP]] : index
// CHECK:          scf.for [[WROW:%[0-9]+]] = [[FIRSTROW]] to %rows step {{%[0-9]+}} {
// CHECK:            soacc_gpu.shuffle "down"
// CHECK-NOT:        gpu.barrier
// CHECK:            soacc_gpu.shuffle "idx"
// CHECK-NOT:        gpu.barrier
// CHECK:            memref.store %u, %sums[[[WROW]]]
// CHECK:        }) {sym_name = "map0_warp_per_row"}

// CUDA: extern "C" __global__ void map0(float zero, float s, float* __restrict__ a, long long a_offset, long long a_size0, long long a_size1, long long a_stride0, long long a_stride1, float* __restrict__ sums, long long sums_offset, long long sums_size0, long long sums_stride0, long long rows) {
// CUDA:   for (long long row = {{.*}}; row < rows; row += {{.*}}) {
// CUDA:       float {{.*}} = a[a_offset + row * a_stride0 + {{.*}} * a_stride1];
// CUDA:     sums[sums_offset + row * sums_stride0] = u;

// -----

// Constructors and scatter are grid-stride kernels too: the replicate fills every row;
// the scatter reads each index and writes only when it is inside the destination (an
// unsigned compare also rejects negative indices); the gpu_body is a single-threaded
// kernel (a 1x1 launch) writing its value to element 0 of its output.

builtin.module {
  func.func @main(%n: index, %vs_host_mem: !mem.block<host>, %vs_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %is_host_mem: !mem.block<host>, %is_host: memref<?xindex, strided<[?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, !mem.block<host>, memref<1xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (index, tensor<?xf32>, tensor<?xindex>) -> (tensor<?xf32>, tensor<1xf32>)} {
    %0 = mem.size %vs_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    %1 = arith.constant 4 : index
    %2 = arith.muli %1, %0 : index
    %vs_mem = mem.alloc %2 : !mem.block<device>
    %3 = arith.constant 0 : index
    %vs = mem.view %vs_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.copy %vs_host, %vs : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %4 = mem.size %is_host[0] : memref<?xindex, strided<[?], offset: ?>, #mem.space<host>>
    %5 = arith.constant 8 : index
    %6 = arith.muli %5, %4 : index
    %is_mem = mem.alloc %6 : !mem.block<device>
    %7 = arith.constant 0 : index
    %is = mem.view %is_mem[%7] sizes(%4) : !mem.block<device> -> memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>
    mem.copy %is_host, %is : memref<?xindex, strided<[?], offset: ?>, #mem.space<host>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>
    %zero = arith.constant 0.000000e+00 : f32
    %8 = arith.constant 4 : index
    %9 = arith.muli %8, %n : index
    %dest_mem = mem.alloc %9 : !mem.block<device>
    %10 = arith.constant 0 : index
    %dest = mem.view %dest_mem[%10] sizes(%n) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.fill %zero, %dest : f32, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.scatter %dest[%is] = %vs : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %11 = arith.constant 1 : index
    %12 = arith.constant 4 : index
    %13 = arith.muli %12, %11 : index
    %g_mem = mem.alloc %13 : !mem.block<device>
    %14 = arith.constant 0 : index
    %g = mem.view %g_mem[%14] : !mem.block<device> -> memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.gpu_body outs(%g : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
      %c0 = arith.constant 0 : index
      %x = mem.load %dest[%c0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
      %y = arith.addf %x, %x : f32
      mem.yield %y : f32
    }
    %15 = mem.size %dest[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %16 = arith.constant 4 : index
    %17 = arith.muli %16, %15 : index
    %r_host_mem = mem.alloc %17 : !mem.block<host>
    %18 = arith.constant 0 : index
    %r_host = mem.view %r_host_mem[%18] sizes(%15) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    mem.copy %dest, %r_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    %19 = mem.size %g[0] : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>
    %20 = arith.constant 4 : index
    %21 = arith.muli %20, %19 : index
    %g_host_mem = mem.alloc %21 : !mem.block<host>
    %22 = arith.constant 0 : index
    %g_host = mem.view %g_host_mem[%22] : !mem.block<host> -> memref<1xf32, strided<[?], offset: ?>, #mem.space<host>>
    mem.copy %g, %g_host : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<1xf32, strided<[?], offset: ?>, #mem.space<host>>
    func.return %r_host_mem, %r_host, %g_host_mem, %g_host : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, !mem.block<host>, memref<1xf32, strided<[?], offset: ?>, #mem.space<host>>
  }
}


// CHECK:      "gpu.launch_func"({{.*}}, %zero, %dest, {{%[0-9]+}}) <{kernel = @kernels::@fill0
// CHECK:      "gpu.launch_func"({{.*}}, %dest, %is, %vs, {{%[0-9]+}}) <{kernel = @kernels::@scatter1
// CHECK:      "gpu.launch_func"([[ONE:%[0-9]+]], [[ONE]], [[ONE]], [[ONE]], [[ONE]], [[ONE]], %dest, %g) <{kernel = @kernels::@gpu_body2
// CHECK:      scf.for %row = {{%[0-9]+}} to %rows step {{%[0-9]+}} {
// CHECK-NEXT:   memref.store %zero, %dest[%row]
// CHECK:      scf.for %row = {{%[0-9]+}} to %rows step {{%[0-9]+}} {
// CHECK-NEXT:   [[K:%[0-9]+]] = memref.load %is[%row]
// CHECK:        [[IN:%[0-9]+]] = arith.cmpi ult, [[K]], {{%[0-9]+}} : index
// CHECK-NEXT:   scf.if [[IN]] {
// CHECK-NEXT:     [[V:%[0-9]+]] = memref.load %vs[%row]
// CHECK-NEXT:     memref.store [[V]], %dest[[[K]]]
// CHECK:      [[X:%[0-9]+]] = memref.load %dest[%c0]
// CHECK-NEXT: %y = arith.addf [[X]], [[X]] : f32
// CHECK:      memref.store %y, %g[{{%[0-9]+}}]

// CUDA: extern "C" __global__ void fill0(
// CUDA: extern "C" __global__ void scatter1(
// CUDA: extern "C" __global__ void gpu_body2(

// -----

// A lambda that allocates (here for an array literal): the allocation becomes a slot
// in one scratch buffer allocated before the launch, 16-byte-aligned slots for every
// thread of a grid capped at 1024 blocks, the threads' slots interleaved: inside, the
// view starts at the slot (its offset times the threads) plus the thread's element,
// with its strides times the threads (neighbouring threads, neighbouring addresses).
// Over fewer than 32768 rows its blocks are a warp each (spread over the GPU's
// multiprocessors and their caches), else THREADS_PER_BLOCK threads.

builtin.module {
  func.func @main(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?xf32>) -> tensor<?xf32>} {
    %0 = mem.size %a_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    %1 = arith.constant 4 : index
    %2 = arith.muli %1, %0 : index
    %a_mem = mem.alloc %2 : !mem.block<device>
    %3 = arith.constant 0 : index
    %a = mem.view %a_mem[%3] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.copy %a_host, %a : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %4 = mem.size %a[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %5 = arith.constant 4 : index
    %6 = arith.muli %5, %4 : index
    %r_mem = mem.alloc %6 : !mem.block<device>
    %7 = arith.constant 0 : index
    %r = mem.view %r_mem[%7] sizes(%4) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%r : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%x: f32):
      %8 = arith.constant 2 : index
      %9 = arith.constant 4 : index
      %10 = arith.muli %9, %8 : index
      %pair_mem = mem.alloc %10 : !mem.block<device>
      %11 = arith.constant 0 : index
      %pair = mem.view %pair_mem[%11] : !mem.block<device> -> memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>
      mem.array [%x, %x] outs(%pair : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>)
      %c1 = arith.constant 1 : index
      %y = mem.load %pair[%c1] : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>
      mem.yield %y : f32
    }
    %12 = mem.size %r[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %13 = arith.constant 4 : index
    %14 = arith.muli %13, %12 : index
    %r_host_mem = mem.alloc %14 : !mem.block<host>
    %15 = arith.constant 0 : index
    %r_host = mem.view %r_host_mem[%15] sizes(%12) : !mem.block<host> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    mem.copy %r, %r_host : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    func.return %r_host_mem, %r_host : !mem.block<host>, memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
  }
}


// CHECK:      [[LIMIT:%[0-9]+]] = arith.constant 32768 : index
// CHECK-NEXT: [[FEW:%[0-9]+]] = arith.cmpi ult, [[ROWS:%[0-9]+]], [[LIMIT]] : index
// CHECK-NEXT: [[WARP:%[0-9]+]] = arith.constant 32 : index
// CHECK-NEXT: [[FULL:%[0-9]+]] = arith.constant 256 : index
// CHECK-NEXT: [[PER_BLOCK:%[0-9]+]] = arith.select [[FEW]], [[WARP]], [[FULL]] : index
// CHECK:      %scratch_mem = mem.alloc {{%[0-9]+}} : !mem.block<device>
// CHECK:      %scratch = mem.view %scratch_mem
// CHECK:      "gpu.launch_func"({{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, [[PER_BLOCK]], {{%[0-9]+}}, {{%[0-9]+}}, %a, %r, [[ROWS]], %scratch, {{%[0-9]+}}, {{%[0-9]+}}) <{kernel = @kernels::@map0
// CHECK:      "gpu.func"()
// CHECK:        [[FIRST:%[0-9]+]] = "gpu.global_id"()
// CHECK:        [[SLOT:%[0-9]+]] = arith.muli %slot0, %scratch_threads : index
// CHECK:        scf.for %row
// CHECK:          [[STRIDE:%[0-9]+]] = arith.muli {{%[0-9]+}}, %scratch_threads : index
// CHECK:          [[ELEMENT:%[0-9]+]] = arith.constant 4 : index
// CHECK:          [[OFFSET:%[0-9]+]] = arith.muli {{%[0-9]+}}, %scratch_threads : index
// CHECK:          [[START:%[0-9]+]] = arith.addi [[SLOT]], [[OFFSET]] : index
// CHECK:          [[MINE:%[0-9]+]] = arith.muli [[FIRST]], [[ELEMENT]] : index
// CHECK:          [[AT:%[0-9]+]] = arith.addi [[START]], [[MINE]] : index
// CHECK:          [[PAIR:%[0-9]+]] = soacc_gpu.view %scratch[[[AT]]] sizes({{%[0-9]+}}) strides([[STRIDE]])
// CHECK:          memref.store {{%[0-9]+}}, [[PAIR]]
// CHECK:          memref.load [[PAIR]]

// CUDA: float* {{.*}} = (float*)((char*)(scratch + scratch_offset) + {{.*}});

// -----

// A host-level map whose lambda scans its row into its output row (a segmented scan)
// also gets a block and a warp per row besides a thread per row: the group scans the
// row in chunks of one element per thread, each thread writing its element combined
// with the carry of the chunks before; the carry grows by each chunk's total.
builtin.module {
  func.func @main(%m_host_mem: !mem.block<host>, %m_host: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?x?xf32>) -> tensor<?x?xf32>} {
    %0 = mem.size %m_host[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %1 = mem.size %m_host[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %2 = arith.constant 4 : index
    %3 = arith.muli %2, %0 : index
    %4 = arith.muli %3, %1 : index
    %m_mem = mem.alloc %4 : !mem.block<device>
    %5 = arith.constant 0 : index
    %m = mem.view %m_mem[%5] sizes(%0, %1) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.copy %m_host, %m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %z = arith.constant 0.000000e+00 : f32
    %6 = mem.size %m[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %7 = mem.size %m[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %8 = arith.constant 4 : index
    %9 = arith.muli %8, %6 : index
    %10 = arith.muli %9, %7 : index
    %r_mem = mem.alloc %10 : !mem.block<device>
    %11 = arith.constant 0 : index
    %r = mem.view %r_mem[%11] sizes(%6, %7) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.map ins(%m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%r : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
    ^bb0(%row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %r_row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>):
      mem.scan ins(%row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%z : f32) commutative outs(%r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
      ^bb0(%x: f32, %y: f32):
        %t = arith.addf %x, %y : f32
        mem.yield %t : f32
      }
      mem.yield %r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    }
    %12 = mem.size %r[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %13 = mem.size %r[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %14 = arith.constant 4 : index
    %15 = arith.muli %14, %12 : index
    %16 = arith.muli %15, %13 : index
    %r_host_mem = mem.alloc %16 : !mem.block<host>
    %17 = arith.constant 0 : index
    %r_host = mem.view %r_host_mem[%17] sizes(%12, %13) : !mem.block<host> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    mem.copy %r, %r_host : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    func.return %r_host_mem, %r_host : !mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
  }
}


// CHECK:      "gpu.launch_func"({{.*}}, %z, %m, %r, {{%[0-9]+}}) <{kernel = @kernels::@map0_block_per_row,
// CHECK:      "gpu.launch_func"({{.*}}, %z, %m, %r, {{%[0-9]+}}) <{kernel = @kernels::@map0_warp_per_row,
// CHECK:      "gpu.launch_func"({{.*}}, %z, %m, %r, {{%[0-9]+}}) <{kernel = @kernels::@map0,
// CHECK:      }) {sym_name = "map0"}
// CHECK:      "gpu.func"()
// CHECK:        scf.for [[ROW:%[0-9]+]] = {{%[0-9]+}} to %rows step {{%[0-9]+}} {
// CHECK:          [[N:%[0-9]+]] = memref.dim %m
// CHECK:          scf.for [[START:%[0-9]+]] = {{%[0-9]+}} to [[N]] step {{%[0-9]+}} iter_args([[CARRY:%[0-9]+]] = %z) -> (f32) {
// CHECK:            [[J:%[0-9]+]] = arith.addi [[START]], {{%[0-9]+}} : index
// CHECK:            memref.load %m[[[ROW]], [[J]]]
// CHECK:            soacc_gpu.shuffle "up"
// CHECK:            "gpu.barrier"
// CHECK:            memref.store {{%[a-z0-9_]+}}, %r[[[ROW]], [[J]]]
// CHECK:      }) {sym_name = "map0_block_per_row"}
// CHECK:      "gpu.func"()
// CHECK:            soacc_gpu.shuffle "up"
// CHECK-NOT:        gpu.barrier
// CHECK:            soacc_gpu.shuffle "idx"
// CHECK-NOT:        gpu.barrier
// CHECK:      }) {sym_name = "map0_warp_per_row"}

// -----

// A host-level map whose lambda maps rows into its output rows (a map of maps; here
// indexed, with a stencil read of the row below) also gets a block and a warp per row
// besides a thread per row. Every thread of a group runs the lambda's scalar code; the
// nested map's elements go to the group's threads in turn (from the thread's rank, a
// group apart), so neighbouring threads write neighbouring elements. No barrier: no
// thread reads what another writes.
builtin.module {
  func.func @main(%m_host_mem: !mem.block<host>, %m_host: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?x?xf32>) -> tensor<?x?xf32>} {
    %0 = mem.size %m_host[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %1 = mem.size %m_host[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %2 = arith.constant 4 : index
    %3 = arith.muli %2, %0 : index
    %4 = arith.muli %3, %1 : index
    %m_mem = mem.alloc %4 : !mem.block<device>
    %5 = arith.constant 0 : index
    %m = mem.view %m_mem[%5] sizes(%0, %1) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.copy %m_host, %m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %c1 = arith.constant 1 : index
    %last = arith.subi %0, %c1 : index
    %r_mem = mem.alloc %4 : !mem.block<device>
    %r = mem.view %r_mem[%5] sizes(%0, %1) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.map ins(:) outs(%r : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) indexed {
    ^bb0(%r_row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index):
      %bottom = arith.cmpi eq, %i, %last : index
      %next = arith.addi %i, %c1 : index
      %below = arith.select %bottom, %i, %next : index
      mem.map ins(:) outs(%r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) indexed {
      ^bb0(%j: index):
        %x = mem.load %m[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
        %y = mem.load %m[%below, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
        %d = arith.subf %y, %x : f32
        mem.yield %d : f32
      }
      mem.yield %r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    }
    %r_host_mem = mem.alloc %4 : !mem.block<host>
    %r_host = mem.view %r_host_mem[%5] sizes(%0, %1) : !mem.block<host> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    mem.copy %r, %r_host : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    func.return %r_host_mem, %r_host : !mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
  }
}


// CHECK:      [[LENGTH:%[0-9]+]] = mem.size %r[1]
// CHECK:      "gpu.launch_func"({{.*}}, %last, %c1, %m, %r, {{%[0-9]+}}) <{kernel = @kernels::@map0_block_per_row,
// CHECK:      "gpu.launch_func"({{.*}}, %last, %c1, %m, %r, {{%[0-9]+}}) <{kernel = @kernels::@map0_warp_per_row,
// CHECK:      "gpu.launch_func"({{.*}}, %last, %c1, %m, %r, {{%[0-9]+}}) <{kernel = @kernels::@map0,
// CHECK:      }) {sym_name = "map0"}
// CHECK:      "gpu.func"()
// CHECK:        [[BID:%[0-9]+]] = "gpu.block_id"()
// CHECK:        scf.for [[ROW:%[0-9]+]] = [[BID]] to %rows step {{%[0-9]+}} {
// CHECK-NEXT:     %bottom = arith.cmpi eq, [[ROW]], %last : index
// CHECK:          %below = arith.select %bottom, [[ROW]], %next : index
// CHECK:          [[TID:%[0-9]+]] = "gpu.thread_id"() <{dimension = #gpu<dim x>}>
// CHECK:          [[N:%[0-9]+]] = memref.dim %r, {{%[0-9]+}}
// CHECK:          scf.for [[J:%[0-9]+]] = [[TID]] to [[N]] step {{%[0-9]+}} {
// CHECK-NEXT:       [[X:%[0-9]+]] = memref.load %m[[[ROW]], [[J]]]
// CHECK-NEXT:       [[Y:%[0-9]+]] = memref.load %m[%below, [[J]]]
// CHECK-NEXT:       %d = arith.subf [[Y]], [[X]] : f32
// CHECK-NEXT:       memref.store %d, %r[[[ROW]], [[J]]]
// CHECK-NOT:    gpu.barrier
// CHECK:      }) {sym_name = "map0_block_per_row"}
// CHECK:      "gpu.func"()
// CHECK:        scf.for [[WROW:%[0-9]+]] = {{%[0-9]+}} to %rows step {{%[0-9]+}} {
// CHECK:          [[LANE:%[0-9]+]] = arith.remui
// CHECK:          scf.for [[WJ:%[0-9]+]] = [[LANE]] to {{%[0-9]+}} step {{%[0-9]+}} {
// CHECK-NEXT:       memref.load %m[[[WROW]], [[WJ]]]
// CHECK-NOT:    gpu.barrier
// CHECK:      }) {sym_name = "map0_warp_per_row"}

// CUDA: extern "C" __global__ void map0_block_per_row(
// CUDA:   for (long long {{.*}} = {{.*}}; {{.*}} < rows_1; {{.*}} += {{.*}}) {
// CUDA:       r_1[r_1_offset + {{.*}} * r_1_stride0 + {{.*}} * r_1_stride1] = d_1;

// -----

// A map of maps whose lambda picks how to make each row by an `if` (after
// short-circuit, Gauss-Jordan's elimination step: the pivot row copied, the others
// reduced by it, each in place): the group strategies too. The condition is the same
// in every thread of a group; the copy and the map share the row's elements among the
// group's threads alike (from the thread's rank, a group apart).
builtin.module {
  func.func @c_lambda_if(%m_host_mem: !mem.block<host>, %m_host: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>, %p_host_mem: !mem.block<host>, %p_host: memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, %k: index) -> (!mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?x?xf32>, tensor<?xf32>, index) -> tensor<?x?xf32>} {
    %0 = mem.size %p_host[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>
    %1 = mem.size %m_host[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %2 = arith.constant 4 : index
    %3 = arith.muli %2, %1 : index
    %4 = arith.muli %3, %0 : index
    %5 = arith.constant 4 : index
    %6 = arith.muli %5, %1 : index
    %7 = arith.muli %6, %0 : index
    %8 = arith.constant 8 : index
    %9 = arith.muli %8, %1 : index
    %10 = arith.constant 4 : index
    %11 = arith.muli %10, %0 : index
    %12 = mem.size %m_host[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %13 = arith.constant 4 : index
    %14 = arith.muli %13, %1 : index
    %15 = arith.muli %14, %12 : index
    %16 = arith.constant 0 : index
    %m_mem = mem.alloc %15 : !mem.block<device>
    %m = mem.view %m_mem[%16] sizes(%1, %12) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.copy %m_host, %m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %17 = arith.constant 0 : index
    %p_mem = mem.alloc %11 : !mem.block<device>
    %p = mem.view %p_mem[%17] sizes(%0) : !mem.block<device> -> memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.copy %p_host, %p : memref<?xf32, strided<[?], offset: ?>, #mem.space<host>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    %18 = arith.constant 0 : index
    %ir_mem = mem.alloc %9 : !mem.block<device>
    %ir = mem.view %ir_mem[%18] sizes(%1) : !mem.block<device> -> memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>
    mem.iota outs(%ir : memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>)
    %19 = arith.constant 0 : index
    %r_mem = mem.alloc %7 : !mem.block<device>
    %r = mem.view %r_mem[%19] sizes(%1, %0) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.map ins(%m, %ir : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>) outs(%r : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
    ^bb0(%row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %i: index, %r_row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>):
      %isk = arith.cmpi eq, %i, %k : index
      scf.if %isk {
        mem.copy %p, %r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
      } else {
        %f = mem.load %row[%k] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
        mem.map ins(%row, %p : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
        ^bb0(%x: f32, %y: f32):
          %fy = arith.mulf %f, %y : f32
          %d = arith.subf %x, %fy : f32
          mem.yield %d : f32
        }
      }
      mem.yield %r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    }
    %20 = arith.constant 0 : index
    %r_host_mem = mem.alloc %4 : !mem.block<host>
    %r_host = mem.view %r_host_mem[%20] sizes(%1, %0) : !mem.block<host> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    mem.copy %r, %r_host : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    func.return %r_host_mem, %r_host : !mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
  }
}

// CHECK-LABEL: func.func @c_lambda_if(
// CHECK:      "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map1_block_per_row,
// CHECK:      "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map1_warp_per_row,
// CHECK:      "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map1,
// CHECK:      }) {sym_name = "map1"}
// CHECK:      "gpu.func"()
// CHECK:        scf.for [[ROW:%[0-9]+]] = {{%[0-9]+}} to %rows step {{%[0-9]+}} {
// CHECK:          scf.if %isk {
// CHECK:            [[TID:%[0-9]+]] = "gpu.thread_id"()
// CHECK:            scf.for [[J:%[0-9]+]] = [[TID]] to {{%[0-9]+}} step {{%[0-9]+}} {
// CHECK-NEXT:         [[X:%[0-9]+]] = memref.load %p[[[J]]]
// CHECK-NEXT:         memref.store [[X]], %r[[[ROW]], [[J]]]
// CHECK:          } else {
// CHECK-NEXT:       {{%[0-9]+}} = memref.load %m[[[ROW]], %k]
// CHECK:            [[TID2:%[0-9]+]] = "gpu.thread_id"()
// CHECK:            scf.for [[J2:%[0-9]+]] = [[TID2]] to {{%[0-9]+}} step {{%[0-9]+}} {
// CHECK:              memref.store %d, %r[[[ROW]], [[J2]]]
// CHECK-NOT:    gpu.barrier
// CHECK:      }) {sym_name = "map1_block_per_row"}

// -----

// A map of maps whose output is in its input's memory (memory-reuse may do that where
// each lane reads its row before writing it) and whose lambda reads its row before the
// nested map (the row's first element, as LUD reads its multiplier): a thread of a
// group could overwrite that element before another reads it, so the group waits for
// all its threads after the scalar code (a block's barrier, a warp's sync_warp). Those
// reads are volatile: the kernel's views are __restrict__ in CUDA C, and a plain load
// of memory the kernel writes may be served late, from the non-coherent cache.
builtin.module {
  func.func @main(%m_host_mem: !mem.block<host>, %m_host: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?x?xf32>) -> tensor<?x?xf32>} {
    %0 = mem.size %m_host[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %1 = mem.size %m_host[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %2 = arith.constant 4 : index
    %3 = arith.muli %2, %0 : index
    %4 = arith.muli %3, %1 : index
    %m_mem = mem.alloc %4 : !mem.block<device>
    %5 = arith.constant 0 : index
    %m = mem.view %m_mem[%5] sizes(%0, %1) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.copy %m_host, %m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %r = mem.view %m_mem[%5] sizes(%0, %1) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.map ins(%m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%r : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
    ^bb0(%row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %r_row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>):
      %c0 = arith.constant 0 : index
      %first = mem.load %row[%c0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
      mem.map ins(%row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
      ^bb0(%x: f32):
        %y = arith.divf %x, %first : f32
        mem.yield %y : f32
      }
      mem.yield %r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    }
    %r_host_mem = mem.alloc %4 : !mem.block<host>
    %r_host = mem.view %r_host_mem[%5] sizes(%0, %1) : !mem.block<host> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    mem.copy %r, %r_host : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    func.return %r_host_mem, %r_host : !mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
  }
}

// CHECK-LABEL: func.func @main(
// CHECK:      "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_block_per_row,
// CHECK:      }) {sym_name = "map0"}
// CHECK:      "gpu.func"()
// CHECK:          {{%[0-9]+}} = soacc_gpu.load_volatile %m[{{%[0-9]+}}, %c0]
// CHECK-NEXT:     "gpu.barrier"() : () -> ()
// CHECK:          scf.for
// CHECK:            memref.store %y, %r
// CHECK:      }) {sym_name = "map0_block_per_row"}
// CHECK:      "gpu.func"()
// CHECK:          {{%[0-9]+}} = soacc_gpu.load_volatile %m[{{%[0-9]+}}, %c0]
// CHECK-NEXT:     soacc_gpu.sync_warp
// CHECK:      }) {sym_name = "map0_warp_per_row"}
// CUDA:       extern "C" __global__ void map0_warp_per_row(
// CUDA:           __syncwarp();

// -----

// The same, but the nested map reads the row's first element itself: no barrier can
// order that read before the other threads' writes, so the map keeps a thread per row.
builtin.module {
  func.func @main(%m_host_mem: !mem.block<host>, %m_host: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?x?xf32>) -> tensor<?x?xf32>} {
    %0 = mem.size %m_host[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %1 = mem.size %m_host[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %2 = arith.constant 4 : index
    %3 = arith.muli %2, %0 : index
    %4 = arith.muli %3, %1 : index
    %m_mem = mem.alloc %4 : !mem.block<device>
    %5 = arith.constant 0 : index
    %m = mem.view %m_mem[%5] sizes(%0, %1) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.copy %m_host, %m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %r = mem.view %m_mem[%5] sizes(%0, %1) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.map ins(%m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%r : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
    ^bb0(%row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %r_row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>):
      %c0 = arith.constant 0 : index
      mem.map ins(%row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
      ^bb0(%x: f32):
        %first = mem.load %row[%c0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
        %y = arith.divf %x, %first : f32
        mem.yield %y : f32
      }
      mem.yield %r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    }
    %r_host_mem = mem.alloc %4 : !mem.block<host>
    %r_host = mem.view %r_host_mem[%5] sizes(%0, %1) : !mem.block<host> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    mem.copy %r, %r_host : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    func.return %r_host_mem, %r_host : !mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
  }
}

// CHECK-LABEL: func.func @main(
// CHECK:      "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0,
// CHECK-NOT:  per_row
// CHECK:      }) {sym_name = "map0", soacc.sequential_inside = "mem.map"}
// CHECK-NOT:  per_row

// -----

// The same in place, the row read only element by element by the nested map: element j
// is read and written by the same thread, so the group strategies are safe.
builtin.module {
  func.func @main(%m_host_mem: !mem.block<host>, %m_host: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) -> (!mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>) attributes {soacc.entry_signature = (tensor<?x?xf32>) -> tensor<?x?xf32>} {
    %0 = mem.size %m_host[0] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %1 = mem.size %m_host[1] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    %2 = arith.constant 4 : index
    %3 = arith.muli %2, %0 : index
    %4 = arith.muli %3, %1 : index
    %m_mem = mem.alloc %4 : !mem.block<device>
    %5 = arith.constant 0 : index
    %m = mem.view %m_mem[%5] sizes(%0, %1) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.copy %m_host, %m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    %r = mem.view %m_mem[%5] sizes(%0, %1) : !mem.block<device> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.map ins(%m : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) outs(%r : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
    ^bb0(%row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %r_row: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>):
      mem.map ins(%row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
      ^bb0(%x: f32):
        %y = arith.addf %x, %x : f32
        mem.yield %y : f32
      }
      mem.yield %r_row : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    }
    %r_host_mem = mem.alloc %4 : !mem.block<host>
    %r_host = mem.view %r_host_mem[%5] sizes(%0, %1) : !mem.block<host> -> memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    mem.copy %r, %r_host : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
    func.return %r_host_mem, %r_host : !mem.block<host>, memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<host>>
  }
}

// CHECK-LABEL: func.func @main(
// CHECK:      "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_block_per_row,
// CHECK:      "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_warp_per_row,
// CHECK:      "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0,

// -----

// A function's forked copy (introduce-forks{beside}) launches the function's own
// kernels where they are the same; a kernel of the copy's that differs is its own.

builtin.module {
  func.func @main(%a_mem: !mem.block<device>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%x: f32):
      %y = arith.addf %x, %x : f32
      mem.yield %y : f32
    }
    func.return
  }
  func.func private @main__forked(%a_mem: !mem.block<device>, %a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) attributes {soacc.forked_variant_of = "main"} {
    mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%x: f32):
      %y = arith.addf %x, %x : f32
      mem.yield %y : f32
    }
    mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    ^bb0(%x: f32):
      %y = arith.mulf %x, %x : f32
      mem.yield %y : f32
    }
    func.return
  }
}

// CHECK-LABEL: func.func @main(
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0,
// CHECK-LABEL: func.func private @main__forked(
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0,
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map2,
// CHECK:       "gpu.module"() <{sym_name = "kernels"}> ({
// CHECK:         }) {sym_name = "map0"}
// CHECK-NOT:     sym_name = "map1"
// CHECK:         }) {sym_name = "map2"}

// -----

// An `if` inside a kernel that yields blocks nothing uses after it (here a branch's
// one-element copy made in the kernel's scratch, or the argument): the blocks are
// dropped and each branch yields its view (Futhark's tests/migration/blocking7_exception,
// whose whole `if` moves into a gpu_body).
// CHECK-LABEL: func.func @if_yields_blocks
// CHECK:       "gpu.launch_func"({{.*}}@kernels::@gpu_body0
// CHECK:       "gpu.module"() <{sym_name = "kernels"}>
// CHECK-NOT:   !mem.block
// CHECK:       %r = scf.if %is42 -> (memref<1xi64, strided<[?], offset: ?>, #mem.space<device>>) {
// CHECK:         scf.yield %{{[0-9]+}} : memref<1xi64
// CHECK-NEXT:  } else {
// CHECK-NEXT:    scf.yield %A : memref<1xi64
// CUDA-LABEL:  extern "C" __global__ void gpu_body0(
// CUDA:        if (is42) {
// CUDA:        } else {
// CUDA-NEXT:     auto r_next_1 = A;
builtin.module {
  func.func @if_yields_blocks(%A_mem: !mem.block<device>, %A: memref<1xi64, strided<[?], offset: ?>, #mem.space<device>>, %r_dev: memref<1x1xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) {
    mem.gpu_body outs(%r_dev : memref<1x1xi64, strided<[?, ?], offset: ?>, #mem.space<device>>) {
      %c0 = arith.constant 0 : index
      %a = mem.load %A[%c0] : memref<1xi64, strided<[?], offset: ?>, #mem.space<device>>
      %k42 = arith.constant 42 : i64
      %is42 = arith.cmpi eq, %a, %k42 : i64
      %r_mem, %r = scf.if %is42 -> (!mem.block<device>, memref<1xi64, strided<[?], offset: ?>, #mem.space<device>>) {
        %n = arith.constant 8 : index
        %B_mem = mem.alloc %n : !mem.block<device>
        %B = mem.view %B_mem[%c0] : !mem.block<device> -> memref<1xi64, strided<[?], offset: ?>, #mem.space<device>>
        mem.copy %A, %B : memref<1xi64, strided<[?], offset: ?>, #mem.space<device>>, memref<1xi64, strided<[?], offset: ?>, #mem.space<device>>
        scf.yield %B_mem, %B : !mem.block<device>, memref<1xi64, strided<[?], offset: ?>, #mem.space<device>>
      } else {
        scf.yield %A_mem, %A : !mem.block<device>, memref<1xi64, strided<[?], offset: ?>, #mem.space<device>>
      }
      mem.yield %r : memref<1xi64, strided<[?], offset: ?>, #mem.space<device>>
    }
    func.return
  }
}
