// RUN: soacc-opt %s --split-input-file -p soac-fusion | filecheck %s
// RUN: soacc-opt %s --split-input-file -p 'soac-fusion{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT

// soac-fusion: one case per rule, then one per refusal (the reason in the comment above
// the case; REPORT lines check what soac-fusion{report=true} says). Several cases are
// Futhark's fusion tests (diku-dk/futhark, tests/fusion/), ported to the soac dialect.

// ---- Vertical (producer-consumer) fusion -------------------------------------------

// map-map (Futhark tests/fusion/fuseEasy1): the producer's lambda runs first, in the
// consumer's lambda; %b no longer exists.
func.func @map_map(%a: tensor<?xf32>) -> tensor<?xf32> {
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %c = soac.map(%b) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  func.return %c : tensor<?xf32>
}

// CHECK-LABEL: func.func @map_map(%a: tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    %c = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%x: f32):
// CHECK-NEXT:      %y = arith.mulf %x, %x : f32
// CHECK-NEXT:      %y_1 = arith.negf %y : f32
// CHECK-NEXT:      soac.yield %y_1 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %c : tensor<?xf32>
// REPORT: soac-fusion: fused soac.map %b into soac.map %c: soac.map

// -----

// A chain of five maps becomes one map: fusion repeats until nothing more fuses. The
// fourth map also reads %a, which the fused map already reads: one input.
func.func @five_maps(%a: tensor<?xi32>) -> tensor<?xi32> {
  %one = arith.constant 1 : i32
  %m1 = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.addi %x, %one : i32
    soac.yield %y : i32
  }
  %m2 = soac.map(%m1) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %x : i32
    soac.yield %y : i32
  }
  %m3 = soac.map(%m2) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.subi %x, %one : i32
    soac.yield %y : i32
  }
  %m4 = soac.map(%m3, %a) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %z: i32):
    %y = arith.xori %x, %z : i32
    soac.yield %y : i32
  }
  %m5 = soac.map(%m4) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.shli %x, %one : i32
    soac.yield %y : i32
  }
  func.return %m5 : tensor<?xi32>
}

// CHECK-LABEL: func.func @five_maps
// CHECK-NEXT:    %one = arith.constant 1 : i32
// CHECK-NEXT:    %m5 = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
// CHECK-NEXT:    ^bb0(%x: i32):
// CHECK-NEXT:      %y = arith.addi %x, %one : i32
// CHECK-NEXT:      %y_1 = arith.muli %y, %y : i32
// CHECK-NEXT:      %y_2 = arith.subi %y_1, %one : i32
// CHECK-NEXT:      %y_3 = arith.xori %y_2, %x : i32
// CHECK-NEXT:      %y_4 = arith.shli %y_3, %one : i32
// CHECK-NEXT:      soac.yield %y_4 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %m5 : tensor<?xi32>
// REPORT: soac-fusion: fused soac.map %m1 into soac.map %m2: soac.map
// REPORT: soac-fusion: fused soac.map %m2 into soac.map %m3: soac.map
// REPORT: soac-fusion: fused soac.map %m3 into soac.map %m4: soac.map
// REPORT: soac-fusion: fused soac.map %m4 into soac.map %m5: soac.map

// -----

// A map into a reduce (the dot product): one soac.redomap, one pass over a and b.
func.func @map_into_reduce(%a: tensor<?xf32>, %b: tensor<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %prod = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %p = arith.mulf %x, %y : f32
    soac.yield %p : f32
  }
  %dot = soac.reduce(%prod) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  func.return %dot : f32
}

// CHECK-LABEL: func.func @map_into_reduce
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %dot = soac.redomap(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> f32 map {
// CHECK-NEXT:    ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:      %p = arith.mulf %x, %y : f32
// CHECK-NEXT:      soac.yield %p : f32
// CHECK-NEXT:    } reduce(%zero : f32) commutative {
// CHECK-NEXT:    ^bb0(%l: f32, %r: f32):
// CHECK-NEXT:      %s = arith.addf %l, %r : f32
// CHECK-NEXT:      soac.yield %s : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %dot : f32
// REPORT: soac-fusion: fused soac.map %prod into soac.reduce %dot: soac.redomap

// -----

// map-map-reduce (sum(x*x + 1)): one redomap.
func.func @map_map_reduce(%a: tensor<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %sq = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %inc = soac.map(%sq) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %one : f32
    soac.yield %y : f32
  }
  %sum = soac.reduce(%inc) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  func.return %sum : f32
}

// CHECK-LABEL: func.func @map_map_reduce
// CHECK:         %sum = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
// CHECK-NEXT:    ^bb0(%x: f32):
// CHECK-NEXT:      %y = arith.mulf %x, %x : f32
// CHECK-NEXT:      %y_1 = arith.addf %y, %one : f32
// CHECK-NEXT:      soac.yield %y_1 : f32
// CHECK-NEXT:    } reduce(%zero : f32) commutative {
// CHECK-NOT:     soac.map
// CHECK:         func.return %sum : f32
// REPORT: soac-fusion: fused soac.map %sq into soac.map %inc: soac.map
// REPORT: soac-fusion: fused soac.map %inc into soac.reduce %sum: soac.redomap

// -----

// A map into a scan (Futhark tests/fusion/Vers2.0/maposcan0): one soac.scanomap.
func.func @map_into_scan(%a: tensor<?xi32>) -> tensor<?xi32> {
  %zero = arith.constant 0 : i32
  %two = arith.constant 2 : i32
  %d = soac.map(%a) : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32):
    %y = arith.muli %x, %two : i32
    soac.yield %y : i32
  }
  %p = soac.scan(%d) neutral(%zero : i32) commutative : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  }
  func.return %p : tensor<?xi32>
}

