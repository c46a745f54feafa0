"""Tests marked `gpu` run only where PyCUDA imports and a CUDA device answers; elsewhere
they are skipped, saying why."""

import pytest

from soacc.runtime.gpu import gpu_available

usable, why = gpu_available()


def pytest_collection_modifyitems(config, items):
    if usable:
        return
    skip = pytest.mark.skip(reason=f"no GPU: {why}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(params=["/dev/null", "made"])
def null_device(request, tmp_path):
    """A character device to write to: /dev/null itself, and one made in tmp_path (as
    root), so that the test means something where /dev/null has already been replaced
    by a regular file (as `soacc-opt -o /dev/null` run as root once did)."""
    import os
    import stat

    if request.param == "/dev/null":
        if not stat.S_ISCHR(os.stat("/dev/null").st_mode):
            pytest.skip("/dev/null is not a character device on this machine")
        return "/dev/null"
    path = tmp_path / "null"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device needs root")
    return str(path)
