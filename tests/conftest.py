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