// CHECK-LABEL: func.func @map_into_scan
// CHECK:         %p = soac.scanomap(%a) : (tensor<?xi32>) -> tensor<?xi32> map {
// CHECK-NEXT:    ^bb0(%x: i32):
// CHECK-NEXT:      %y = arith.muli %x, %two : i32
// CHECK-NEXT:      soac.yield %y : i32
// CHECK-NEXT:    } scan(%zero : i32) commutative {
// CHECK-NEXT:    ^bb0(%l: i32, %r: i32):
// CHECK-NEXT:      %s = arith.addi %l, %r : i32
// CHECK-NEXT:      soac.yield %s : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %p : tensor<?xi32>
// REPORT: soac-fusion: fused soac.map %d into soac.scan %p: soac.scanomap

// -----

// A map after a scan (Futhark tests/fusion/map-scan1): the map runs in the scanomap's
// post lambda, on the scanned value and on the row of %a the map lambda passes on.
func.func @map_after_scan(%a: tensor<?xi32>) -> tensor<?xi32> {
  %zero = arith.constant 0 : i32
  %p = soac.scan(%a) neutral(%zero : i32) commutative : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  }
  %excl = soac.map(%p, %a) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%s: i32, %x: i32):
    %e = arith.subi %s, %x : i32
    soac.yield %e : i32
  }
  func.return %excl : tensor<?xi32>
}

// CHECK-LABEL: func.func @map_after_scan
// CHECK:         %excl = soac.scanomap(%a) : (tensor<?xi32>) -> tensor<?xi32> map {
// CHECK-NEXT:    ^bb0(%x: i32):
// CHECK-NEXT:      soac.yield %x, %x : i32, i32
// CHECK-NEXT:    } scan(%zero : i32) commutative {
// CHECK:         } post {
// CHECK-NEXT:    ^bb0(%p: i32, %a_1: i32):
// CHECK-NEXT:      %e = arith.subi %p, %a_1 : i32
// CHECK-NEXT:      soac.yield %e : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %excl : tensor<?xi32>
// REPORT: soac-fusion: fused soac.scan %p into soac.map %excl: soac.scanomap

// -----

// A map into a scatter, whose values it computes (Futhark tests/fusion/scatter/
// map-write-fusion0): one soac.scatteromap.
func.func @map_into_scatter(%dest: tensor<?xf32>, %is: tensor<?xi64>, %a: tensor<?xf32>) -> tensor<?xf32> {
  %two = arith.constant 2.0 : f32
  %v = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %two : f32
    soac.yield %y : f32
  }
  %r = soac.scatter %dest[%is] = %v : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// CHECK-LABEL: func.func @map_into_scatter
// CHECK-NEXT:    %two = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %r = soac.scatteromap %dest(%a, %is) : tensor<?xf32>, (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32> map {
// CHECK-NEXT:    ^bb0(%x: f32, %0: i64):
// CHECK-NEXT:      %y = arith.mulf %x, %two : f32
// CHECK-NEXT:      soac.yield %0, %y : i64, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : tensor<?xf32>
// REPORT: soac-fusion: fused soac.map %v into soac.scatter %r: soac.scatteromap

// -----

// A map into a hist, whose indices it computes (Futhark tests/fusion/Vers2.0/
// histogram0); the replicate of ones is fused too (the lambda yields the constant).
func.func @map_into_hist(%x: tensor<?xf32>) -> tensor<16xi32> {
  %n = soac.size %x[0] : tensor<?xf32>
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %scale = arith.constant 16.0 : f32
  %bins = soac.map(%x) : (tensor<?xf32>) -> tensor<?xi32> {
  ^bb0(%v: f32):
    %s = arith.mulf %v, %scale : f32
    %b = arith.fptosi %s : f32 to i32
    soac.yield %b : i32
  }
  %empty = soac.replicate %c16, %zero : i32 -> tensor<16xi32>
  %ones = soac.replicate %n, %one : i32 -> tensor<?xi32>
  %h = soac.hist %empty[%bins], %ones neutral(%zero : i32) : tensor<16xi32>, tensor<?xi32>, tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  }
  func.return %h : tensor<16xi32>
}

