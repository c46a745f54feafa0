"""soacc's dialects, registered lazily (a dialect module is imported only when an
input uses it)."""

from collections.abc import Callable

from xdsl.ir import Dialect


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    def get_soac() -> Dialect:
        from soacc.dialects.soac import SOAC

        return SOAC

    def get_mem() -> Dialect:
        from soacc.dialects.mem import MEM

        return MEM

    def get_soacc_gpu() -> Dialect:
        from soacc.dialects.soacc_gpu import SOACC_GPU

        return SOACC_GPU

    def get_fork() -> Dialect:
        from soacc.dialects.fork import FORK

        return FORK

    def get_husk() -> Dialect:
        from soacc.dialects.husk import HUSK

        return HUSK

    return {"soac": get_soac, "husk": get_husk, "mem": get_mem, "soacc_gpu": get_soacc_gpu, "fork": get_fork}
