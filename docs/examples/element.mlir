// Reads one element of an array: an index past its end fails while running.
func.func @main(%a: tensor<?xf32>, %i: index) -> f32 {
  %x = soac.index %a[%i] : tensor<?xf32>
  func.return %x : f32
}