// CHECK-LABEL: func.func @map_into_hist
// CHECK:         %empty = soac.replicate %c16, %zero : i32 -> tensor<16xi32>
// CHECK-NEXT:    %h = soac.histomap %empty(%x) : tensor<16xi32>, (tensor<?xf32>) -> tensor<16xi32> map {
// CHECK-NEXT:    ^bb0(%v: f32):
// CHECK-NEXT:      %s = arith.mulf %v, %scale : f32
// CHECK-NEXT:      %b = arith.fptosi %s : f32 to i32
// CHECK-NEXT:      soac.yield %b, %one : i32, i32
// CHECK-NEXT:    } hist(%zero : i32) {
// CHECK-NEXT:    ^bb0(%l: i32, %r: i32):
// CHECK-NEXT:      %s_1 = arith.addi %l, %r : i32
// CHECK-NEXT:      soac.yield %s_1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %h : tensor<16xi32>
// REPORT: soac-fusion: fused soac.replicate %ones into soac.hist %h: soac.histomap
// REPORT: soac-fusion: fused soac.map %bins into soac.histomap %h: soac.histomap

// -----

// A producer whose array is also used after the consumer is fused and kept: the fused
// map gives %sq as well (each row is computed once).
func.func @fuse_and_keep(%a: tensor<?xf32>) -> (f32, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %sq = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %sum = soac.reduce(%sq) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  func.return %sum, %sq : f32, tensor<?xf32>
}

// CHECK-LABEL: func.func @fuse_and_keep
// CHECK:         %sum, %sq = soac.redomap(%a) : (tensor<?xf32>) -> (f32, tensor<?xf32>) map {
// CHECK-NEXT:    ^bb0(%x: f32):
// CHECK-NEXT:      %y = arith.mulf %x, %x : f32
// CHECK-NEXT:      soac.yield %y, %y : f32, f32
// CHECK-NEXT:    } reduce(%zero : f32) commutative {
// CHECK:         func.return %sum, %sq : f32, tensor<?xf32>
// REPORT: soac-fusion: fused soac.map %sq into soac.reduce %sum: soac.redomap

// -----

// One producer, two consumers (Futhark tests/fusion/noFusion2, which Futhark's graph
// fusion now fuses too): %x goes into %y and is kept for %z, then that map goes into %z.
func.func @one_producer_two_maps(%arr: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
  %three = arith.constant 3.0 : f64
  %x = soac.map(%arr) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%a: f64):
    %r = arith.addf %a, %three : f64
    soac.yield %r : f64
  }
  %y = soac.map(%x) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%a: f64):
    %r = arith.addf %a, %three : f64
    soac.yield %r : f64
  }
  %z = soac.map(%x) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%a: f64):
    %r = arith.mulf %a, %three : f64
    soac.yield %r : f64
  }
  func.return %y, %z : tensor<?xf64>, tensor<?xf64>
}

// CHECK-LABEL: func.func @one_producer_two_maps
// CHECK-NEXT:    %three = arith.constant 3.000000e+00 : f64
// CHECK-NEXT:    %y, %z = soac.map(%arr) : (tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
// CHECK-NEXT:    ^bb0(%a: f64):
// CHECK-NEXT:      %r = arith.addf %a, %three : f64
// CHECK-NEXT:      %r_1 = arith.addf %r, %three : f64
// CHECK-NEXT:      %r_2 = arith.mulf %r, %three : f64
// CHECK-NEXT:      soac.yield %r_1, %r_2 : f64, f64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %y, %z : tensor<?xf64>, tensor<?xf64>
// REPORT: soac-fusion: fused soac.map %x into soac.map %y: soac.map
// REPORT: soac-fusion: fused soac.map %x into soac.map %z: soac.map

// -----

// A map of a redomap's mapped array goes into the redomap (its lambda has the row).
func.func @map_of_redomap_result(%a: tensor<?xf32>) -> (f32, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %s, %sq = soac.redomap(%a) : (tensor<?xf32>) -> (f32, tensor<?xf32>) map {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %x, %y : f32, f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  }
  %neg = soac.map(%sq) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  func.return %s, %neg : f32, tensor<?xf32>
}

// CHECK-LABEL: func.func @map_of_redomap_result
// CHECK:         %s, %neg = soac.redomap(%a) : (tensor<?xf32>) -> (f32, tensor<?xf32>) map {
// CHECK-NEXT:    ^bb0(%x: f32):
// CHECK-NEXT:      %y = arith.mulf %x, %x : f32
// CHECK-NEXT:      %y_1 = arith.negf %y : f32
// CHECK-NEXT:      soac.yield %x, %y_1 : f32, f32
// CHECK-NEXT:    } reduce(%zero : f32) commutative {
// CHECK-NOT:     soac.map
// CHECK:         func.return %s, %neg : f32, tensor<?xf32>
// REPORT: soac-fusion: fused soac.redomap %s into soac.map %neg: soac.redomap

// -----

// Host code between producer and consumer reads the producer's array, but the consumer
// reads nothing made after the producer: the consumer moves up to the producer, and the
// fused map still gives %b for the read.
func.func @consumer_moves_up(%a: tensor<?xf32>, %i: index) -> (f32, tensor<?xf32>) {
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %e = soac.index %b[%i] : tensor<?xf32>
  %c = soac.map(%b) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  func.return %e, %c : f32, tensor<?xf32>
}

// ---- Horizontal fusion ---------------------------------------------------------------

