"""Files written whole or not at all (``bansugoroku_fast._files``), with the
permissions any new file gets."""
import os
import stat
import sys
from pathlib import Path

import pytest

from bansugoroku_fast._files import write_atomically
from bansugoroku_fast.evaluators import NetEvaluator

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")


def umask_mode():
    """What the umask lets a new file's 0o666 keep."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def test_the_file_takes_its_place_whole(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    write_atomically(path, lambda temporary: Path(temporary).write_text("new"))
    assert path.read_text() == "new" and os.listdir(tmp_path) == ["out.txt"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")

    def half(temporary):
        Path(temporary).write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomically(path, half, durable=True)
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["out.txt"]


def test_the_temporary_keeps_the_extension(tmp_path):
    names = []
    write_atomically(tmp_path / "curve.png", lambda temporary: names.append(temporary) or Path(temporary).touch())
    assert names[0].endswith(".png") and os.path.dirname(names[0]) == str(tmp_path)


@posix_only
@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_a_written_file_has_the_umask_permissions_not_private_ones(tmp_path, mask):
    old = os.umask(mask)
    try:
        path = tmp_path / "net.npz"
        NetEvaluator.random("backgammon", hidden=(4,), seed=1).save(path)
        write_atomically(tmp_path / "table.bin", lambda temporary: Path(temporary).write_bytes(b"table"))
        expected = umask_mode()
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == expected == 0o666 & ~mask
    assert stat.S_IMODE((tmp_path / "table.bin").stat().st_mode) == expected
    assert sorted(os.listdir(tmp_path)) == ["net.npz", "table.bin"]
