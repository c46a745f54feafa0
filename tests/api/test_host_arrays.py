"""`soacc.host_array`: arrays for arguments in page-locked memory where that pays (2 MB
and more, on a machine with a GPU), ordinary NumPy arrays otherwise; bad shapes and
dtypes are ArgumentErrors."""

from __future__ import annotations

import numpy as np
import pytest

import soacc


def test_small_arrays_are_ordinary_and_shaped_as_asked():
    a = soacc.host_array((3, 4), np.int32)
    assert a.shape == (3, 4) and a.dtype == np.int32 and a.flags.c_contiguous
    assert soacc.host_array(5).shape == (5,) and soacc.host_array(5).dtype == np.float32
    assert soacc.host_array((0,)).size == 0


@pytest.mark.parametrize("shape, dtype, message", [((-1,), np.float32, "negative size"), ((2,), "no-such-type", "host_array"), (("x",), np.float32, "host_array")])
def test_bad_requests_are_argument_errors(shape, dtype, message):
    with pytest.raises(soacc.ArgumentError, match=message):
        soacc.host_array(shape, dtype)


def test_an_array_too_large_to_be_had_is_an_argument_error():
    with pytest.raises(soacc.ArgumentError, match="cannot be had"):
        soacc.host_array((1 << 40, 1 << 40))


@pytest.mark.gpu
def test_on_the_gpu_a_large_host_array_is_page_locked_and_uploads_as_an_argument():
    from soacc.runtime.cuda_backend import pinned_pool
    from soacc.runtime.gpu.device import get_device

    program = soacc.compile(
        """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %d = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    soac.yield %y : f32
  }
  func.return %d : tensor<?xf32>
}""",
        backend="cuda",
    )
    a = soacc.host_array(1 << 20)
    assert pinned_pool(get_device().index).is_pinned(a)
    a[:] = np.arange(1 << 20, dtype=np.float32)
    np.testing.assert_array_equal(program.main(a), a * 2)