// CHECK-LABEL: func.func @consumer_moves_up
// CHECK-NEXT:    %b, %c = soac.map(%a) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
// CHECK-NEXT:    ^bb0(%x: f32):
// CHECK-NEXT:      %y = arith.mulf %x, %x : f32
// CHECK-NEXT:      %y_1 = arith.negf %y : f32
// CHECK-NEXT:      soac.yield %y, %y_1 : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %e = soac.index %b[%i] : tensor<?xf32>
// CHECK-NEXT:    func.return %e, %c : f32, tensor<?xf32>
// REPORT: soac-fusion: fused soac.map %b into soac.map %c: soac.map

// -----

// A map and a reduce over the same array: one pass over it (a redomap that also gives
// the map's array).
func.func @map_with_reduce(%a: tensor<?xf32>) -> (tensor<?xf32>, f32) {
  %zero = arith.constant 0.0 : f32
  %neg = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  %sum = soac.reduce(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  func.return %neg, %sum : tensor<?xf32>, f32
}

// CHECK-LABEL: func.func @map_with_reduce
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %sum, %neg = soac.redomap(%a) : (tensor<?xf32>) -> (f32, tensor<?xf32>) map {
// CHECK-NEXT:    ^bb0(%x: f32):
// CHECK-NEXT:      %y = arith.negf %x : f32
// CHECK-NEXT:      soac.yield %x, %y : f32, f32
// CHECK-NEXT:    } reduce(%zero : f32) commutative {
// CHECK:         func.return %neg, %sum : tensor<?xf32>, f32
// REPORT: soac-fusion: fused soac.map %neg with soac.reduce %sum: soac.redomap

// -----

// Two reduces of one array (Futhark tests/fusion/red-red-fusion): one redomap with two
// operators, each reducing as before.
func.func @reduce_with_reduce(%a: tensor<?xf32>) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sum = soac.reduce(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  %max = soac.reduce(%a) neutral(%ninf : f32) : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %m = arith.maximumf %l, %r : f32
    soac.yield %m : f32
  }
  func.return %sum, %max : f32, f32
}

// CHECK-LABEL: func.func @reduce_with_reduce
// CHECK:         %sum, %max = soac.redomap(%a) : (tensor<?xf32>) -> (f32, f32) map {
// CHECK-NEXT:    ^bb0(%0: f32):
// CHECK-NEXT:      soac.yield %0, %0 : f32, f32
// CHECK-NEXT:    } reduce(%zero : f32) commutative {
// CHECK-NEXT:    ^bb0(%l: f32, %r: f32):
// CHECK-NEXT:      %s = arith.addf %l, %r : f32
// CHECK-NEXT:      soac.yield %s : f32
// CHECK-NEXT:    } reduce(%ninf : f32) {
// CHECK-NEXT:    ^bb0(%l_1: f32, %r_1: f32):
// CHECK-NEXT:      %m = arith.maximumf %l_1, %r_1 : f32
// CHECK-NEXT:      soac.yield %m : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %sum, %max : f32, f32
// REPORT: soac-fusion: fused soac.reduce %sum with soac.reduce %max: soac.redomap

// -----

// Two maps of one array (Futhark tests/fusion/horizontal0): one map with two results.
func.func @map_with_map(%a: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %one = arith.constant 1 : i64
  %inc = soac.map(%a) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %one : i64
    soac.yield %y : i64
  }
  %dec = soac.map(%a) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.subi %x, %one : i64
    soac.yield %y : i64
  }
  func.return %inc, %dec : tensor<?xi64>, tensor<?xi64>
}

// ---- Fusion inside lambdas (nested SOACs) ------------------------------------------

// CHECK-LABEL: func.func @map_with_map
// CHECK-NEXT:    %one = arith.constant 1 : i64
// CHECK-NEXT:    %inc, %dec = soac.map(%a) : (tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
// CHECK-NEXT:    ^bb0(%x: i64):
// CHECK-NEXT:      %y = arith.addi %x, %one : i64
// CHECK-NEXT:      %y_1 = arith.subi %x, %one : i64
// CHECK-NEXT:      soac.yield %y, %y_1 : i64, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %inc, %dec : tensor<?xi64>, tensor<?xi64>
// REPORT: soac-fusion: fused soac.map %inc with soac.map %dec: soac.map

// -----

// A map of (map then reduce) over rows becomes a map of a redomap: a segmented redomap.
func.func @segmented_redomap(%m: tensor<?x?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %norms = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %sq = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.mulf %x, %x : f32
      soac.yield %y : f32
    }
    %s = soac.reduce(%sq) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    soac.yield %s : f32
  }
  func.return %norms : tensor<?xf32>
}

// CHECK-LABEL: func.func @segmented_redomap
// CHECK:         %norms = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%row: tensor<?xf32>):
// CHECK-NEXT:      %s = soac.redomap(%row) : (tensor<?xf32>) -> f32 map {
// CHECK-NEXT:      ^bb0(%x: f32):
// CHECK-NEXT:        %y = arith.mulf %x, %x : f32
// CHECK-NEXT:        soac.yield %y : f32
// CHECK-NEXT:      } reduce(%zero : f32) commutative {
// CHECK:             soac.yield %s : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %norms : tensor<?xf32>
// REPORT: soac-fusion: fused soac.map %sq into soac.reduce %s: soac.redomap

