"""What soacc's command-line tools share: printing a user's error as one clear
message, never a traceback (set SOACC_TRACEBACK=1 to see one for an internal error)."""

from __future__ import annotations

import os
import re
import sys
import traceback
from collections.abc import Callable

from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError

from soacc.runtime.errors import ArgumentError, SoaccError

_LOCATED = re.compile(r"^[^\n]*:\d+:\d+: error: ")

EXIT_PROGRAM_ERROR = 1  # the program is bad, or failed while running
EXIT_USAGE_ERROR = 2  # the tool was called wrongly (arguments, files)


def diagnostic_text(error: BaseException) -> str:
    """xDSL attaches the annotated IR to an error as notes: print them with it."""
    notes = getattr(error, "__notes__", [])
    return "\n".join([str(error).rstrip(), *(n.rstrip() for n in notes)])


def run_tool(tool: str, body: Callable[[], int | None]) -> int:
    """Runs a tool's body and turns every error into a message and an exit code."""
    if sys.stdout is None:  # started with standard output closed: print() would drop everything
        print(f"{tool}: error: standard output is closed: there is nowhere to write the output", file=sys.stderr)
        return EXIT_USAGE_ERROR
    try:
        code = body() or 0
        sys.stdout.flush()  # a write that fails late still fails the tool
        return code
    except BrokenPipeError:
        # the reader went away (`| head`): say so once, and stop writing to the pipe
        sys.stdout = None
        print(f"{tool}: error: standard output was closed before everything was written", file=sys.stderr)
        return EXIT_PROGRAM_ERROR
    except ArgumentError as error:
        print(f"{tool}: error: {error}", file=sys.stderr)
        return EXIT_USAGE_ERROR
    except SoaccError as error:
        message = str(error)
        # a located message says `error:` itself: `soacc-run: f.mlir:2:3: error: ...`
        print(f"{tool}: {message}" if _LOCATED.match(message) else f"{tool}: error: {message}", file=sys.stderr)
        return EXIT_PROGRAM_ERROR
    except (ParseError, DiagnosticException) as error:
        print(diagnostic_text(error), file=sys.stderr)
        return EXIT_PROGRAM_ERROR
    except OSError as error:
        name = f" {error.filename}" if error.filename else ""
        print(f"{tool}: error: cannot access{name}: {error.strerror}", file=sys.stderr)
        return EXIT_USAGE_ERROR
    except ArgSpecParseError as error:  # a malformed pass pipeline (a BaseException in xDSL)
        from soacc.program import pipeline_syntax_error

        print(f"{tool}: error: {pipeline_syntax_error(error)}", file=sys.stderr)
        return EXIT_USAGE_ERROR
    except KeyboardInterrupt:
        print(f"{tool}: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # a bug in soacc, not in the input
        if os.environ.get("SOACC_TRACEBACK"):
            traceback.print_exc()
        print(
            f"{tool}: internal error: {type(error).__name__}: {error}\n"
            f"(this is a bug in soacc; SOACC_TRACEBACK=1 shows where)",
            file=sys.stderr,
        )
        return 3
