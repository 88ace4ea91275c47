"""Bad input is reported (RPL900 or a clear message) and never stops the scan."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from replaylint.cli.main import main

GOOD_BAD = "from vllm import LLM\nLLM('m', return_sampling_mask=True)\n"


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["check", "--output-format", "concise", "--no-respect-gitignore", "--no-cache", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_syntax_error_is_reported_and_the_scan_goes_on(tmp_path, capsys) -> None:
    write(tmp_path / "a_broken.py", b"import vllm\nLLM(return_sampling_mask=True\n")
    write(tmp_path / "b_launch.py", GOOD_BAD.encode())
    status, out, _ = run(capsys, str(tmp_path))
    assert status == 1
    assert "a_broken.py:" in out and "RPL900" in out and "syntax error" in out.lower()
    assert "b_launch.py:2:10: RPL003" in out


def test_latin1_bytes_are_reported_with_their_position(tmp_path, capsys) -> None:
    write(tmp_path / "serve.py", b"import vllm\n# caf\xe9\nLLM('m', return_sampling_mask=True)\n")
    status, out, _ = run(capsys, str(tmp_path))
    assert status == 1
    assert "serve.py:2:6: RPL900" in out and "0xe9" in out


def test_a_coding_cookie_is_honoured(tmp_path, capsys) -> None:
    write(tmp_path / "serve.py", b"# -*- coding: latin-1 -*-\nfrom vllm import LLM\n# caf\xe9\nLLM('m', return_sampling_mask=True)\n")
    status, out, _ = run(capsys, str(tmp_path))
    assert "RPL900" not in out and "RPL003" in out


def test_binary_files_that_mention_vllm_are_reported(tmp_path, capsys) -> None:
    write(tmp_path / "weights.py", b"\x00\x01vllm LLM(return_sampling_mask)\x00" * 10)
    status, out, _ = run(capsys, str(tmp_path))
    assert "weights.py:1:1: RPL900" in out and "binary" in out


def test_files_without_replay_content_are_never_reported(tmp_path, capsys) -> None:
    write(tmp_path / "latin.py", b"# caf\xe9\n")
    write(tmp_path / "binary.py", b"\x00\x01\x02vllm")
    write(tmp_path / "broken.py", b"import vllm\ndef (:\n")
    status, out, _ = run(capsys, str(tmp_path))
    assert status == 0 and "All checks passed!" in out


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file_gives_a_message_and_the_scan_goes_on(tmp_path, capsys) -> None:
    locked = write(tmp_path / "a_locked.py", GOOD_BAD.encode())
    locked.chmod(0)
    write(tmp_path / "b_launch.py", GOOD_BAD.encode())
    try:
        status, out, err = run(capsys, str(tmp_path))
    finally:
        locked.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert "a_locked.py:1:1: RPL900 file cannot be read (permission denied)" in out
    assert "b_launch.py:2:10: RPL003" in out
    assert status == 1


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads any folder")
def test_a_folder_that_cannot_be_listed_is_a_finding(tmp_path, capsys) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    write(locked / "run.sh", b"vllm serve m --return-sampling-mask\n")
    locked.chmod(0)
    try:
        status, out, err = run(capsys, str(tmp_path))
    finally:
        locked.chmod(stat.S_IRWXU)
    assert "locked:1:1: RPL900 folder cannot be listed (permission denied)" in out
    assert status == 1


def test_a_missing_path_is_an_error_that_names_it(tmp_path, capsys) -> None:
    status, out, err = run(capsys, str(tmp_path / "missing.py"))
    assert status == 2
    assert f"replaylint: error: {tmp_path / 'missing.py'}: no such file or directory" in err and "Traceback" not in err
    assert "All checks passed" not in out


def test_huge_files_are_skipped_with_a_note_unless_they_could_hold_a_launch(tmp_path, capsys) -> None:
    write(tmp_path / "huge.py", b"import vllm  # return_sampling_mask\n" + b"x = 1\n" * (9 * 1024 * 1024 // 6))
    status, out, err = run(capsys, str(tmp_path))
    assert status == 0 and "huge.py: skipped, 9.0 MiB is above the 8 MiB limit" in err
    write(tmp_path / "huge.py", b"from vllm import LLM\nLLM('m', return_sampling_mask=True)\n" + b"x = 1\n" * (9 * 1024 * 1024 // 6))
    status, out, err = run(capsys, str(tmp_path))
    assert status == 1 and "huge.py: skipped" not in err
    assert "huge.py:1:1: RPL902 file not fully analysed: 9.0 MiB is above the 8 MiB limit, so it is not read" in out


def test_deeply_nested_python_is_reported_not_crashed(tmp_path, capsys) -> None:
    write(tmp_path / "deep.py", b"import vllm  # return_sampling_mask\nx = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n")
    status, out, err = run(capsys, str(tmp_path))
    assert "Traceback" not in err
    assert status in (0, 1)


@pytest.mark.parametrize(
    "name, text",
    [
        ("argv.py", 'import subprocess\nsubprocess.run(["vllm", "serve", "m", "--return-sampling-mask", "--config", "x\\x00.yaml"])\n'),
        ("serve.sh", "vllm serve m --return-sampling-mask --config $'x\\x00.yaml'\n"),
        ("hydra.py", 'from omegaconf import OmegaConf\nfrom vllm import LLM\nLLM(**OmegaConf.load("conf\\x00.yaml"))\n'),
    ],
)
def test_a_file_name_holding_a_nul_is_a_file_that_cannot_be_read(tmp_path, capsys, name: str, text: str) -> None:
    """A launch may name a file no file system can hold (`--config "x\\x00.yaml"`): the file is
    not read, as a missing one is not, and the check goes on (it was an internal error)."""
    write(tmp_path / name, text.encode())
    status, out, err = run(capsys, str(tmp_path))
    assert "internal error" not in err and "Traceback" not in err, err
    assert status in (0, 1), (out, err)