// -----

// A map of maps over the same outer array, twice (Futhark tests/fusion/iswim1-style):
// the outer maps fuse, and then the inner maps in the fused lambda.
func.func @map_of_maps(%m: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %two = arith.constant 2.0 : f32
  %p = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %doubled = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.mulf %x, %two : f32
      soac.yield %y : f32
    }
    soac.yield %doubled : tensor<?xf32>
  }
  %q = soac.map(%p) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %shifted = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %y = arith.addf %x, %two : f32
      soac.yield %y : f32
    }
    soac.yield %shifted : tensor<?xf32>
  }
  func.return %q : tensor<?x?xf32>
}

// ---- Refusals ----------------------------------------------------------------------

// CHECK-LABEL: func.func @map_of_maps
// CHECK:         %q = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
// CHECK-NEXT:    ^bb0(%row: tensor<?xf32>):
// CHECK-NEXT:      %shifted = soac.map(%row) : (tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:      ^bb0(%x: f32):
// CHECK-NEXT:        %y = arith.mulf %x, %two : f32
// CHECK-NEXT:        %y_1 = arith.addf %y, %two : f32
// CHECK-NEXT:        soac.yield %y_1 : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      soac.yield %shifted : tensor<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %q : tensor<?x?xf32>
// REPORT: soac-fusion: fused soac.map %p into soac.map %q: soac.map
// REPORT: soac-fusion: fused soac.map %doubled into soac.map %shifted: soac.map

// -----

// Refused: a host-level read of the producer's array (soac.index) comes between, and the
// consumer reads %k, computed from that read: neither can move to the other.
func.func @host_read_between(%a: tensor<?xf32>, %i: index) -> tensor<?xf32> {
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %e = soac.index %b[%i] : tensor<?xf32>
  %k = math.sqrt %e : f32
  %c = soac.map(%b) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.divf %x, %k : f32
    soac.yield %y : f32
  }
  func.return %c : tensor<?xf32>
}

// CHECK-LABEL: func.func @host_read_between
// CHECK-NEXT:    %b = soac.map(%a)
// CHECK:         %e = soac.index %b[%i] : tensor<?xf32>
// CHECK-NEXT:    %k = math.sqrt %e : f32
// CHECK-NEXT:    %c = soac.map(%b)
// REPORT: soac-fusion: did not fuse soac.map %b into soac.map %c: %b is used by soac.index %e between them, and soac.map %c reads %k, made after soac.map %b

// -----

// Refused: the consumer indexes the producer's array inside its lambda (Futhark
// tests/fusion/noFusion3): it needs the whole array, not one row.
func.func @indexed_in_lambda(%a: tensor<?xf64>, %c0: index) -> tensor<?xf64> {
  %x = soac.map(%a) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%v: f64):
    %y = arith.negf %v : f64
    soac.yield %y : f64
  }
  %y = soac.map(%x) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%v: f64):
    %first = soac.index %x[%c0] : tensor<?xf64>
    %r = arith.mulf %first, %v : f64
    soac.yield %r : f64
  }
  func.return %y : tensor<?xf64>
}

// CHECK-LABEL: func.func @indexed_in_lambda
// CHECK-NEXT:    %x = soac.map(%a)
// CHECK:         %y_1 = soac.map(%x)
// REPORT: soac-fusion: did not fuse soac.map %x into soac.map %y: soac.map %y reads %x other than row by row

// -----

// Refused: the consumer is in a loop (Futhark tests/fusion/noFusion1): fusing would
// compute the producer again in every iteration. Only ops of one block fuse, so this is
// not even tried.
func.func @consumer_in_a_loop(%arr: tensor<?xf64>, %n: index) -> tensor<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f64
  %x = soac.map(%arr) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%a: f64):
    %r = arith.addf %a, %three : f64
    soac.yield %r : f64
  }
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %arr) -> (tensor<?xf64>) {
    %g = soac.index %acc[%i] : tensor<?xf64>
    %next = soac.map(%x) : (tensor<?xf64>) -> tensor<?xf64> {
    ^bb0(%a: f64):
      %r = arith.mulf %g, %a : f64
      soac.yield %r : f64
    }
    scf.yield %next : tensor<?xf64>
  }
  func.return %res : tensor<?xf64>
}

// CHECK-LABEL: func.func @consumer_in_a_loop
// CHECK:         %x = soac.map(%arr)
// CHECK:         scf.for
// CHECK:           %next = soac.map(%x)

// -----

// Refused: %arr, which the producer reads, is consumed by an in-place update between
// producer and consumer (Futhark tests/fusion/noFusion4), and the consumer reads the
// updated array: the producer cannot move past the update, nor the consumer above it.
func.func @update_between(%arr: tensor<?xf64>, %c1: index) -> tensor<?xf64> {
  %one = arith.constant 1.0 : f64
  %v = arith.constant 3.33 : f64
  %x = soac.map(%arr) : (tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%a: f64):
    %r = arith.addf %a, %one : f64
    soac.yield %r : f64
  }
  %arr2 = soac.update %arr[%c1] = %v : tensor<?xf64>, f64
  %y = soac.map(%x, %arr2) : (tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64> {
  ^bb0(%a: f64, %b: f64):
    %r = arith.mulf %a, %b : f64
    soac.yield %r : f64
  }
  func.return %y : tensor<?xf64>
}

