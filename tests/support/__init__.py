"""Helpers shared by the tests, imported as `tests.support.<module>`:

rt_util           compiling and running small programs at level 1 and level 2, MLIR <->
                  NumPy types, exact integer semantics, array comparison
simulated_device  a device in host memory, for running emitted host code without a GPU
memory_util       level-2 functions from source, and finding their values and ops
sync_bound        the synchronous reads reduce-device-syncs promises for one run
cuda_cases        elementwise cases of the cuda target (one op each, with NumPy semantics)
ir_building       ops built in Python inside a func.func, verified or expected to fail
random_programs   the seeded random program generator (one API, several families)
lit               the `// -----` cases of the lit tests, as programs
scripts           loading benchmark and example scripts (benchmarks/, examples/)
marks             marking long-running tests (or single parameters) slow
"""
