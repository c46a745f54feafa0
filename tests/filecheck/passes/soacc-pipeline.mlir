// RUN: soacc-opt %s -p soacc-pipeline | filecheck %s
// RUN: soacc-opt %s -p soacc-pipeline -t cuda | filecheck %s --check-prefix=CUDA
// soacc-pipeline runs canonicalize, cse, convert-soac-to-mem and convert-mem-to-gpu:
// the unused map is gone, the two equal maps are one, memory is explicit, and the map
// is a kernel with its launch; -t cuda prints the whole program's CUDA C.

func.func @main(%a: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %unused = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %c = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  func.return %b, %c : tensor<?xf32>, tensor<?xf32>
}

// CHECK:      builtin.module attributes {gpu.container_module} {
// CHECK:        func.func @main(%a_host_mem: !mem.block<host>, %a_host: memref<?xf32, {{.*}}#mem.space<host>>)
// CHECK-SAME:       attributes {soacc.entry_signature = (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)}
// CHECK:          mem.copy %a_host, %a
// CHECK:          "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0
// CHECK-NOT:      "gpu.launch_func"
// CHECK:          func.return
// CHECK:        "gpu.module"() <{sym_name = "kernels"}>
// CHECK:          arith.mulf
// CHECK-NOT:      arith.negf

// CUDA:       extern "C" __global__ void map0(float* __restrict__ a, long long a_offset, long long a_size0, long long a_stride0, float* __restrict__ {{.*}}, long long rows)
// CUDA-NOT:   __global__