// CHECK-LABEL: func.func @update_between
// CHECK:         %x = soac.map(%arr)
// CHECK:         %arr2 = soac.update %arr[%c1] = %v
// CHECK-NEXT:    %y = soac.map(%x, %arr2)
// REPORT: soac-fusion: did not fuse soac.map %x into soac.map %y: %arr, which soac.map %x reads, is consumed between them, and soac.map %y reads %arr2, made after soac.map %x

// -----

// Refused: the consumer scatters into %d, the very array the producer reads: fused, the
// scatter could no longer write %d in place.
func.func @consumer_consumes_what_producer_reads(%d: tensor<?xf32>, %is: tensor<?xi64>) -> tensor<?xf32> {
  %v = soac.map(%d) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  %r = soac.scatter %d[%is] = %v : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// CHECK-LABEL: func.func @consumer_consumes_what_producer_reads
// CHECK-NEXT:    %v = soac.map(%d)
// CHECK:         %r = soac.scatter %d[%is] = %v
// REPORT: soac-fusion: did not fuse soac.map %v into soac.scatter %r: soac.scatter %r consumes %d, which soac.map %v reads

// -----

// Refused (horizontal): the second map depends on the redomap through host code (the
// vector norm of seed 000, Listing 1: sqrt of the sum is computed on the host).
func.func @dependent_through_host_code(%a: tensor<?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %sum = soac.reduce(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  %len = math.sqrt %sum : f32
  %res = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %q = arith.divf %x, %len : f32
    soac.yield %q : f32
  }
  func.return %res : tensor<?xf32>
}

// CHECK-LABEL: func.func @dependent_through_host_code
// CHECK:         %sum = soac.reduce(%a)
// CHECK:         %len = math.sqrt %sum : f32
// CHECK-NEXT:    %res = soac.map(%a)
// REPORT: soac-fusion: did not fuse soac.reduce %sum with soac.map %res: soac.map %res depends on soac.reduce %sum through math.sqrt %len

// -----

// Refused: a scan and a reduce of the same arrays have no fused form (a scanomap scans,
// a redomap reduces).
func.func @scan_with_reduce(%a: tensor<?xi32>) -> (tensor<?xi32>, i32) {
  %zero = arith.constant 0 : i32
  %p = soac.scan(%a) neutral(%zero : i32) commutative : (tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  }
  %t = soac.reduce(%a) neutral(%zero : i32) commutative : (tensor<?xi32>) -> i32 {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  }
  func.return %p, %t : tensor<?xi32>, i32
}

// CHECK-LABEL: func.func @scan_with_reduce
// CHECK:         %p = soac.scan(%a)
// CHECK:         %t = soac.reduce(%a)
// REPORT: soac-fusion: did not fuse soac.scan %p with soac.reduce %t: there is no fused form of a scan and a reduce

// -----

// Refused: the reduce combines rows (vectors), and fused combinators take scalar operands
// (the map stays a map and the reduce a reduce).
func.func @reduce_of_rows(%m: tensor<?x4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %c4 = arith.constant 4 : index
  %zrow = soac.replicate %c4, %zero : f32 -> tensor<4xf32>
  %neg = soac.map(%m) : (tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%row: tensor<4xf32>):
    %nr = soac.map(%row) : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb1(%x: f32):
      %y = arith.negf %x : f32
      soac.yield %y : f32
    }
    soac.yield %nr : tensor<4xf32>
  }
  %sum = soac.reduce(%neg) neutral(%zrow : tensor<4xf32>) commutative : (tensor<?x4xf32>) -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %r: tensor<4xf32>):
    %s = soac.map(%l, %r) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb1(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      soac.yield %z : f32
    }
    soac.yield %s : tensor<4xf32>
  }
  func.return %sum : tensor<4xf32>
}

// CHECK-LABEL: func.func @reduce_of_rows
// CHECK:         %neg = soac.map(%m)
// CHECK:         %sum = soac.reduce(%neg)
// REPORT: soac-fusion: did not fuse soac.map %neg into soac.reduce %sum: soac.reduce %sum combines arrays of rows (tensor<4xf32>); fused combinators take scalar operands

// -----

