// RUN: soacc-opt %s -p soacc-pipeline -t python | filecheck %s
// A device loop (passes/analysis/device_loops.py) in host code: its body is a nested
// function from the loop's values to the next ones, and `rt.device_while` runs it, each
// iteration after reading the condition, or, under a task graph's capture, once into a
// conditional node (runtime/gpu/task_graphs.py). The arguments after the body: the
// state, the condition's place in it and its indices, the places the body's arguments
// (and the loop's results) come from, and the places the body may change.

func.func @device_loop_counter_and_reduction(%a: tensor<?xf32>, %eps: f32, %maxit: index) -> (tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %v, %it = scf.while (%u = %a, %i = %c0) : (tensor<?xf32>, index) -> (tensor<?xf32>, index) {
    %s0 = soac.reduce(%u) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    %more = arith.cmpi ult, %i, %maxit : index
    %big = arith.cmpf ogt, %s0, %eps : f32
    %go = arith.andi %more, %big : i1
    scf.condition(%go) %u, %i : tensor<?xf32>, index
  } do {
  ^bb0(%x: tensor<?xf32>, %j: index):
    %h = soac.map(%x) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%e: f32):
      %half = arith.constant 0.5 : f32
      %y = arith.mulf %e, %half : f32
      soac.yield %y : f32
    }
    %j1 = arith.addi %j, %c1 : index
    scf.yield %h, %j1 : tensor<?xf32>, index
  }
  func.return %v, %it : tensor<?xf32>, index
}


// CHECK:      def device_loop_counter_and_reduction(rt, a_host_mem, a_host, eps, maxit):
// CHECK-NOT:  rt.load
// CHECK:          def loop_body(state):
// CHECK-NEXT:         (x_mem, x, j_dev_mem, j_dev) = state
// CHECK-NOT:          rt.load
// CHECK:              rt.launch('map{{[0-9]+}}'
// CHECK:              following = [go_dev_mem_1, go_dev_1, h_mem, h, j1_dev_mem, j1_dev]
// CHECK:              return following
// CHECK-NEXT:     (v_mem, v, it_dev_mem, it_dev) = rt.device_while(loop_body, [go_dev_mem, go_dev, a_mem, a, {{.*}}], 1, (c0,), (2, 3, 4, 5), (0, 1, 2, 3, 4, 5))
// CHECK:          it = rt.load(it_dev, (c0,))
// CHECK:          return (v_host_mem, v_host, it)
