"""Reads: only regular files are read, every read is bounded, nothing blocks, nothing passes silently."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import NOBODY, as_user, needs_root, replaylint

LAUNCH = b"vllm serve m --return-sampling-mask --enable-scale-out\n"


def tree(tmp_path: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    return tmp_path


def quick(*args: str, cwd: Path, stdin: bytes | None = None):
    """replaylint, which must be done within a few seconds whatever the tree holds."""
    started = time.monotonic()
    completed = replaylint(*args, cwd=cwd, stdin=stdin, timeout=20)
    assert time.monotonic() - started < 10
    assert b"Traceback" not in completed.stderr, completed.stderr.decode()
    return completed


def test_a_fifo_in_the_tree_is_skipped_with_a_note(tmp_path: Path) -> None:
    tree(tmp_path, {"run.sh": LAUNCH})
    os.mkfifo(tmp_path / "x.sh")
    completed = quick("check", "--no-cache", ".", cwd=tmp_path)
    assert b"x.sh: skipped, it is a FIFO" in completed.stderr
    assert b"run.sh:1:14: RPL003" in completed.stdout and completed.returncode == 1


def test_a_fifo_named_on_the_command_line_is_skipped_with_a_note(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.sh")
    completed = quick("check", "--no-cache", "x.sh", cwd=tmp_path)
    assert b"x.sh: skipped, it is a FIFO" in completed.stderr and completed.returncode == 0


def test_fifos_named_as_pin_files_do_not_block_the_check_next_to_them(tmp_path: Path) -> None:
    tree(tmp_path, {"run.sh": LAUNCH, "requirements.txt": b"-r more.txt\n"})
    for name in ("pyproject.toml", "uv.lock", "more.txt", "requirements-dev.txt"):
        os.mkfifo(tmp_path / name)
    for args in (("run.sh",), (".",)):
        completed = quick("check", "--no-cache", *args, cwd=tmp_path)
        assert b"run.sh:1:14: RPL003" in completed.stdout


def test_a_fifo_as_replaylints_configuration_is_an_error(tmp_path: Path) -> None:
    tree(tmp_path, {"run.sh": LAUNCH})
    os.mkfifo(tmp_path / "cfg.toml")
    completed = quick("check", "--no-cache", "--config", "cfg.toml", "run.sh", cwd=tmp_path)
    assert completed.returncode == 2 and b"cfg.toml: is a FIFO" in completed.stderr


def test_a_fifo_as_a_launchs_vllm_config_file_does_not_block(tmp_path: Path) -> None:
    tree(tmp_path, {"run.sh": b"vllm serve m --config cfg.yaml --return-sampling-mask --enable-scale-out\n"})
    os.mkfifo(tmp_path / "cfg.yaml")
    completed = quick("check", "--no-cache", "run.sh", cwd=tmp_path)
    assert completed.returncode in (0, 1)


def test_a_fifo_git_config_does_not_block_a_ci_format(tmp_path: Path) -> None:
    # The CI formats print repository-relative paths: the top level is found without asking git.
    tree(tmp_path, {"run.sh": LAUNCH})
    (tmp_path / ".git").mkdir()
    os.mkfifo(tmp_path / ".git" / "config")
    completed = quick("check", "--no-cache", "--output-format", "github", ".", cwd=tmp_path)
    assert b"::error file=run.sh,line=1," in completed.stdout


def test_a_symlink_to_dev_zero_is_not_read(tmp_path: Path) -> None:
    tree(tmp_path, {"run.sh": LAUNCH})
    (tmp_path / "z.sh").symlink_to("/dev/zero")
    completed = quick("check", "--no-cache", ".", cwd=tmp_path)
    assert b"z.sh: skipped, it links outside the checked tree" in completed.stderr
    assert b"run.sh:1:14: RPL003" in completed.stdout
    named = quick("check", "--no-cache", "z.sh", cwd=tmp_path)
    assert b"z.sh: skipped, it is a character device" in named.stderr and named.returncode == 0


def test_stdin_is_read_no_further_than_the_size_limit(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zeros:
        started = time.monotonic()
        completed = subprocess.run(
            [sys.executable, "-m", "replaylint", "check", "-", "--stdin-filename", "x.sh"],
            cwd=tmp_path,
            stdin=zeros,
            capture_output=True,
            timeout=20,
        )
        assert time.monotonic() - started < 10
    assert completed.returncode == 2 and b"stdin is larger than the 8 MiB limit" in completed.stderr


def test_a_utf16_kubernetes_manifest_is_read_as_kubectl_reads_it(tmp_path: Path) -> None:
    manifest = (
        "apiVersion: v1\nkind: Pod\nmetadata: {name: rollout}\nspec:\n  containers:\n  - name: vllm\n"
        '    image: vllm/vllm-openai:v0.33.0\n    args: ["--model", "m", "--return-sampling-mask", "--enable-scale-out"]\n'
    )
    tree(tmp_path, {"pod.yaml": manifest.encode("utf-16"), "pod32.yaml": manifest.encode("utf-32")})
    completed = quick("check", "--no-cache", "--output-format", "json", ".", cwd=tmp_path)
    found = {(f["filename"], f["code"], f["location"]["row"]) for f in json.loads(completed.stdout)}
    assert found == {("pod.yaml", "RPL003", 8), ("pod32.yaml", "RPL003", 8)}


def test_a_utf16_shell_script_is_reported_as_one_bash_cannot_run(tmp_path: Path) -> None:
    tree(tmp_path, {"run.sh": LAUNCH.decode().encode("utf-16")})
    completed = quick("check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert b"run.sh:1:1: RPL900 file is UTF-16 encoded" in completed.stdout and completed.returncode == 1


def test_a_missing_path_is_an_error(tmp_path: Path) -> None:
    completed = quick("check", "--no-cache", "nonexistent_path", cwd=tmp_path)
    assert completed.returncode == 2
    assert completed.stderr == b"replaylint: error: nonexistent_path: no such file or directory\n"
    assert b"All checks passed" not in completed.stdout


@needs_root
def test_unreadable_files_and_folders_are_findings(public_tmp: Path) -> None:
    tree(public_tmp, {"locked.sh": LAUNCH, "closed/run.sh": LAUNCH, "open.sh": b"echo hi\n"})
    (public_tmp / "locked.sh").chmod(0o600)
    (public_tmp / "closed").chmod(0o700)
    report = public_tmp / "report.json"
    report.touch()
    report.chmod(0o666)

    def check() -> int:
        from replaylint.cli import main as cli

        return cli.main(["check", "--no-cache", "--output-format", "json", "-o", str(report), str(public_tmp)])

    status = as_user(NOBODY, check)
    found = {(Path(f["filename"]).name, f["code"], f["message"]) for f in json.loads(report.read_text())}
    assert found == {
        ("locked.sh", "RPL900", "file cannot be read (permission denied)"),
        ("closed", "RPL900", "folder cannot be listed (permission denied)"),
    }
    assert status == 1


def test_files_outside_the_checked_tree_are_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("return-sampling-mask: true\nspeculative-config: {method: ngram}\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()
    (project / "serve.sh").write_text(f"vllm serve m --config {secret} --logprobs-mode processed_logprobs\n")
    (project / "link.sh").symlink_to(tmp_path / "outside.sh")
    (tmp_path / "outside.sh").write_bytes(LAUNCH)
    completed = quick("check", "--no-cache", ".", cwd=project)
    assert b"secret" not in completed.stdout and b"outside" not in completed.stdout
    assert b"link.sh: skipped, it links outside the checked tree" in completed.stderr
    assert completed.returncode == 0
    named = quick("check", "--no-cache", str(tmp_path / "outside.sh"), cwd=project)
    assert b"outside.sh:1:14: RPL003" in named.stdout


@pytest.mark.parametrize("link", ["none", "the module", "its folder"])
def test_a_module_the_value_flow_reads_is_not_read_outside_the_checked_tree(tmp_path: Path, link: str) -> None:
    # The flow reads the modules beside a file, their folders resolved once a check
    # (`files.real_path`): a link to outside, of the module or of its folder, is not followed.
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "main.py").write_text("from vllm import LLM\n\nfrom pkg.conf import ARGS\n\nllm = LLM(**ARGS)\n")
    conf = b'ARGS = {"model": "m", "return_sampling_mask": True}\n'
    (tmp_path / "outside").mkdir()
    if link == "its folder":
        (project / "pkg").symlink_to(tmp_path / "outside")
    else:
        (project / "pkg").mkdir()
    for folder in (project / "pkg", tmp_path / "outside"):
        (folder / "other.py").write_text("VALUE = 1\n")
    if link == "none":
        (project / "pkg" / "conf.py").write_bytes(conf)
    else:
        (tmp_path / "outside" / "conf.py").write_bytes(conf)
        if link == "the module":
            (project / "pkg" / "conf.py").symlink_to(tmp_path / "outside" / "conf.py")
    completed = quick("check", "--no-cache", "--output-format", "concise", ".", cwd=project)
    assert (b"RPL003" in completed.stdout) == (link == "none")


def test_a_real_path_kept_by_folder_is_the_real_path(tmp_path: Path, monkeypatch) -> None:
    from replaylint.files import real_path

    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "x.py").write_text("")
    (tmp_path / "tree" / "deep").mkdir(parents=True)
    (tmp_path / "tree" / "a.py").write_text("")
    (tmp_path / "tree" / "link.py").symlink_to(tmp_path / "outside" / "x.py")
    (tmp_path / "tree" / "out").symlink_to(tmp_path / "outside")
    (tmp_path / "tree" / "deep" / "up").symlink_to(tmp_path / "outside")
    monkeypatch.chdir(tmp_path / "tree")
    kept: dict[str, str] = {}
    for path in (
        "a.py",
        "./a.py",
        "link.py",
        "out/x.py",
        "out/../a.py",
        "deep/up/../tree/a.py",
        "deep/..",
        "deep/",
        "missing/x.py",
        "",
        "out",
    ):
        for absolute in (False, True):
            spelled = os.path.join(str(tmp_path / "tree"), path) if absolute else path
            assert real_path(spelled, kept) == os.path.realpath(spelled), spelled
    assert real_path("out/x.py", kept) == str(tmp_path / "outside" / "x.py")


@pytest.mark.parametrize(
    "where", [".gitignore", "deploy/.gitignore", ".hidden/.gitignore", "core.excludesFile", ".git/info/exclude", ".git/index"]
)
def test_a_fifo_git_would_open_neither_blocks_nor_switches_gitignore_off(tmp_path: Path, where: str) -> None:
    """git opens every ignore file (and its index) with a plain open(), which waits for a writer: the
    listing stopped at its 30 s limit with no `.gitignore` honoured. replaylint reads them itself."""
    tree(tmp_path, {"deploy/run.sh": LAUNCH, "generated/run.sh": LAUNCH, ".hidden/x": b""})
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    if where != ".gitignore":
        (tmp_path / ".gitignore").write_text("generated/\n")
    if where == "core.excludesFile":
        os.mkfifo(tmp_path / "excludes")
        subprocess.run(["git", "-C", str(tmp_path), "config", "core.excludesFile", str(tmp_path / "excludes")], check=True)
    else:
        (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / where).unlink(missing_ok=True)
        os.mkfifo(tmp_path / where)
    completed = quick("check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert b"deploy/run.sh:1:14: RPL003" in completed.stdout
    assert (b"generated/run.sh" in completed.stdout) is (where == ".gitignore"), completed.stdout


def test_a_huge_gitignore_is_not_read(tmp_path: Path) -> None:
    from replaylint.workspace.gitignore import IGNORE_FILE_BYTES

    tree(tmp_path, {"run.sh": LAUNCH, ".gitignore": b"run.sh\n" + b"#" * IGNORE_FILE_BYTES + b"\n"})
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    completed = quick("check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert b"run.sh:1:14: RPL003" in completed.stdout  # more files checked, none left out silently


def test_a_gitignore_of_ten_thousand_globs_costs_little(tmp_path: Path) -> None:
    """Each name is tried against every pattern that needs an expression: a file with more than
    MAX_EXPRESSIONS of them is not read (names, paths and `*.suffix` patterns are table lookups)."""
    many = "".join(f"[a-c]x{index}*.y\n" for index in range(10_000))
    files = {f"d{folder}/f{index}.sh": b"" for folder in range(20) for index in range(100)}
    tree(tmp_path, {**files, "run.sh": LAUNCH, ".gitignore": ("run.sh\n" + many).encode(), "d0/.gitignore": b"*.sh\n"})
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    completed = quick("check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert b"run.sh:1:14: RPL003" in completed.stdout


def test_patterns_made_to_backtrack_cost_linear_time(tmp_path: Path) -> None:
    """A `*` is matched atomically and a `**` component by component: neither a long name nor a
    deep path costs a power of its length."""
    name = "a" * 200 + ".sh"
    deep = "/".join(["a"] * 300) + "/run.sh"
    rules = "*a" * 30 + "*b\n" + "**/a*a*a*a*a*a*a*a*a*c/**/x\n" + "**/a/**/a/**/b/**\n" + "a/**/a/**/a/**/c\n"
    tree(tmp_path, {name: LAUNCH, deep: LAUNCH, **{f"{deep[:-6]}/s{i}.sh": b"" for i in range(200)}, ".gitignore": rules.encode()})
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    completed = quick("check", "--no-cache", "--output-format", "concise", ".", cwd=tmp_path)
    assert f"{name}:1:14: RPL003".encode() in completed.stdout and f"{deep}:1:14: RPL003".encode() in completed.stdout
