// RUN: soacc-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// One chunk per husk verifier error (dialects/husk.py), in the order of the file.

// ---- husk.husk

// One level of husks: never one in another's body.
func.func @nested(%xs: tensor<?xi32>, %m: index) -> tensor<?xi32> {
  %ys = husk.husk size(%m) (%xs : tensor<?xi32>) -> (tensor<?xi32>) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    %q = husk.husk size(%n) (%p : tensor<?xi32>) -> (tensor<?xi32>) {
    ^bb1(%o2: index, %n2: index, %p2: tensor<?xi32>):
      husk.yield %p2 : tensor<?xi32>
    } reduce {
    }
    husk.yield %q : tensor<?xi32>
  } reduce {
  }
  func.return %ys : tensor<?xi32>
}

// CHECK: husk.husk inside a husk's body: husks have one level

// -----

// A husk is host code: never inside a kernel's lambda.
func.func @in_kernel(%xss: tensor<?x4xi32>) -> tensor<?x4xi32> {
  %yss = soac.map(%xss) : (tensor<?x4xi32>) -> tensor<?x4xi32> {
  ^bb0(%row: tensor<4xi32>):
    %c4 = arith.constant 4 : index
    %r = husk.husk size(%c4) (%row : tensor<4xi32>) -> (tensor<4xi32>) {
    ^bb1(%o: index, %n: index, %p: tensor<?xi32>):
      husk.yield %p : tensor<?xi32>
    } reduce {
    }
    soac.yield %r : tensor<4xi32>
  }
  func.return %yss : tensor<?x4xi32>
}

// CHECK: husk.husk inside a kernel: a husk is host code

// -----

func.func @sources_disagree(%xs: tensor<4xi32>, %ys: tensor<5xi32>, %m: index) {
  husk.husk size(%m) (%xs, %ys : tensor<4xi32>, tensor<5xi32>) -> () {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>, %q: tensor<?xi32>):
    husk.yield
  } reduce {
  }
  func.return
}

// CHECK: husk.husk source 1 has 5 rows, but an earlier one has 4; every source has the husk's size in rows

// -----

// A partition has any number of rows (`?`): the device's.
func.func @partition_type(%xs: tensor<4xi32>, %m: index) {
  husk.husk size(%m) (%xs : tensor<4xi32>) -> () {
  ^bb0(%o: index, %n: index, %p: tensor<4xi32>):
    husk.yield
  } reduce {
  }
  func.return
}

// CHECK: husk.husk body parameters are (index, index, tensor<4xi32>); expected (offset: index, size: index, then a partition of each source: tensor<?xi32>)

// -----

func.func @missing_reduced(%xs: tensor<?xi32>, %m: index) -> i32 {
  %zero = arith.constant 0 : i32
  %s = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) -> (i32) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    husk.yield
  } reduce {
  ^bb1(%a: i32, %b: i32):
    husk.yield %a : i32
  }
  func.return %s : i32
}

// CHECK: husk.husk body yields 0 value(s); expected its 1 reduced value(s) first

// -----

func.func @reduced_type(%xs: tensor<?xi32>, %m: index) -> i32 {
  %zero = arith.constant 0 : i32
  %s = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) -> (i32) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    %f = arith.constant 1.0 : f32
    husk.yield %f : f32
  } reduce {
  ^bb1(%a: i32, %b: i32):
    husk.yield %a : i32
  }
  func.return %s : i32
}

// CHECK: husk.husk body's reduced values are (f32); expected the neutral elements' types (i32)

// -----

// A concatenated value has the partition's rows: any number (`?`).
func.func @concatenated_rows(%xs: tensor<?xi32>, %m: index) -> tensor<?xi32> {
  %ys = husk.husk size(%m) (%xs : tensor<?xi32>) -> (tensor<?xi32>) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    %c = arith.constant 3 : index
    %q = soac.iota %c : tensor<3xi32>
    husk.yield %q : tensor<3xi32>
  } reduce {
  }
  func.return %ys : tensor<?xi32>
}

// CHECK: husk.husk body's concatenated value 0 is tensor<3xi32>; expected an array whose rows are the partition's (outer size ?)

// -----

func.func @results(%xs: tensor<?xi32>, %m: index) -> tensor<?xi64> {
  %ys = husk.husk size(%m) (%xs : tensor<?xi32>) -> (tensor<?xi64>) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    husk.yield %p : tensor<?xi32>
  } reduce {
  }
  func.return %ys : tensor<?xi64>
}

