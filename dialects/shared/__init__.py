"""What every layer shares at the bottom, beside the dialects: op traits, dtypes, the
calling conventions between the emitters and the runtime, the structural rules xDSL
does not verify, and questions about IR asked everywhere."""
