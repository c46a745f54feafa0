"""The errors soacc reports to its users. Each carries a message meant to be read as
it is, with no traceback: the tools print `error: <message>` and exit non-zero."""


class SoaccError(Exception):
    """Base of every error a user of soacc may see."""


class ProgramError(SoaccError):
    """The program text cannot be parsed, verified or compiled."""


class ArgumentError(SoaccError):
    """An entry point was called with arguments that do not fit its signature."""


class ExecutionError(SoaccError):
    """The program failed while running (for example an index out of bounds)."""
