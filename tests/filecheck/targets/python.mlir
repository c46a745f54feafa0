// RUN: soacc-opt %s -p 'soacc-pipeline{memory=false}' -t python | filecheck %s
// The python target: the host code of the program after soacc-pipeline, one Python
// function per func.func calling the runtime `rt`. A map over an array argument
// copies it to the device (copy_or_borrow: nothing writes the copy, so an argument
// already on the GPU is read where it is), launches a kernel (the view passed as pointer, offset,
// sizes and strides; the grid and block sizes as Python ints, constants as literals),
// reads an element back synchronously and returns the result in host memory; each
// block and view is deleted after its last use.

func.func @main(%a: tensor<?xf32>, %i: index) -> (tensor<?xf32>, f32) {
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %e = soac.index %b[%i] : tensor<?xf32>
  func.return %b, %e : tensor<?xf32>, f32
}

// CHECK:      import numpy as np
// CHECK:      from soacc.runtime.host_scalars import arith, math
// CHECK:      KERNELS = {
// CHECK-NEXT:     'map0': 'PqqqPqqqq',  # a, b, rows
// CHECK-NEXT: }
// CHECK:      def main(rt, a_host_mem, a_host, i):
// CHECK-NEXT:     """@main: (tensor<?xf32>, index) -> (tensor<?xf32>, f32)"""
// CHECK-NEXT:     del a_host_mem
// CHECK-NEXT:     [[N:v[0-9]+]] = a_host.size(0)
// CHECK:          a_mem = rt.alloc_device([[BYTES:v[0-9]+]])
// CHECK:          a = a_mem.view({{v[0-9]+}}, ([[N]],), None, np.float32)
// CHECK-NEXT:     del a_mem
// CHECK-NEXT:     rt.copy_or_borrow(a_host, a)
// CHECK-NEXT:     del a_host
// CHECK:          b_mem = rt.alloc_device(
// CHECK:          rt.launch('map0', (int({{v[0-9]+}}), 1, 1), (256, 1, 1), *a.kernel_args, *b.kernel_args, [[ROWS:v[0-9]+]])
// CHECK-NEXT:     del a
// CHECK-NEXT:     e = rt.load(b, (i,))
// CHECK:          b_host_mem = rt.alloc_host(
// CHECK:          rt.copy(b, b_host)
// CHECK-NEXT:     del b
// CHECK-NEXT:     return (b_host_mem, b_host, e)
