"""soacc-opt: xdsl-opt with soacc's dialects, passes and targets (found through the
`xdsl.universe` entry point, so plain xdsl-opt sees the same)."""

from xdsl.xdsl_opt_main import xDSLOptMain


def main() -> None:
    xDSLOptMain(description="soacc optimiser: parse, transform and print soac programs").run()


if __name__ == "__main__":
    main()
