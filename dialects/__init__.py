"""soacc's dialects, registered lazily (a dialect module is imported only when an
input uses it)."""

from collections.abc import Callable

from xdsl.ir import Dialect


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    def get_soac() -> Dialect:
        from soacc.dialects.soac import SOAC

        return SOAC

    return {"soac": get_soac}
