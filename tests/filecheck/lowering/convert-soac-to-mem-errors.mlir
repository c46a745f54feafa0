// RUN: soacc-opt %s -p convert-soac-to-mem --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ERR

// Programs convert-soac-to-mem cannot bufferise, one per chunk. With --split-input-file
// a failing chunk aborts the run (exit 1) unless --verify-diagnostics is given, which
// prints each chunk's diagnostic and goes on; so these live apart from the successful
// conversions of convert-soac-to-mem.mlir. Each diagnostic is printed as a headline
// and again under the op it is attached to.

// A map whose rows are arrays must allocate all its rows before it runs, so each
// row's size must be computable outside the lambda: here it is the row itself.

// ERR:      convert-soac-to-mem: cannot bufferise soac.map: the size of an array it makes depends on values computed per row
// ERR-NEXT: "builtin.module"() ({
// ERR-NEXT:   "func.func"() <{sym_name = "row_size_depends_on_row",
// ERR-NEXT:   ^bb0(%ns: tensor<?xindex>):
// ERR-NEXT:     %r = "soac.map"(%ns) ({
// ERR-NEXT:     ^^^^{{\^*}}---{{-*}}
// ERR-NEXT:     | convert-soac-to-mem: cannot bufferise soac.map: the size of an array it makes depends on values computed per row
func.func @row_size_depends_on_row(%ns: tensor<?xindex>) -> tensor<?x?xindex> {
  %r = soac.map(%ns) : (tensor<?xindex>) -> tensor<?x?xindex> {
  ^bb0(%n: index):
    %io = soac.iota %n : tensor<?xindex>
    soac.yield %io : tensor<?xindex>
  }
  func.return %r : tensor<?x?xindex>
}

// -----

// The same, with the row size computed from the row by scalar arithmetic.

// ERR:      {{//}} -----
// ERR-NEXT: convert-soac-to-mem: cannot bufferise soac.map: the size of an array it makes depends on values computed per row
// ERR:          %r = "soac.map"(%ns) ({
// ERR-NEXT:     ^^^^{{\^*}}---{{-*}}
// ERR-NEXT:     | convert-soac-to-mem: cannot bufferise soac.map: the size of an array it makes depends on values computed per row
func.func @row_size_computed_from_row(%ns: tensor<?xindex>, %x: f32) -> tensor<?x?xf32> {
  %r = soac.map(%ns) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%n: index):
    %c1 = arith.constant 1 : index
    %m = arith.addi %n, %c1 : index
    %rep = soac.replicate %m, %x : f32 -> tensor<?xf32>
    soac.yield %rep : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// A row made by a call: its size is only known once the call has returned.

// ERR:      {{//}} -----
// ERR-NEXT: convert-soac-to-mem: cannot bufferise soac.map: the size of this array is only known once it exists (it comes from control flow or a call), but it is needed beforehand to allocate the rows of an enclosing combinator
// ERR:          %r = "soac.map"(%ns) ({
// ERR-NEXT:     ^^^^{{\^*}}---{{-*}}
func.func private @make_row(%n: index) -> tensor<?xf32> {
  %x = arith.constant 1.0 : f32
  %r = soac.replicate %n, %x : f32 -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

func.func @row_from_call(%ns: tensor<?xindex>, %n: index) -> tensor<?x?xf32> {
  %r = soac.map(%ns) : (tensor<?xindex>) -> tensor<?x?xf32> {
  ^bb0(%k: index):
    %row = func.call @make_row(%n) : (index) -> tensor<?xf32>
    soac.yield %row : tensor<?xf32>
  }
  func.return %r : tensor<?x?xf32>
}

// -----

// A call to a function with no body.

// ERR:      {{//}} -----
// ERR-NEXT: convert-soac-to-mem: cannot bufferise func.call: @ext has no body to bufferise
// ERR:          %r = "func.call"(%a) <{callee = @ext}>
// ERR-NEXT:     ^^^^{{\^*}}---{{-*}}
func.func private @ext(%v: tensor<?xf32>) -> tensor<?xf32>

func.func @calls_declaration(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = func.call @ext(%a) : (tensor<?xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// -----

// Elementwise arith on whole arrays has no level-2 form (write a map).

// ERR:      {{//}} -----
// ERR-NEXT: convert-soac-to-mem: cannot bufferise arith.addf: arith.addf on arrays cannot be bufferised
// ERR:          %c = "arith.addf"(%a, %b)
// ERR-NEXT:     ^^^^{{\^*}}---{{-*}}
// ERR-NOT:  builtin.module {
func.func @arith_on_arrays(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.addf %a, %b : tensor<4xf32>
  func.return %c : tensor<4xf32>
}
