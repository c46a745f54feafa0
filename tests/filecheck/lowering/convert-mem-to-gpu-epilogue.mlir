// RUN: soacc-opt %s --split-input-file -p convert-mem-to-gpu | filecheck %s
// RUN: soacc-opt %s --split-input-file -p convert-mem-to-gpu -t cuda | filecheck %s --check-prefix=CUDA

// A gpu_body right after a reduction runs on the reduction's final kernel, on the thread
// that stores the reduced value, after it: convergence's shift by the new mean. Its read
// of the reduced value through memory is that thread's own store; its output's block,
// allocated between the two, is allocated before the final launch; no gpu_body launch.
// CHECK-LABEL: func.func @shift_by_mean(
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@reduce0_partials
// CHECK:         %shift_mem = mem.alloc
// CHECK:         %shift = mem.view %shift_mem
// CHECK:         "gpu.launch_func"({{.*}}%s_dev, %nf, %shift{{.*}}) <{kernel = @kernels::@reduce0_final
// CHECK-NOT:     gpu_body
// CHECK:         func.return
// CUDA-LABEL: void reduce0_final(
// CUDA:           s_dev[s_dev_offset] = [[TOTAL:v_[0-9]+]];
// CUDA-NEXT:      float [[S:.*]] = s_dev[s_dev_offset];
// CUDA-NEXT:      float m = [[S]] / nf;
// CUDA:           shift[shift_offset + {{.*}}] = m;
// CUDA-NEXT:    }
// CUDA-NEXT:    return;
func.func @shift_by_mean(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %nf: f32) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %s_mem = mem.alloc %c4 : !mem.block<device>
  %s_dev = mem.view %s_mem[%c0] : !mem.block<device> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zero : f32) commutative outs(%s_dev : memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    mem.yield %t : f32
  }
  %shift_mem = mem.alloc %c4 : !mem.block<device>
  %shift = mem.view %shift_mem[%c0] : !mem.block<device> -> memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.gpu_body outs(%shift : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    %s = mem.load %s_dev[] : memref<f32, strided<[], offset: ?>, #mem.space<device>>
    %m = arith.divf %s, %nf : f32
    mem.yield %m : f32
  }
  func.return
}

// -----

// gauss_jordan's pivot: the host reads the argmax (it slices with it), and the gpu_body
// reads the matrix at the row the host computes from it. On the final kernel's thread
// that row is computed from the thread's own reduced value, redone there.
// CHECK-LABEL: func.func @pivot(
// CHECK:         %best = mem.load %best_dev[]
// CHECK-NOT:     gpu_body
// CUDA-LABEL: void reduce0_final(
// CUDA:           best_dev[best_dev_offset] = [[BEST:v_[0-9]+]];
// CUDA-NEXT:      long long p = (long long)((unsigned long long)k + (unsigned long long)[[BEST]]);
// CUDA-NEXT:      float [[V:.*]] = m[m_offset + p * m_stride0 + k * m_stride1];
// CUDA:           pv[pv_offset + {{.*}}] = [[V]];
func.func @pivot(%is: memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>, %m: memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>, %k: index) -> index {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %best_mem = mem.alloc %c8 : !mem.block<device>
  %best_dev = mem.view %best_mem[%c0] : !mem.block<device> -> memref<index, strided<[], offset: ?>, #mem.space<device>>
  mem.reduce ins(%is : memref<?xindex, strided<[?], offset: ?>, #mem.space<device>>) neutral(%c0 : index) commutative outs(%best_dev : memref<index, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%l: index, %r: index):
    %t = arith.maxui %l, %r : index
    mem.yield %t : index
  }
  %best = mem.load %best_dev[] : memref<index, strided<[], offset: ?>, #mem.space<device>>
  %p = arith.addi %k, %best : index
  %pv_mem = mem.alloc %c8 : !mem.block<device>
  %pv = mem.view %pv_mem[%c0] : !mem.block<device> -> memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.gpu_body outs(%pv : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    %v = mem.load %m[%p, %k] : memref<?x?xf32, strided<[?, ?], offset: ?>, #mem.space<device>>
    mem.yield %v : f32
  }
  func.return %best : index
}

// -----

// A body that builds its result in place, in row 0 of its output (a literal of the
// reduced value): the final kernel takes the output, which the body writes itself.
// CHECK-LABEL: func.func @in_place(
// CHECK:         "gpu.launch_func"({{.*}}%s_dev, %c0, %o, {{.*}}) <{kernel = @kernels::@reduce0_final
// CHECK-NOT:     gpu_body
// CUDA-LABEL: void reduce0_final(
// CUDA:           s_dev[s_dev_offset] = [[TOTAL:v_[0-9]+]];
// CUDA:           float [[S:v_[0-9]+]] = s_dev[s_dev_offset];
// CUDA:           o[o_offset + c0 * o_stride0 + {{v_[0-9]+}} * o_stride1] = [[S]];
// CUDA:           o[o_offset + c0 * o_stride0 + {{v_[0-9]+}} * o_stride1] = [[S]];
// CUDA-NEXT:    }
func.func @in_place(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %o: memref<1x2xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %s_mem = mem.alloc %c4 : !mem.block<device>
  %s_dev = mem.view %s_mem[%c0] : !mem.block<device> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zero : f32) commutative outs(%s_dev : memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    mem.yield %t : f32
  }
  mem.gpu_body outs(%o : memref<1x2xf32, strided<[?, ?], offset: ?>, #mem.space<device>>) {
    %row = mem.slice %o[%c0] : memref<1x2xf32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>
    %s = mem.load %s_dev[] : memref<f32, strided<[], offset: ?>, #mem.space<device>>
    mem.array [%s, %s] outs(%row : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>)
    mem.yield %row : memref<2xf32, strided<[?], offset: ?>, #mem.space<device>>
  }
  func.return
}

// -----

// Not folded: a copy between the two writes what the gpu_body reads (the gpu_body would
// read it before the copy), and a kernel between a reduction and a gpu_body keeps them
// apart.
// CHECK-LABEL: func.func @copy_between(
// CHECK:         @kernels::@reduce0_final
// CHECK:         mem.copy
// CHECK:         @kernels::@gpu_body1
// CHECK-LABEL: func.func @kernel_between(
// CHECK:         @kernels::@reduce2_final
// CHECK:         @kernels::@fill3
// CHECK:         @kernels::@gpu_body4
func.func @copy_between(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %c: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %out: memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %s_mem = mem.alloc %c4 : !mem.block<device>
  %s_dev = mem.view %s_mem[%c0] : !mem.block<device> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zero : f32) commutative outs(%s_dev : memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    mem.yield %t : f32
  }
  mem.copy %c, %b : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.gpu_body outs(%out : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    %x = mem.load %b[%c0] : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
    mem.yield %x : f32
  }
  func.return
}
func.func @kernel_between(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, %out: memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %s_mem = mem.alloc %c4 : !mem.block<device>
  %s_dev = mem.view %s_mem[%c0] : !mem.block<device> -> memref<f32, strided<[], offset: ?>, #mem.space<device>>
  mem.reduce ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) neutral(%zero : f32) commutative outs(%s_dev : memref<f32, strided<[], offset: ?>, #mem.space<device>>) {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    mem.yield %t : f32
  }
  mem.fill %zero, %b : f32, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
  mem.gpu_body outs(%out : memref<1xf32, strided<[?], offset: ?>, #mem.space<device>>) {
    %x = mem.load %s_dev[] : memref<f32, strided<[], offset: ?>, #mem.space<device>>
    mem.yield %x : f32
  }
  func.return
}
