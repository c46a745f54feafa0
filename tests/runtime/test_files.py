"""runtime/files.py: output files written atomically where possible, through links,
into special files, keeping modes, naming the user's path in errors."""

from __future__ import annotations

import os
import stat

import pytest

from soacc.runtime.files import write_file, write_files


def test_a_new_file_gets_the_umask_mode(tmp_path):
    out = tmp_path / "new"
    write_file(out, "text")
    mask = os.umask(0)
    os.umask(mask)
    assert out.read_text() == "text"
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask


def test_a_symlink_stays_and_its_target_changes(tmp_path):
    (tmp_path / "target").write_bytes(b"old")
    link = tmp_path / "link"
    link.symlink_to("target")
    write_file(link, b"new")
    assert link.is_symlink()
    assert (tmp_path / "target").read_bytes() == b"new"


def test_the_mode_is_kept(tmp_path):
    out = tmp_path / "out"
    out.write_text("old")
    out.chmod(0o640)
    write_file(out, "new")
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_a_failure_leaves_the_old_content_and_no_temporary_file(tmp_path):
    out = tmp_path / "out"
    out.write_text("old")

    def half_then_fail(f):
        f.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError) as caught:
        write_file(out, half_then_fail)
    assert caught.value.filename == str(out)
    assert out.read_text() == "old"
    assert os.listdir(tmp_path) == ["out"]


def test_several_files_all_or_none(tmp_path):
    first = tmp_path / "first"
    first.write_text("old")

    def fail(f):
        raise OSError(5, "Input/output error")

    with pytest.raises(OSError):
        write_files([(first, "new"), (tmp_path / "second", fail)])
    assert first.read_text() == "old"
    assert os.listdir(tmp_path) == ["first"]
    write_files([(first, "new"), (tmp_path / "second", "2")])
    assert first.read_text() == "new" and (tmp_path / "second").read_text() == "2"


def test_a_character_device_is_written_not_replaced(null_device):
    write_file(null_device, "discarded")
    assert stat.S_ISCHR(os.stat(null_device).st_mode)


def test_a_file_in_a_directory_where_no_file_can_be_made_says_so(tmp_path, monkeypatch):
    # (as in /proc: the file exists, the staged copy beside it cannot be made, and the
    # error said "No such file or directory" of the user's existing file)
    import errno
    import tempfile

    target = tmp_path / "out.txt"
    target.write_text("old")

    def refuse(*args, **kwargs):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", "/x/.out.txt.tmp")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(OSError) as error:
        write_file(target, "new")
    assert error.value.filename == str(target)
    assert "no new file can be made in its directory" in error.value.strerror
    assert ".tmp" not in str(error.value)
    assert target.read_text() == "old"
