// optionpricing: Monte Carlo pricing of an Asian call option (futhark-benchmarks
// finpar/OptionPricing.fut, from Finpar), in skeleton: every path (a lane) draws one
// quasi-random number a date (an integer hash), turns them into normal variates,
// sums them into a Brownian path (a scan), prices the underlying along it and averages;
// the payoffs are averaged over the paths. Each lane builds its arrays of one number
// a date in memory of its own: the study's reuse inside kernels.
func.func @main(%paths: index, %dates: index, %strike: f32, %s0: f32, %vol: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %scale = arith.constant 0.5513289 : f32
  %inv = arith.constant 2.3283064e-10 : f32
  %mul = arith.constant 1103515245 : i64
  %inc = arith.constant 12345 : i64
  %mask = arith.constant 4294967295 : i64
  %s13 = arith.constant 13 : i64
  %fd = arith.index_cast %dates : index to i64
  %fdates = arith.sitofp %fd : i64 to f32
  %dt = arith.divf %one, %fdates : f32
  %sdt = math.sqrt %dt : f32
  %vsdt = arith.mulf %vol, %sdt : f32
  %v2 = arith.mulf %vol, %vol : f32
  %hv2 = arith.mulf %half, %v2 : f32
  %drift = arith.mulf %hv2, %dt : f32
  %pid = soac.iota %paths : tensor<?xindex>
  %days = soac.iota %dates : tensor<?xindex>
  %payoff = soac.map(%pid) : (tensor<?xindex>) -> tensor<?xf32> {
  ^bb0(%p: index):
    %base = arith.muli %p, %dates : index
    %u = soac.map(%days) : (tensor<?xindex>) -> tensor<?xf32> {
    ^bb1(%j: index):
      %k = arith.addi %base, %j : index
      %k64 = arith.index_cast %k : index to i64
      %h1 = arith.muli %k64, %mul : i64
      %h2 = arith.addi %h1, %inc : i64
      %h3 = arith.shrui %h2, %s13 : i64
      %h4 = arith.xori %h2, %h3 : i64
      %h5 = arith.andi %h4, %mask : i64
      %hf = arith.uitofp %h5 : i64 to f32
      %v = arith.mulf %hf, %inv : f32
      %lo = arith.constant 0.0001 : f32
      %hi = arith.constant 0.9999 : f32
      %v1 = arith.maximumf %v, %lo : f32
      %v2c = arith.minimumf %v1, %hi : f32
      soac.yield %v2c : f32
    }
    %z = soac.map(%u) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%x: f32):
      %omx = arith.subf %one, %x : f32
      %q = arith.divf %x, %omx : f32
      %l = math.log %q : f32
      %r = arith.mulf %l, %scale : f32
      soac.yield %r : f32
    }
    %w = soac.scan(%z) neutral(%zero : f32) : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      soac.yield %s : f32
    }
    %prices = soac.map(%w, %days) : (tensor<?xf32>, tensor<?xindex>) -> tensor<?xf32> {
    ^bb1(%wj: f32, %j: index):
      %j1 = arith.addi %j, %c0 : index
      %ji = arith.index_cast %j1 : index to i64
      %jf = arith.sitofp %ji : i64 to f32
      %t1 = arith.addf %jf, %one : f32
      %d = arith.mulf %drift, %t1 : f32
      %e1 = arith.mulf %vsdt, %wj : f32
      %e = arith.subf %e1, %d : f32
      %g = math.exp %e : f32
      %pr = arith.mulf %s0, %g : f32
      soac.yield %pr : f32
    }
    %sum = soac.reduce(%prices) neutral(%zero : f32) : (tensor<?xf32>) -> f32 {
    ^bb1(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      soac.yield %s : f32
    }
    %avg = arith.divf %sum, %fdates : f32
    %gain = arith.subf %avg, %strike : f32
    %pay = arith.maximumf %gain, %zero : f32
    soac.yield %pay : f32
  }
  %total = soac.reduce(%payoff) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    soac.yield %s : f32
  }
  %pi = arith.index_cast %paths : index to i64
  %pf = arith.sitofp %pi : i64 to f32
  %price = arith.divf %total, %pf : f32
  func.return %price : f32
}
