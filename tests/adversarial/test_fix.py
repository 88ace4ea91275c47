"""`--fix` writes only regular files inside the checked repository, as they were, or says why not."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .conftest import NOBODY, as_user, needs_root, replaylint

LAUNCH = "vllm serve m --return-sampling-mask --enable-scale-out\n"
FIXED = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"


def repository(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def test_a_config_file_outside_the_repository_is_not_rewritten(tmp_path: Path) -> None:
    outside = tmp_path / "outside" / "cfg.yaml"
    outside.parent.mkdir()
    outside.write_text("return-sampling-mask: true\n")
    project = repository(tmp_path / "work" / "project")
    (project / "serve.sh").write_text("vllm serve m --config ../../outside/cfg.yaml\n")
    completed = replaylint("check", "--no-cache", "--fix", ".", cwd=project)
    assert outside.read_text() == "return-sampling-mask: true\n"
    assert b"cfg.yaml" not in completed.stdout  # not even read: files outside the repository are not looked at
    assert completed.returncode == 0


def test_a_config_file_in_the_repository_is_fixed_and_the_report_says_so(tmp_path: Path) -> None:
    project = repository(tmp_path / "project")
    (project / "configs").mkdir()
    (project / "configs" / "cfg.yaml").write_text("return-sampling-mask: true\n")
    (project / "deploy").mkdir()
    (project / "deploy" / "serve.sh").write_text("vllm serve m --config configs/cfg.yaml --enable-scale-out\n")
    completed = replaylint("check", "--no-cache", "--fix", "deploy/serve.sh", cwd=project)
    assert (project / "configs" / "cfg.yaml").read_text() == "return-sampling-mask: true\nlogprobs-mode: processed_logprobs\n"
    assert completed.stdout.decode().endswith("Found 1 error (1 fixed, 0 remaining).\n")
    assert completed.returncode == 0


def test_a_symlink_is_never_replaced_by_a_regular_file(tmp_path: Path) -> None:
    project = repository(tmp_path / "project")
    (project / "real.sh").write_text(LAUNCH)
    (project / "link.sh").symlink_to("real.sh")
    completed = replaylint("check", "--no-cache", "--fix", "link.sh", cwd=project)
    assert (project / "link.sh").is_symlink() and os.readlink(project / "link.sh") == "real.sh"
    assert (project / "real.sh").read_text() == LAUNCH
    assert b"link.sh: not fixed, it is a symlink" in completed.stderr
    assert completed.returncode == 1


def test_stdin_is_fixed_byte_for_byte(tmp_path: Path) -> None:
    script = b"#!/bin/bash\n# caf\xe9 \xff\xfe in Latin-1\r\n" + LAUNCH.encode()
    completed = replaylint("check", "--fix", "-", "--stdin-filename", "serve.sh", cwd=tmp_path, stdin=script)
    assert completed.stdout == b"#!/bin/bash\n# caf\xe9 \xff\xfe in Latin-1\r\n" + FIXED.encode()
    assert completed.returncode == 0


@needs_root
def test_a_file_this_user_may_not_write_is_refused_even_in_a_world_writable_folder(public_tmp: Path) -> None:
    public_tmp.chmod(0o777)
    script = public_tmp / "serve.sh"
    script.write_text(LAUNCH)
    script.chmod(0o644)

    def fix() -> int:
        from replaylint.cli import main as cli

        return cli.main(["check", "--no-cache", "--fix", str(script)])

    status = as_user(NOBODY, fix)
    assert script.read_text() == LAUNCH
    assert script.stat().st_uid == 0 and status == 1


@needs_root
def test_owner_and_mode_are_kept(public_tmp: Path) -> None:
    script = public_tmp / "serve.sh"
    script.write_text(LAUNCH)
    os.chown(script, NOBODY, NOBODY)
    script.chmod(0o640)
    completed = replaylint("check", "--no-cache", "--fix", str(script), cwd=public_tmp)
    assert completed.returncode == 0 and script.read_text() == FIXED
    status = script.stat()
    assert (status.st_uid, status.st_gid, status.st_mode & 0o7777) == (NOBODY, NOBODY, 0o640)
