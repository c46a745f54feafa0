// RUN: soacc-opt %s -p convert-soac-to-mem --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ERR

// Programs convert-soac-to-mem cannot bufferise, one per chunk. With --split-input-file
// a failing chunk aborts the run (exit 1) unless --verify-diagnostics is given, which
// prints each chunk's diagnostic and goes on; so these live apart from the successful
// conversions of convert-soac-to-mem.mlir. Each diagnostic is printed as a headline
// and again under the op it is attached to.

// A map whose rows are arrays must allocate all its rows before it runs, so each
// row's size must be computable outside the lambda: from captured values, or from the
// first row when it depends on the row (convert-soac-to-mem.mlir, rule 18). Here the
// first row's size is a reduction of that row, which only a kernel computes.

// ERR:      convert-soac-to-mem: cannot bufferise soac.map: the size of an array it makes depends on values computed per row
// ERR-NEXT: "builtin.module"() ({
// ERR-NEXT:   "func.func"() <{sym_name = "row_size_reduced_per_row",
// ERR-NEXT:   ^bb0(%m: tensor<?x?xindex>):
// ERR:          %r = "soac.map"(%m) ({
// ERR-NEXT:     ^^^^{{\^*}}---{{-*}}
// ERR-NEXT:     | convert-soac-to-mem: cannot bufferise soac.map: the size of an array it makes depends on values computed per row
func.func @row_size_reduced_per_row(%m: tensor<?x?xindex>) -> tensor<?x?xindex> {
  %c0 = arith.constant 0 : index
  %r = soac.map(%m) : (tensor<?x?xindex>) -> tensor<?x?xindex> {
  ^bb0(%row: tensor<?xindex>):
    %k = soac.reduce(%row) neutral(%c0 : index) : (tensor<?xindex>) -> index {
    ^bb1(%x: index, %y: index):
      %t = arith.addi %x, %y : index
      soac.yield %t : index
    }
    %io = soac.iota %k : tensor<?xindex>
    soac.yield %io : tensor<?xindex>
  }
  func.return %r : tensor<?x?xindex>
}

// -----

// A row carried through a loop that doubles it: its size is only known once the loop
// has run.

// ERR:      {{//}} -----
// ERR-NEXT: convert-soac-to-mem: cannot bufferise soac.map: the size of this array is only known once it exists (it comes from control flow or a call), but it is needed beforehand to allocate the rows of an enclosing combinator
// ERR:          %r = "soac.map"(%a) ({
// ERR-NEXT:     ^^^^{{\^*}}---{{-*}}
func.func @row_grows_in_loop(%a: tensor<?xf32>, %n: index, %k: index) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?x?xf32> {
  ^bb0(%e: f32):
    %init = soac.replicate %n, %e : f32 -> tensor<?xf32>
    %grown = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %init) -> (tensor<?xf32>) {
      %cat = soac.concat %acc, %acc : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      scf.yield %cat : tensor<?xf32>
    }
    soac.yield %grown : tensor<?xf32>
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
