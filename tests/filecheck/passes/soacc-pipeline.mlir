// RUN: soacc-opt %s --split-input-file -p soacc-pipeline | filecheck %s
// RUN: soacc-opt %s --split-input-file -p soacc-pipeline -t cuda | filecheck %s --check-prefix=CUDA
// RUN: soacc-opt %s --split-input-file -p soacc-pipeline -t python | filecheck %s --check-prefix=HOST
// soacc-pipeline runs canonicalize, cse, soac-fusion, reduce-device-syncs,
// merge-gpu-bodies, convert-soac-to-mem, fuse-iota, memory block merging,
// convert-mem-to-gpu, and
// canonicalize, cse and licm on the level-3 program: the unused map is gone, the two
// equal maps are one, memory is explicit, and the map is a kernel with its launch;
// -t cuda prints the whole program's CUDA C.

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
// CUDA-NOT:   __global__ void map

// -----

// The study's Listing 12: an array literal of a loop variable, made every iteration.
// reduce-device-syncs makes it in a gpu_body; memory-reuse has the gpu_body write it
// into the loop's carried block; the gpu_body kernel stores the literal where it
// belongs (no copy of it into itself, no parameter for the 1-row output); and the
// level-3 cleanup folds the block sizes and moves the views, which provably fit their
// block, out of the loop. What is left in the loop is the scalar update and the launch
// (after the iteration's mark for segment graphs).
// HOST-LABEL: def main(
// HOST:         lit_dev = A0_mem.view(
// HOST:         for _ in range(
// HOST-NEXT:        rt.next_iteration()
// HOST-NEXT:        w = v
// HOST-NEXT:        w1 = arith.addi(w, one)
// HOST-NEXT:        rt.launch('gpu_body0', {{.*}}, w, *{{[a-z0-9_]+}}.kernel_args)
// HOST-NEXT:        v = w1
// HOST-NEXT:    del
// CUDA:       extern "C" __global__ void gpu_body0(long long w, long long* __restrict__ {{[a-z0-9_]+}}, long long {{[a-z0-9_]+}}_offset, long long {{[a-z0-9_]+}}_size0, long long {{[a-z0-9_]+}}_stride0)
func.func @main(%A0: tensor<2xi64>, %v0: i64, %n: index) -> (tensor<2xi64>, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %A, %v = scf.for %i = %c0 to %n step %c1 iter_args(%a = %A0, %w = %v0) -> (tensor<2xi64>, i64) {
    %lit = soac.array [%one, %w] : tensor<2xi64>
    %w1 = arith.addi %w, %one : i64
    scf.yield %lit, %w1 : tensor<2xi64>, i64
  }
  func.return %A, %v : tensor<2xi64>, i64
}

// -----

// Two independent maps: the function gets a forked copy beside it (introduce-forks{beside},
// lowered by convert-fork-to-gpu) that launches the function's own kernels, for task
// graphs to measure against it; forked-copies=false leaves it out.
// RUN: soacc-opt %s --split-input-file -p 'soacc-pipeline{forked-copies=false}' | filecheck %s --check-prefix=NO-COPY
// CHECK-LABEL: func.func @two(
// CHECK-NOT:     fork.
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@[[F:map[0-9]+]],
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@[[G:map[0-9]+]],
// CHECK-LABEL: func.func private @two__forked(
// CHECK-SAME:      soacc.forked_variant_of = "two"
// CHECK:         fork.fork
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@[[F]],
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@[[G]],
// NO-COPY-NOT: __forked
func.func @two(%a: tensor<?xf32>, %b: tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %c = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %d = soac.map(%b) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %x : i32
    soac.yield %y : i32
  }
  func.return %c, %d : tensor<?xf32>, tensor<?xi32>
}
