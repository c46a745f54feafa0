// RUN: soacc-opt %s -t cuda | filecheck %s
// A kernel with a loop, a while loop, an if, a barrier and a strided memref: the C
// computes indices from the offset and stride, wraps integer arithmetic on unsigned
// types, and assigns loop-carried values after each iteration.

"gpu.module"() <{sym_name = "kernels"}> ({
  "gpu.func"() <{function_type = (memref<?xf32, strided<[?], offset: ?>>, index) -> ()}> ({
  ^bb0(%xs: memref<?xf32, strided<[?], offset: ?>>, %n: index):
    %i = "gpu.global_id"() <{dimension = #gpu<dim x>}> : () -> index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %x = memref.load %xs[%i] : memref<?xf32, strided<[?], offset: ?>>
      %sum = scf.for %k = %c0 to %i step %c1 iter_args(%acc = %zero) -> (f32) {
        %next = arith.addf %acc, %x : f32
        scf.yield %next : f32
      }
      %steps = scf.while (%v = %i) : (index) -> index {
        %more = arith.cmpi ugt, %v, %c1 : index
        scf.condition(%more) %v : index
      } do {
      ^bb1(%w: index):
        %half = arith.divui %w, %c1 : index
        %less = arith.subi %half, %c1 : index
        scf.yield %less : index
      }
      %m = arith.maximumf %sum, %zero : f32
      memref.store %m, %xs[%i] : memref<?xf32, strided<[?], offset: ?>>
    }
    "gpu.barrier"() : () -> ()
    "gpu.return"() : () -> ()
  }) {sym_name = "triangle", kernel} : () -> ()
}) : () -> ()

// CHECK: soacc_maximumf(float a, float b)
// CHECK-LABEL: extern "C" __global__ void triangle(float* __restrict__ xs, long long xs_offset, long long xs_size0, long long xs_stride0, long long n) {
// CHECK-NEXT:   long long i = (long long)blockIdx.x * (long long)blockDim.x + (long long)threadIdx.x;
// CHECK:        bool inside = ((unsigned long long)i) < ((unsigned long long)n);
// CHECK-NEXT:   if (inside) {
// CHECK-NEXT:     float x = xs[xs_offset + i * xs_stride0];
// CHECK-NEXT:     float acc = zero;
// CHECK-NEXT:     for (long long k = c0; k < i; k += c1) {
// CHECK-NEXT:       float next = acc + x;
// CHECK-NEXT:       acc = next;
// CHECK-NEXT:     }
// CHECK-NEXT:     float sum = acc;
// CHECK:          while (true) {
// CHECK-NEXT:       bool more = ((unsigned long long)v) > ((unsigned long long)c1);
// CHECK-NEXT:       if (!more) {
// CHECK-NEXT:         steps = v;
// CHECK-NEXT:         break;
// CHECK-NEXT:       }
// CHECK-NEXT:       w = v;
// CHECK:            long long less = (long long)((unsigned long long)half - (unsigned long long)c1);
// CHECK-NEXT:       v = less;
// CHECK-NEXT:     }
// CHECK-NEXT:     float m = soacc_maximumf(sum, zero);
// CHECK-NEXT:     xs[xs_offset + i * xs_stride0] = m;
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   return;
// CHECK-NEXT: }
