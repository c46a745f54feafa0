// Port of Futhark's tests/migration/sizevar1_index.fut: a size must be on the host
// before it is used, so it blocks the migration of the bodies that bind it and of
// their parents. n = A[2] is the size of B = A[:n], so the if that binds n and the
// outer if stay on the host (n, A[0] and A[1] are read); the if that uses n moves
// whole into a gpu_body (with the read of A[3]), and so does the last if, with
// A[4] == x[0]. Matching (3 reads, as Futhark).
//   structure gpu { /If 1  /If/True/If 1  /If/True/If/True/GPUBody/If 1  /If/True/GPUBody/If 1 }
// Futhark's sizes are i64, so n is the size itself; soacc's are index, so n is read
// and converted where Futhark binds it. `opaque B :> [1]i64` is a slice of all of B
// to a static [1] (a slice whose count is not that size fails, as the coercion does).
// @cast_in_branch, not Futhark's, converts n where B uses it instead, inside the if
// that would move: worse, that if stays on the host and A[3] is read too (4 reads).
// The conversion there is a size bound in that branch: the migration table's
// `required_on_host` marks the depth of the value a slice's count is
// (`host_only_parents`), and the body at that depth cannot move whole, though the
// cast is a pure op of n, which is bound further out (hoisting pure scalar ops out of
// a branch, or looking through casts to the value they convert, would fix it).
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %k0 = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %is0 = arith.cmpi eq, %a0, %k0 : i64
  %r = scf.if %is0 -> (tensor<1xi64>) {
    %a1 = soac.index %A[%c1] : tensor<5xi64>
    %is1 = arith.cmpi eq, %a1, %k0 : i64
    %x = scf.if %is1 -> (tensor<1xi64>) {
      %n64 = soac.index %A[%c2] : tensor<5xi64>
      %n = arith.index_cast %n64 : i64 to index
      %a3 = soac.index %A[%c3] : tensor<5xi64>
      %is3 = arith.cmpi eq, %a3, %k0 : i64
      %y = scf.if %is3 -> (tensor<1xi64>) {
        %B = soac.slice %A[%c0:%n] : tensor<5xi64> -> tensor<?xi64>
        %m = soac.size %B[0] : tensor<?xi64>
        %B1 = soac.slice %B[%c0:%m] : tensor<?xi64> -> tensor<1xi64>
        scf.yield %B1 : tensor<1xi64>
      } else {
        %i = arith.remui %n, %c5 : index
        %s = soac.slice %A[%i:%c1] : tensor<5xi64> -> tensor<1xi64>
        scf.yield %s : tensor<1xi64>
      }
      scf.yield %y : tensor<1xi64>
    } else {
      %s = soac.slice %A[%c0:%c1] : tensor<5xi64> -> tensor<1xi64>
      scf.yield %s : tensor<1xi64>
    }
    %a4 = soac.index %A[%c4] : tensor<5xi64>
    %x0 = soac.index %x[%c0] : tensor<1xi64>
    %eq = arith.cmpi eq, %a4, %x0 : i64
    %z = scf.if %eq -> (tensor<1xi64>) {
      %s = soac.slice %A[%c1:%c1] : tensor<5xi64> -> tensor<1xi64>
      scf.yield %s : tensor<1xi64>
    } else {
      %s = soac.slice %A[%c2:%c1] : tensor<5xi64> -> tensor<1xi64>
      scf.yield %s : tensor<1xi64>
    }
    scf.yield %z : tensor<1xi64>
  } else {
    %s = soac.slice %A[%c3:%c1] : tensor<5xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  }
  func.return %r : tensor<1xi64>
}

// The same, n converted in the branches that use it.
func.func @cast_in_branch(%A: tensor<5xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %k0 = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %is0 = arith.cmpi eq, %a0, %k0 : i64
  %r = scf.if %is0 -> (tensor<1xi64>) {
    %a1 = soac.index %A[%c1] : tensor<5xi64>
    %is1 = arith.cmpi eq, %a1, %k0 : i64
    %x = scf.if %is1 -> (tensor<1xi64>) {
      %n64 = soac.index %A[%c2] : tensor<5xi64>
      %a3 = soac.index %A[%c3] : tensor<5xi64>
      %is3 = arith.cmpi eq, %a3, %k0 : i64
      %y = scf.if %is3 -> (tensor<1xi64>) {
        %n = arith.index_cast %n64 : i64 to index
        %B = soac.slice %A[%c0:%n] : tensor<5xi64> -> tensor<?xi64>
        %m = soac.size %B[0] : tensor<?xi64>
        %B1 = soac.slice %B[%c0:%m] : tensor<?xi64> -> tensor<1xi64>
        scf.yield %B1 : tensor<1xi64>
      } else {
        %n = arith.index_cast %n64 : i64 to index
        %i = arith.remui %n, %c5 : index
        %s = soac.slice %A[%i:%c1] : tensor<5xi64> -> tensor<1xi64>
        scf.yield %s : tensor<1xi64>
      }
      scf.yield %y : tensor<1xi64>
    } else {
      %s = soac.slice %A[%c0:%c1] : tensor<5xi64> -> tensor<1xi64>
      scf.yield %s : tensor<1xi64>
    }
    %a4 = soac.index %A[%c4] : tensor<5xi64>
    %x0 = soac.index %x[%c0] : tensor<1xi64>
    %eq = arith.cmpi eq, %a4, %x0 : i64
    %z = scf.if %eq -> (tensor<1xi64>) {
      %s = soac.slice %A[%c1:%c1] : tensor<5xi64> -> tensor<1xi64>
      scf.yield %s : tensor<1xi64>
    } else {
      %s = soac.slice %A[%c2:%c1] : tensor<5xi64> -> tensor<1xi64>
      scf.yield %s : tensor<1xi64>
    }
    scf.yield %z : tensor<1xi64>
  } else {
    %s = soac.slice %A[%c3:%c1] : tensor<5xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  }
  func.return %r : tensor<1xi64>
}
// CHECK-DAG: @main /scf.if [1]
// CHECK-DAG: @main /soac.gpu_body [0]
// CHECK-DAG: @main /scf.if/then/scf.if [1]
// CHECK-DAG: @main /scf.if/then/scf.if/then/scf.if [0]
// CHECK-DAG: @main /scf.if/then/scf.if/then/soac.gpu_body/scf.if [1]
// CHECK-DAG: @main /scf.if/then/soac.gpu_body/scf.if [1]
// CHECK-DAG: @main soac.gpu_body [2]
// The if that uses n stays on the host and compares its read A[3] there:
// CHECK-DAG: @cast_in_branch /scf.if/then/scf.if/then/scf.if [1]
// CHECK-DAG: @cast_in_branch /scf.if/then/scf.if/then/cmpop [1]
// CHECK-DAG: @cast_in_branch /scf.if/then/soac.gpu_body/scf.if [1]
// CHECK-DAG: @cast_in_branch soac.gpu_body [1]
