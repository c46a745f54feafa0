// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu --split-input-file | filecheck %s
// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu -t cuda --split-input-file | filecheck %s --check-prefix=CUDA

// A scatter per row (a map of a scatter: lowering/gpu_segmented_scatter.py): the host
// checks the lengths, then one kernel makes each output row what the lambda copied
// into it (here a row of %dest), and one kernel runs every row's writes at once, over
// rows * k elements: element e is element e mod k of row e div k, taken apart in
// 32-bit arithmetic below 2^31 elements.
// CHECK-LABEL: func.func @rows(
// CHECK:         cf.assert {{%[0-9]+}}, "a scatter inside a map has positions and values of different lengths"
// CHECK-NEXT:    [[ROWS:%[0-9]+]] = mem.size %dest[0]
// CHECK-NEXT:    [[WIDTH:%[0-9]+]] = mem.size %r[1]
// CHECK:         cf.assert {{%[0-9]+}}, "copies an array into one of another shape"
// CHECK:         "gpu.launch_func"({{.*}}, %dest, %iss, %vss, %r, [[ROWS]], [[WIDTH]]) <{kernel = @kernels::@map0_scatter_rows_init,
// CHECK:         "gpu.launch_func"({{.*}}, %dest, %iss, %vss, %r, [[ROWS]], [[K:%[0-9]+]]) <{kernel = @kernels::@map0_scatter_rows,
// CHECK:         ^bb0(%dest: {{.*}}, %iss: {{.*}}, %vss: {{.*}}, %r: {{.*}}, %rows: index, %width: index):
// CHECK:           scf.if
// CHECK:             scf.for
// CHECK:               [[X:%[0-9]+]] = memref.load %dest[[[R:%[0-9]+]], [[J:%[0-9]+]]]
// CHECK-NEXT:          memref.store [[X]], %r[[[R]], [[J]]]
// CHECK:         }) {sym_name = "map0_scatter_rows_init"
// CHECK:         ^bb0(%dest{{.*}}: {{.*}}, %iss{{.*}}: {{.*}}, %vss{{.*}}: {{.*}}, %r{{.*}}: {{.*}}, %rows{{.*}}: index, %length: index):
// CHECK:             scf.for
// CHECK:               [[E:%[0-9]+]] = arith.index_cast
// CHECK-NEXT:          [[RR:%[0-9]+]] = arith.divui [[E]], {{%[0-9]+}} : i32
// CHECK-NEXT:          [[JJ:%[0-9]+]] = arith.remui [[E]], {{%[0-9]+}} : i32
// CHECK:               [[P:%[0-9]+]] = memref.load %iss{{.*}}[
// CHECK-NEXT:          [[V:%[0-9]+]] = memref.load %vss{{.*}}[
// CHECK-NEXT:          [[PI:%[0-9]+]] = arith.index_cast [[P]] : i32 to index
// CHECK-NEXT:          [[IN:%[0-9]+]] = arith.cmpi ult, [[PI]], {{%[0-9]+}} : index
// CHECK-NEXT:          scf.if [[IN]] {
// CHECK-NEXT:            memref.store [[V]], %r{{.*}}[{{%[0-9]+}}, [[PI]]]
// CHECK:         }) {sym_name = "map0_scatter_rows"
// CUDA:        extern "C" __global__ void map0_scatter_rows_init(
// CUDA:        extern "C" __global__ void map0_scatter_rows(
func.func @rows(%dest: tensor<?x?xf32>, %iss: tensor<?x?xi32>, %vss: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = soac.map(%dest, %iss, %vss) : (tensor<?x?xf32>, tensor<?x?xi32>, tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%d: tensor<?xf32>, %is: tensor<?xi32>, %vs: tensor<?xf32>):
    %s = soac.scatter %d[%is] = %vs : tensor<?xf32>, tensor<?xi32>, tensor<?xf32>
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// Rows that start as one value, each its row's element of an input (a replicate of
// the lambda's element), positions from outside, values a replicate of a constant:
// the rows filled, then written.
// CHECK-LABEL: func.func @marks(
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_scatter_rows_init,
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_scatter_rows,
// CHECK:         [[E:%[0-9]+]] = memref.load %a[[[R:%[0-9]+]]]
// CHECK-NEXT:    memref.store [[E]], %r[[[R]], {{%[0-9]+}}]
// CHECK:         }) {sym_name = "map0_scatter_rows_init"
// CHECK:         memref.load %is[
// CHECK:         memref.store %one, %r
// CHECK:         }) {sym_name = "map0_scatter_rows"
func.func @marks(%a: tensor<?xi64>, %is: tensor<?xi64>, %n: index) -> tensor<?x?xi64> {
  %one = arith.constant 1 : i64
  %r = soac.map(%a) : (tensor<?xi64>) -> tensor<?x?xi64> {
  ^bb0(%e: i64):
    %z = soac.replicate %n, %e : i64 -> tensor<?xi64>
    %k = soac.size %is[0] : tensor<?xi64>
    %ones = soac.replicate %k, %one : i64 -> tensor<?xi64>
    %s = soac.scatter %z[%is] = %ones : tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
    soac.yield %s : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}