// A replicate of a row (an array) stays an input of a scatter, hist or reduce whose
// elements are rows: fused combinators take scalar operands, and the scatteromap,
// histomap or redomap that inlining the row would make does not verify.
// CHECK-LABEL: func.func @replicated_rows
// CHECK:         %rep = soac.replicate %count, %row
// CHECK:         soac.scatter %dest[%k] = %rep
// CHECK:         soac.hist %bins[%k], %rep
// CHECK:         soac.reduce(%rep)
// REPORT: soac-fusion: did not fuse soac.replicate %rep into soac.scatter %s: soac.scatter %s combines arrays of rows (tensor<4xf32>); fused combinators take scalar operands
func.func @replicated_rows(%dest: tensor<?x4xf32>, %k: tensor<?xi32>, %row: tensor<4xf32>) -> (tensor<?x4xf32>, tensor<3x4xf32>, tensor<4xf32>) {
  %count = soac.size %k[0] : tensor<?xi32>
  %c3 = arith.constant 3 : index
  %rep = soac.replicate %count, %row : tensor<4xf32> -> tensor<?x4xf32>
  %s = soac.scatter %dest[%k] = %rep : tensor<?x4xf32>, tensor<?xi32>, tensor<?x4xf32>
  %bins = soac.replicate %c3, %row : tensor<4xf32> -> tensor<3x4xf32>
  %h = soac.hist %bins[%k], %rep neutral(%row : tensor<4xf32>) : tensor<3x4xf32>, tensor<?xi32>, tensor<?x4xf32> {
  ^bb0(%l: tensor<4xf32>, %r: tensor<4xf32>):
    %o = soac.map(%l, %r) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb1(%x: f32, %y: f32):
      %q = arith.maximumf %x, %y : f32
      soac.yield %q : f32
    }
    soac.yield %o : tensor<4xf32>
  }
  %sum = soac.reduce(%rep) neutral(%row : tensor<4xf32>) commutative : (tensor<?x4xf32>) -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %r: tensor<4xf32>):
    %o = soac.map(%l, %r) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb1(%x: f32, %y: f32):
      %q = arith.addf %x, %y : f32
      soac.yield %q : f32
    }
    soac.yield %o : tensor<4xf32>
  }
  func.return %s, %h, %sum : tensor<?x4xf32>, tensor<3x4xf32>, tensor<4xf32>
}

// -----

// Refused: the map reads the reduce's result, which exists only after the reduce.
func.func @map_of_a_reduce_result(%a: tensor<?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %sum = soac.reduce(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    soac.yield %s : f32
  }
  %res = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %q = arith.subf %x, %sum : f32
    soac.yield %q : f32
  }
  func.return %res : tensor<?xf32>
}

// CHECK-LABEL: func.func @map_of_a_reduce_result
// CHECK:         %sum = soac.reduce(%a)
// CHECK:         %res = soac.map(%a)
// REPORT: soac-fusion: did not fuse soac.reduce %sum with soac.map %res: soac.map %res depends on soac.reduce %sum

// -----

// Refused: two scatters have no fused form (one destination per scatteromap); their
// common index map is fused into the first and kept for the second.
func.func @two_scatters(%d1: tensor<?xf32>, %d2: tensor<?xf32>, %a: tensor<?xi64>, %v: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %one = arith.constant 1 : i64
  %is = soac.map(%a) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %one : i64
    soac.yield %y : i64
  }
  %r1 = soac.scatter %d1[%is] = %v : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>
  %r2 = soac.scatter %d2[%is] = %v : tensor<?xf32>, tensor<?xi64>, tensor<?xf32>
  func.return %r1, %r2 : tensor<?xf32>, tensor<?xf32>
}

// CHECK-LABEL: func.func @two_scatters
// CHECK:         %r1, %is = soac.scatteromap %d1(%a, %v) : tensor<?xf32>, (tensor<?xi64>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>) map {
// CHECK-NEXT:    ^bb0(%x: i64, %0: f32):
// CHECK-NEXT:      %y = arith.addi %x, %one : i64
// CHECK-NEXT:      soac.yield %y, %0, %y : i64, f32, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    %r2 = soac.scatter %d2[%is] = %v
// REPORT: soac-fusion: fused soac.map %is into soac.scatter %r1: soac.scatteromap
// REPORT: soac-fusion: did not fuse soac.scatteromap %r1 into soac.scatter %r2: there is no fused form of a scatter and a scatter

// -----

// Refused: the producer's lambda makes rows of a less static type (tensor<?xf32>) than
// the consumer's lambda takes (tensor<4xf32>); composed, the consumer's body would get a
// value of another type.
func.func @row_types_differ(%m: tensor<?x4xf32>, %d: tensor<?xf32>) -> tensor<?x4xf32> {
  %p = soac.map(%m) : (tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%row: tensor<4xf32>):
    %c = soac.copy %d : tensor<?xf32>
    soac.yield %c : tensor<?xf32>
  }
  %q = soac.map(%p) : (tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%row: tensor<4xf32>):
    soac.yield %row : tensor<4xf32>
  }
  func.return %q : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @row_types_differ
// CHECK:         %p = soac.map(%m)
// CHECK:         %q = soac.map(%p)
// REPORT: soac-fusion: did not fuse soac.map %p into soac.map %q: soac.map %q takes rows of %p as tensor<4xf32>, but they are made as tensor<?xf32>

// -----