// CHECK: husk.husk results are (tensor<?xi64>); expected the reduced values, then the concatenated arrays of the husk's rows (tensor<?xi32>)

// -----

func.func @reduce_without_neutral(%xs: tensor<?xi32>, %m: index) -> tensor<?xi32> {
  %ys = husk.husk size(%m) (%xs : tensor<?xi32>) -> (tensor<?xi32>) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    husk.yield %p : tensor<?xi32>
  } reduce {
  ^bb1(%a: i32, %b: i32):
    husk.yield %a : i32
  }
  func.return %ys : tensor<?xi32>
}

// CHECK: husk.husk has no neutral elements, so its reduce region must be empty

// -----

func.func @no_operator(%xs: tensor<?xi32>, %m: index) -> i32 {
  %zero = arith.constant 0 : i32
  %s = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) -> (i32) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    husk.yield %zero : i32
  } reduce {
  }
  func.return %s : i32
}

// CHECK: husk.husk reduces 1 value(s), so its reduce region is one block: the operator

// -----

// The operator takes the left values, then the right ones: 2k parameters, not k.
func.func @operator_parameters(%xs: tensor<?xi32>, %m: index) -> i32 {
  %zero = arith.constant 0 : i32
  %s = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) -> (i32) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    husk.yield %zero : i32
  } reduce {
  ^bb1(%a: i32):
    husk.yield %a : i32
  }
  func.return %s : i32
}

// CHECK: husk.husk reduce parameters are (i32); expected (i32, i32): the left values, then the right ones

// -----

func.func @operator_results(%xs: tensor<?xi32>, %m: index) -> i32 {
  %zero = arith.constant 0 : i32
  %s = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) -> (i32) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    husk.yield %zero : i32
  } reduce {
  ^bb1(%a: i32, %b: i32):
    husk.yield
  }
  func.return %s : i32
}

// CHECK: husk.husk reduce yields (); expected (i32)

// -----

// A scan husk scans arrays of scalars: a neutral element that is an array is refused.
func.func @scan_of_rows(%xs: tensor<?x2xi32>, %z: tensor<2xi32>, %m: index) -> tensor<?x2xi32> {
  %ys = husk.husk size(%m) (%xs : tensor<?x2xi32>) neutral(%z : tensor<2xi32>) scan -> (tensor<?x2xi32>) {
  ^bb0(%o: index, %n: index, %p: tensor<?x2xi32>):
    husk.yield %p : tensor<?x2xi32>
  } reduce {
  ^bb1(%a: tensor<2xi32>, %b: tensor<2xi32>):
    husk.yield %a : tensor<2xi32>
  }
  func.return %ys : tensor<?x2xi32>
}

// CHECK: husk.husk scan neutral element 0 is tensor<2xi32>; a scan husk scans arrays of scalars

// -----

// Its body yields each scan of its rows first, of the neutral element's type.
func.func @scan_yield(%xs: tensor<?xi32>, %m: index) -> tensor<?xi64> {
  %zero = arith.constant 0 : i32
  %ys = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32) scan -> (tensor<?xi64>) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    %q = soac.iota %n : tensor<?xi64>
    husk.yield %q : tensor<?xi64>
  } reduce {
  ^bb1(%a: i32, %b: i32):
    husk.yield %a : i32
  }
  func.return %ys : tensor<?xi64>
}

// CHECK: husk.husk scan body yields tensor<?xi64> as scanned array 0; expected its rows' scan, tensor<?xi32>

// -----

// A scan husk scans at least one array.
func.func @scan_nothing(%xs: tensor<?xi32>, %m: index) -> tensor<?xi32> {
  %ys = husk.husk size(%m) (%xs : tensor<?xi32>) scan -> (tensor<?xi32>) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi32>):
    husk.yield %p : tensor<?xi32>
  } reduce {
  }
  func.return %ys : tensor<?xi32>
}

// CHECK: husk.husk scan has no neutral elements: it scans at least one array

// -----

// A scatter husk has no neutral elements (it reduces and scans nothing).
func.func @scatter_neutral(%dest: tensor<?xf32>, %xs: tensor<?xi64>, %m: index) -> tensor<?xf32> {
  %zero = arith.constant 0 : i64
  %r = husk.husk size(%m) (%xs : tensor<?xi64>) neutral(%zero : i64) scatter(%dest : tensor<?xf32>) -> (tensor<?xf32>) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi64>):
    husk.yield %p : tensor<?xi64>
  } reduce {
  ^bb1(%a: i64, %b: i64):
    husk.yield %a : i64
  }
  func.return %r : tensor<?xf32>
}

