"""Writing output files as a user expects: `soacc-opt -o`, `soacc-run --out` and the
cubin cache all write through here.

A path is written the way the shell's `>` would treat it, but atomically where that
is possible:

- a regular file (or none yet) gets a temporary file in the same directory, renamed
  over it once complete (os.replace): a reader, or a run that fails half-way, sees the
  old content or the new, never a part. An existing file keeps its permission bits;
  a new one gets 0o666 less the umask, as `open` would give it.
- a symbolic link is followed: its target is written (as above), the link stays.
- anything else that exists (a character device such as /dev/null, a FIFO) is opened
  and written directly; replacing it would put a regular file in its place.

Errors name the user's path, never the temporary file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import BinaryIO, Union

Content = Union[str, bytes, Callable[[BinaryIO], None]]
"""Text (written as UTF-8), bytes, or a function that writes to a binary file."""

Path = Union[str, "os.PathLike[str]"]


def write_file(path: Path, content: Content) -> None:
    """Replaces what `path` holds with `content` (see the module's docstring)."""
    write_files([(path, content)])


def write_files(files: Iterable[tuple[Path, Content]]) -> None:
    """Writes several files, all or none as far as renames allow: every regular file
    is staged complete before any is renamed into place."""
    staged: list[_Staged] = []
    try:
        for path, content in files:
            staged.append(_stage(path, content))
        for file in staged:
            file.commit()
    finally:
        for file in staged:
            file.discard()


@dataclass
class _Staged:
    path: Path
    """The user's path, for errors."""
    target: str
    """Where the content goes: `path` with symbolic links resolved."""
    content: Content
    temporary: str | None = None
    """The complete content, waiting to be renamed to `target`; None for a special
    file, written only when committed."""

    def commit(self) -> None:
        with _named(self.path):
            if self.temporary is None:
                with open(self.target, "wb") as f:
                    _put(f, self.content)
            else:
                os.replace(self.temporary, self.target)
                self.temporary = None

    def discard(self) -> None:
        if self.temporary is not None:
            try:
                os.unlink(self.temporary)
            except OSError:
                pass
            self.temporary = None


def _stage(path: Path, content: Content) -> _Staged:
    target = os.path.realpath(path)  # a link's target, so that the link stays a link
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    staged = _Staged(path, target, content)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        return staged  # a device or FIFO: cannot be replaced atomically, only written
    with _named(path):
        directory, name = os.path.split(target)
        try:
            fd, staged.temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
        except OSError as error:
            if existing is None or error.errno is None:
                raise
            # the file exists, but no file can be made beside it (a read-only directory,
            # /proc): the staged copy's error would name a missing file
            raise OSError(error.errno, f"it cannot be replaced: no new file can be made in its directory ({error.strerror})") from None
        try:
            os.fchmod(fd, stat.S_IMODE(existing.st_mode) if existing else 0o666 & ~_umask())
            with os.fdopen(fd, "wb") as f:
                _put(f, content)
        except BaseException:
            staged.discard()
            raise
    return staged


def _put(f: BinaryIO, content: Content) -> None:
    if isinstance(content, str):
        f.write(content.encode())
    elif isinstance(content, bytes):
        f.write(content)
    else:
        content(f)


@contextmanager
def _named(path: Path) -> Iterator[None]:
    """Re-raises an OSError with the user's path as its file name (not the temporary
    file's, nor a link's target)."""
    try:
        yield
    except OSError as error:
        if error.errno is None:
            raise
        raise type(error)(error.errno, error.strerror, os.fspath(path)) from None


def _umask() -> int:
    mask = os.umask(0)  # the only way to read it is to set it
    os.umask(mask)
    return mask
