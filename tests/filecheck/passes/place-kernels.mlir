// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,place-kernels{host=b,s,h0}' | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,place-kernels{host=b,s,h0 report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,place-kernels{max-elements=8}' | filecheck %s --check-prefix=SMALL
// RUN: soacc-opt %s --split-input-file -p 'convert-soac-to-mem,place-kernels{host=all}' | filecheck %s --check-prefix=ALL
//
// place-kernels: chosen kernels run on the host, on host mirrors of their arrays
// (Kessler's programs map some kernels to the CPU). The input is level 1, lowered by
// convert-soac-to-mem in the same run. One chunk per case.

// A device kernel, then a host kernel reading its output, then a device kernel reading
// the host kernel's: one download before the host kernel, one upload after it. The
// host kernel reads the argument from the caller's host array itself (the mirror an
// upload leaves), so nothing is downloaded for it.
// REPORT: place-kernels: @chain: 1 kernel(s) on the host (b); 1 download(s) and 1 upload(s) added, 0 device read(s) served from the host, 0 upload(s) nothing read dropped
// CHECK-LABEL: func.func @chain
// CHECK:         mem.map ins(%x : {{.*}}#mem.space<device>>) outs(%a : {{.*}}#mem.space<device>>)
// CHECK:         %a_host_mem = mem.alloc %{{.*}} : !mem.block<host>
// CHECK:         %a_host = mem.view %a_host_mem
// CHECK-NEXT:    mem.copy %a, %a_host : {{.*}}#mem.space<device>>, {{.*}}#mem.space<host>>
// CHECK:         %b_host_mem = mem.alloc %{{.*}} : !mem.block<host>
// CHECK:         %b_host = mem.view %b_host_mem
// CHECK-NEXT:    mem.map ins(%a_host, %x_host : {{.*}}#mem.space<host>>, {{.*}}#mem.space<host>>) outs(%b_host : {{.*}}#mem.space<host>>)
// CHECK:         mem.copy %b_host, %b : {{.*}}#mem.space<host>>, {{.*}}#mem.space<device>>
// CHECK:         mem.map ins(%b : {{.*}}#mem.space<device>>) outs(%c : {{.*}}#mem.space<device>>)
// ALL-LABEL:     func.func @chain
// ALL-NOT:       #mem.space<device>
// ALL:           func.return
func.func @chain(%x: tensor<?xf32>) -> tensor<?xf32> {
  %a = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %w = arith.mulf %v, %v : f32
    soac.yield %w : f32
  }
  %b = soac.map(%a, %x) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32, %u: f32):
    %w = arith.addf %v, %u : f32
    soac.yield %w : f32
  }
  %c = soac.map(%b) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %w = arith.subf %v, %v : f32
    soac.yield %w : f32
  }
  func.return %c : tensor<?xf32>
}

// -----

// A reduction placed on the host: its 0-d result is read on the host from the mirror
// (no synchronous device read), and its device copy, which nothing then reads, is
// dropped with its block. The argument is not uploaded at all: only the host kernel
// reads it.
// REPORT: place-kernels: @sum: 1 kernel(s) on the host (s); 0 download(s) and 1 upload(s) added, 1 device read(s) served from the host, 2 upload(s) nothing read dropped
// CHECK-LABEL: func.func @sum
// CHECK-NOT:     !mem.block<device>
// CHECK:         mem.reduce ins(%x_host : {{.*}}#mem.space<host>>) neutral(%zero : f32) outs(%s_dev_host : {{.*}}#mem.space<host>>)
// CHECK:         %s = mem.load %s_dev_host[] : memref<f32, strided<[], offset: ?>, #mem.space<host>>
// CHECK-NOT:     mem.copy
// CHECK:         func.return %s
func.func @sum(%x: tensor<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = soac.reduce(%x) neutral(%zero : f32) : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  }
  func.return %s : f32
}

// -----

// A lambda that writes an array it captures (an update at a device index): the kernel
// writes the array though it is not one of its outputs, so it writes the mirror, and
// the result is read from it. Static shapes of at most 8 elements put every kernel on
// the host (max-elements=8): no device memory is left.
// CHECK-LABEL: func.func @captured_write
// SMALL-LABEL: func.func @captured_write
// SMALL-NOT:     !mem.block<device>
// SMALL:         mem.fill %z, %row_host
// SMALL:         mem.fill %row_host, %h0_host
// SMALL:         mem.map ins(%x_host : {{.*}}) outs(:) indexed {
// SMALL:           mem.load %p_host
// SMALL:           mem.store %{{.*}}, %h0_host[
// SMALL:         mem.copy %h0_host, %h_host : {{.*}}#mem.space<host>>, {{.*}}#mem.space<host>>
func.func @captured_write(%x: tensor<2xf32>, %p: tensor<1xindex>) -> tensor<4x2xf32> {
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %row = soac.replicate %c4, %z : f32 -> tensor<2xf32>
  %h0 = soac.replicate %c4, %row : tensor<2xf32> -> tensor<4x2xf32>
  %h = soac.device_update %h0[%p] = %x : tensor<4x2xf32>, tensor<1xindex>, tensor<2xf32>
  func.return %h : tensor<4x2xf32>
}