// CHECK: husk.husk scatter reduces and scans nothing: it has no neutral elements

// -----

// Its body yields indices and values first.
func.func @scatter_no_pairs(%dest: tensor<?xf32>, %xs: tensor<?xi64>, %m: index) -> tensor<?xf32> {
  %r = husk.husk size(%m) (%xs : tensor<?xi64>) scatter(%dest : tensor<?xf32>) -> (tensor<?xf32>) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi64>):
    husk.yield %p : tensor<?xi64>
  } reduce {
  }
  func.return %r : tensor<?xf32>
}

// CHECK: husk.husk scatter body yields 1 value(s); expected indices and values first

// -----

// Indices are integers, one per row.
func.func @scatter_indices(%dest: tensor<?xf32>, %xs: tensor<?xf32>, %m: index) -> tensor<?xf32> {
  %r = husk.husk size(%m) (%xs : tensor<?xf32>) scatter(%dest : tensor<?xf32>) -> (tensor<?xf32>) {
  ^bb0(%o: index, %n: index, %p: tensor<?xf32>):
    husk.yield %p, %p : tensor<?xf32>, tensor<?xf32>
  } reduce {
  }
  func.return %r : tensor<?xf32>
}

// CHECK: husk.husk scatter body yields tensor<?xf32> as its indices; expected one index per row (tensor<?xindex>, i32 or i64)

// -----

// Values are rows of the destination.
func.func @scatter_values(%dest: tensor<?xf32>, %xs: tensor<?xi64>, %m: index) -> tensor<?xf32> {
  %r = husk.husk size(%m) (%xs : tensor<?xi64>) scatter(%dest : tensor<?xf32>) -> (tensor<?xf32>) {
  ^bb0(%o: index, %n: index, %p: tensor<?xi64>):
    husk.yield %p, %p : tensor<?xi64>, tensor<?xi64>
  } reduce {
  }
  func.return %r : tensor<?xf32>
}

// CHECK: husk.husk scatter body yields tensor<?xi64> as its values; expected one row of the destination (f32) per row

// ---- husk.run

// -----

func.func @run_in_run(%xs: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %m: index) {
  %busy = husk.run size(%m) (%xs : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) -> index {
  ^bb0(%d: index, %o: index, %n: index, %p: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>):
    %inner = husk.run size(%n) (%p : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) -> index {
    ^bb1(%d2: index, %o2: index, %n2: index, %p2: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>):
      husk.yield
    }
    husk.yield
  }
  func.return
}

// CHECK: husk.run inside a husk's body: husks have one level

// -----

// A husk's arrays are on the main device: host arrays are no source.
func.func @run_host_source(%xs: memref<?xi32, strided<[?], offset: ?>, #mem.space<host>>, %m: index) {
  %busy = husk.run size(%m) (%xs : memref<?xi32, strided<[?], offset: ?>, #mem.space<host>>) -> index {
  ^bb0(%d: index, %o: index, %n: index, %p: memref<?xi32, strided<[?], offset: ?>, #mem.space<host>>):
    husk.yield
  }
  func.return
}

// CHECK: husk.run sources 0 is memref<?xi32, strided<[?], offset: ?>, #mem.space<host>>; a husk's arrays are on the main device (#mem.space<device>)

// -----

// A slot array's row in the body is a view of one row (0-d for scalars).
func.func @run_slot_row(%s: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>, %m: index) {
  %busy = husk.run size(%m) () slots(%s : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) -> index {
  ^bb0(%d: index, %o: index, %n: index, %slot: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>):
    husk.yield
  }
  func.return
}

// CHECK: husk.run body parameters are (index, index, index, memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>); expected (device, offset, size, then the sources' and outs' rows and a row of each slot array: index, index, index, memref<i32, strided<[], offset: ?>, #mem.space<device>>)

// -----

func.func @run_yields(%m: index) {
  %busy = husk.run size(%m) () -> index {
  ^bb0(%d: index, %o: index, %n: index):
    husk.yield %d : index
  }
  func.return
}

// CHECK: husk.run body must end with husk.yield of no values
