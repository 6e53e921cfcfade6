"""model/files.py: a file is written whole or not at all, never over an existing file."""

from __future__ import annotations

import os
import stat

import pytest

from model.files import link_new, write_new_text


def test_writes_whole_with_an_ordinary_mode(tmp_path):
    old = os.umask(0o027)
    try:
        p = write_new_text(tmp_path / "a.json", "héllo\n")
    finally:
        os.umask(old)
    assert p.read_bytes() == "héllo\n".encode()
    assert stat.S_IMODE(p.stat().st_mode) == 0o640
    assert sorted(x.name for x in tmp_path.iterdir()) == ["a.json"]


def test_an_existing_file_or_link_is_never_written_over(tmp_path):
    mine = tmp_path / "mine.txt"
    mine.write_text("my notes\n")
    with pytest.raises(FileExistsError):
        write_new_text(mine, "other\n")
    dangling = tmp_path / "link"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(FileExistsError):
        write_new_text(dangling, "other\n")
    assert mine.read_text() == "my notes\n" and not (tmp_path / "nowhere").exists()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["link", "mine.txt"]


def test_a_name_taken_while_writing_is_kept(tmp_path):
    target = tmp_path / "race.txt"

    def write(fh):
        fh.write(b"mine")
        target.write_text("theirs")  # another process takes the name meanwhile

    with pytest.raises(FileExistsError):
        link_new(target, write)
    assert target.read_text() == "theirs"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["race.txt"]


def test_a_failing_writer_leaves_nothing(tmp_path):
    def write(fh):
        fh.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space") as info:
        link_new(tmp_path / "full.bin", write)
    assert info.value.filename == str(tmp_path / "full.bin")  # named, as a full disk is not
    assert list(tmp_path.iterdir()) == []


def test_a_missing_folder_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        write_new_text(tmp_path / "no" / "such.txt", "x")
    assert list(tmp_path.iterdir()) == []


def test_a_name_of_the_longest_legal_length_is_written(tmp_path):
    for name in ("n" * 250 + ".json", "\U0001F3D4" * 62 + ".json"):  # 255 and 253 bytes
        p = write_new_text(tmp_path / name, "{}\n")
        assert p.read_text() == "{}\n" and p.name == name
    assert len(list(tmp_path.iterdir())) == 2