// Refused (horizontal): two independent maps of %a, but host code between reads the
// first map's array, and the second map reads %k, computed after the first: neither can
// move to the other (host code is not moved).
func.func @neither_can_move(%a: tensor<?xf32>, %s: f32, %i: index) -> (f32, tensor<?xf32>) {
  %x = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %r = arith.negf %v : f32
    soac.yield %r : f32
  }
  %e = soac.index %x[%i] : tensor<?xf32>
  %k = arith.mulf %s, %s : f32
  %y = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %k : f32
    soac.yield %r : f32
  }
  func.return %e, %y : f32, tensor<?xf32>
}

// CHECK-LABEL: func.func @neither_can_move
// CHECK-NEXT:    %x = soac.map(%a)
// CHECK:         %e = soac.index %x[%i]
// CHECK-NEXT:    %k = arith.mulf %s, %s : f32
// CHECK-NEXT:    %y = soac.map(%a)
// REPORT: soac-fusion: did not fuse soac.map %x with soac.map %y: %x is used by soac.index %e between them, and soac.map %y reads %k, made after soac.map %x

// -----

// A replicate whose count the other inputs do not provably share stays an input: the
// map checks that its inputs have one outer size, and fusing the replicate away would
// drop that check (a program that fails as written returned a result once fused).
// CHECK-LABEL: func.func @replicate_of_another_size
// CHECK:         %r1 = soac.replicate %n, %one
// CHECK:         soac.map(%a, %r1)
func.func @replicate_of_another_size(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %one = arith.constant 1.0 : f32
  %r1 = soac.replicate %n, %one : f32 -> tensor<?xf32>
  %r = soac.map(%a, %r1) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    soac.yield %z : f32
  }
  func.return %r : tensor<?xf32>
}

// -----

// The consumer reads only the producer's rows, not %b's: the fused map no longer takes
// %b, and the check that %b has the map's outer size stays in its place (a program
// that fails as written must fail fused).
// CHECK-LABEL: func.func @unread_input_checked
// CHECK:         %[[B:.*]] = soac.size %b[0] : tensor<?xf32>
// CHECK-NEXT:    %[[A:.*]] = soac.size %a[0] : tensor<?xf32>
// CHECK-NEXT:    %[[SAME:.*]] = arith.cmpi eq, %[[B]], %[[A]] : index
// CHECK-NEXT:    cf.assert %[[SAME]], "soac.map %c: %b and the other arrays it takes have different outer sizes"
// CHECK-NEXT:    %c = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
// REPORT: soac-fusion: fused soac.map %p into soac.map %c: soac.map
func.func @unread_input_checked(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %p = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %c = soac.map(%p, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %z: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  func.return %c : tensor<?xf32>
}

// -----

// The same where %b's outer size is provably %a's (a map of %a, which fuses too): no check.
// CHECK-LABEL: func.func @unread_input_proven
// CHECK-NOT:     cf.assert
// CHECK:         %b, %c = soac.map(%a) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
// CHECK-NOT:     cf.assert
// CHECK:         func.return %c, %b
func.func @unread_input_proven(%a: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %b = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  %p = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  }
  %c = soac.map(%p, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %z: f32):
    %y = arith.negf %x : f32
    soac.yield %y : f32
  }
  func.return %c, %b : tensor<?xf32>, tensor<?xf32>
}

// -----

// Refused at host level: the sum of the row sums. As a map, the rows' sums get a block
// or a warp per row (gpu_segmented); fused into a redomap each row would be one thread's
// loop. In a lambda (one thread's work anyway) the same pair fuses: see
// @row_sums_in_a_lambda.
// CHECK-LABEL: func.func @sum_of_row_sums
// CHECK:         %rowsums = soac.map(%m)
// CHECK:         %total = soac.reduce(%rowsums)
// REPORT: soac-fusion: did not fuse soac.map %rowsums into soac.reduce %total: soac.map %rowsums reduces each row: as a map it gets a block or a warp per row (gpu_segmented), in a reduce one thread per row
func.func @sum_of_row_sums(%m: tensor<?x?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %rowsums = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      soac.yield %t : f32
    }
    soac.yield %s : f32
  }
  %total = soac.reduce(%rowsums) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    soac.yield %t : f32
  }
  func.return %total : f32
}

// -----

// CHECK-LABEL: func.func @row_sums_in_a_lambda
// CHECK:         soac.map(%t)
// CHECK:           soac.redomap(%m)
// CHECK:             soac.reduce(%row)
// CHECK-NOT:       soac.reduce(%rowsums)
// REPORT: soac-fusion: fused soac.map %rowsums into soac.reduce %total: soac.redomap
func.func @row_sums_in_a_lambda(%t: tensor<?x?x?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %totals = soac.map(%t) : (tensor<?x?x?xf32>) -> tensor<?xf32> {
  ^bb0(%m: tensor<?x?xf32>):
    %rowsums = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?xf32> {
    ^bb1(%row: tensor<?xf32>):
      %s = soac.reduce(%row) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
      ^bb2(%a: f32, %b: f32):
        %u = arith.addf %a, %b : f32
        soac.yield %u : f32
      }
      soac.yield %s : f32
    }
    %total = soac.reduce(%rowsums) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %u = arith.addf %a, %b : f32
      soac.yield %u : f32
    }
    soac.yield %total : f32
  }
  func.return %totals : tensor<?xf32>
}
