"""Where staged copies start to pay (runtime/gpu/staged_copies.py's STAGED_FROM): one
argument of 1 to 64 MB uploaded and reduced, its upload through the driver's own copy
of pageable memory, through soacc's staged copies, and from page-locked memory
(soacc.host_array). Median of 25 calls, ms. Not a test.

    python benchmarks/staged_threshold.py
"""
import statistics
import time

import numpy as np

import soacc
src = """func.func @main(%a: tensor<?xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = soac.reduce(%a) neutral(%z : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb1(%l: f32, %r: f32):
    %m = arith.addf %l, %r : f32
    soac.yield %m : f32
  }
  func.return %s : f32
}"""
p = soacc.compile(src, backend="cuda", pipeline="soacc-pipeline{borrow=false}")
p.task_graphs = False
mem = p.executor.memory
def t(f, r=25):
    for _ in range(3): f()
    s=[]
    for _ in range(r):
        a=time.perf_counter(); f(); s.append(time.perf_counter()-a)
    return statistics.median(s)*1e3
print("MB   driver  staged  pinned  (upload of one argument + a reduce), ms")
for mb in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64):
    n = mb * (1 << 20) // 4
    a = np.random.default_rng(0).random(n, dtype=np.float32)
    pin = soacc.host_array(n); pin[:] = a
    mem.staging_on = False; d = t(lambda: p.main(a))
    mem.staging_on = True; s = t(lambda: p.main(a))
    q = t(lambda: p.main(pin))
    print(f"{mb:3d} {d:7.3f} {s:7.3f} {q:7.3f}")
