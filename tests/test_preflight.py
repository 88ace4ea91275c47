"""`replaylint preflight` in a real environment: a temporary venv into which pip installs (offline)
wheels built from tests/data/plugins (a logits-processor plugin whose import leaves a mark, a
general plugin, a stand-in for vLLM's metadata), real environment variables, and `--exec` with
a real child process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import sysconfig
import zipfile
from base64 import urlsafe_b64encode
from hashlib import sha256
from pathlib import Path

import pytest

WHEELS = Path(__file__).parent / "data" / "plugins" / "wheels"
LAUNCH = ["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]
RUN_REPLAYLINT = "import sys; from replaylint.cli.main import main; sys.exit(main(sys.argv[1:]))"


def build_wheel(folder: Path, into: Path, version: str = "") -> Path:
    """A wheel of the fixture folder (its files, a WHEEL and a RECORD), as a build backend makes."""
    dist_info = next(path for path in folder.iterdir() if path.name.endswith(".dist-info"))
    name = dist_info.name.replace("VERSION", version)
    files = {
        str(path.relative_to(folder)).replace(dist_info.name, name): path.read_text().replace("VERSION", version)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
    files[f"{name}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: replaylint-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = [f"{path},sha256={_digest(text)},{len(text.encode())}" for path, text in files.items()]
    files[f"{name}/RECORD"] = "\n".join([*record, f"{name}/RECORD,,"]) + "\n"
    wheel = into / f"{name.removesuffix('.dist-info')}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def _digest(text: str) -> str:
    return urlsafe_b64encode(sha256(text.encode()).digest()).rstrip(b"=").decode()


class Venv:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.python = root / "bin" / "python"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True, cwd=root.parent)
        # replaylint and its dependencies come from the interpreter running the tests.
        purelib = subprocess.run(
            [str(self.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        Path(purelib, "replaylint-tests.pth").write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")

    def pip_install(self, wheel: Path) -> None:
        command = [sys.executable, "-m", "pip", "--python", str(self.python), "install", "-q", "--no-index", "--no-deps", str(wheel)]
        subprocess.run(command, check=True, cwd=self.root.parent, capture_output=True)

    def preflight(self, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
        environ = {key: value for key, value in os.environ.items() if not key.startswith(("VLLM_", "PYTHON"))}
        environ.update(env or {})
        command = [str(self.python), "-I", "-c", RUN_REPLAYLINT, "preflight", *args]
        return subprocess.run(command, capture_output=True, text=True, env=environ, cwd=cwd or self.root.parent, timeout=60)


@pytest.fixture(scope="module")
def serving(tmp_path_factory) -> Venv:
    """A serving environment: vLLM 0.31.0's metadata, a logits-processor plugin, a general plugin."""
    root = tmp_path_factory.mktemp("serving")
    venv = Venv(root / "venv")
    for folder, version in ((WHEELS / "ban_words", ""), (WHEELS / "general_only", ""), (WHEELS / "vllm", "0.31.0")):
        venv.pip_install(build_wheel(folder, root, version))
    return venv


@pytest.fixture(scope="module")
def bare(tmp_path_factory) -> Venv:
    """An environment with vLLM 0.34.0's metadata and only a general plugin."""
    root = tmp_path_factory.mktemp("bare")
    venv = Venv(root / "venv")
    for folder, version in ((WHEELS / "general_only", ""), (WHEELS / "vllm", "0.34.0")):
        venv.pip_install(build_wheel(folder, root, version))
    return venv


def test_installed_plugin_and_runner_variable_are_both_reported(serving: Venv, tmp_path: Path) -> None:
    mark = tmp_path / "imported"
    result = serving.preflight(
        "--output-format", "json", "--", *LAUNCH, env={"VLLM_USE_V2_MODEL_RUNNER": "0", "PLUGIN_IMPORTED_MARK": str(mark)}
    )
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)
    by_code = {finding["code"]: finding for finding in findings}
    assert set(by_code) == {"RPL001", "RPL004"}
    plugin = by_code["RPL001"]
    assert plugin["filename"].endswith(os.path.join("ban_words-1.0.dist-info", "entry_points.txt"))
    assert plugin["location"]["row"] == 5  # the `ban = ...` line of its section
    assert "`ban = ban_words:BanWords`" in plugin["message"] and "ban-words 1.0" in plugin["message"]
    assert "vLLM 0.31.0 loads every installed plugin" in plugin["message"]
    assert "`VLLM_USE_V2_MODEL_RUNNER=0` selects Model Runner V1" in by_code["RPL004"]["message"]
    assert not mark.exists(), "preflight imported the plugin"


def test_judged_by_the_installed_release(serving: Venv) -> None:
    """0.30 (forced here) counts the plugin as a custom logits processor: replay falls back to V1."""
    result = serving.preflight("--target-vllm", "0.30.0", "--output-format", "concise", "--", *LAUNCH)
    assert result.returncode == 1
    assert "RPL004" in result.stdout and "Model Runner V2 does not yet support custom logits processors" in result.stdout
    assert "RPL001" not in result.stdout


def test_general_plugins_and_a_clean_launch_pass(bare: Venv) -> None:
    result = bare.preflight("--", *LAUNCH)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "All checks passed" in result.stdout
    assert "not installed" not in result.stderr


def test_the_release_installed_decides(bare: Venv) -> None:
    """vLLM 0.34.0 removed the runner variable: RPL206, not RPL004."""
    result = bare.preflight("--output-format", "concise", "--", *LAUNCH, env={"VLLM_USE_V2_MODEL_RUNNER": "0"})
    assert result.returncode == 1
    assert "RPL206" in result.stdout and "RPL004" not in result.stdout


@pytest.mark.parametrize("output_format", ["full", "concise", "json", "json-lines", "sarif", "github", "gitlab", "junit", "rdjson"])
def test_every_output_format(serving: Venv, output_format: str) -> None:
    result = serving.preflight("--output-format", output_format, "--", "vllm", "serve", "m", "--return-sampling-mask")
    assert result.returncode == 1, result.stderr
    assert "RPL003" in result.stdout and "Traceback" not in result.stderr


def test_usage_errors_exit_2(bare: Venv) -> None:
    assert bare.preflight().returncode == 2
    assert bare.preflight("--target-vllm", "banana", "--", *LAUNCH).returncode == 2
    result = bare.preflight("--select", "NOPE", "--", *LAUNCH)
    assert result.returncode == 2 and "Traceback" not in result.stderr


def _fake_vllm(folder: Path, body: str) -> dict[str, str]:
    folder.mkdir(exist_ok=True)
    script = folder / "vllm"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def test_exec_becomes_the_launch(bare: Venv, tmp_path: Path) -> None:
    env = _fake_vllm(tmp_path / "bin", 'echo "pid $$ args $*"; exit 3')
    process = subprocess.Popen(
        [str(bare.python), "-I", "-c", RUN_REPLAYLINT, "preflight", "--exec", "--", *LAUNCH],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 3, stderr
    assert stdout == f"pid {process.pid} args serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
    assert "All checks passed" in stderr  # the report goes to stderr: stdout is the launch's


def test_exec_passes_a_signal_through(bare: Venv, tmp_path: Path) -> None:
    env = _fake_vllm(tmp_path / "bin", "kill -TERM $$")
    result = bare.preflight("--exec", "--", *LAUNCH, env=env)
    assert result.returncode == -signal.SIGTERM


def test_exec_does_not_start_a_launch_with_findings(serving: Venv, tmp_path: Path) -> None:
    started = tmp_path / "started"
    env = _fake_vllm(tmp_path / "bin", f"touch {started}")
    result = serving.preflight("--exec", "--", *LAUNCH, env=env)
    assert result.returncode == 1 and not started.exists()
    assert "RPL001" in result.stderr


def test_exec_of_a_missing_command(bare: Venv) -> None:
    result = bare.preflight("--exec", "--", "/nonexistent/vllm", "serve", "m")
    assert result.returncode == 127 and "cannot run" in result.stderr


def test_a_command_that_is_not_a_launch_says_so(bare: Venv) -> None:
    result = bare.preflight("--", "/start.sh", "--port", "8000")
    assert result.returncode == 0 and "nothing was judged" in result.stderr


def test_without_vllm_installed_the_newest_rules_judge(tmp_path: Path) -> None:
    venv = Venv(tmp_path / "venv")
    result = venv.preflight("--", *LAUNCH)
    assert result.returncode == 0 and "vLLM is not installed" in result.stderr


def test_config_file_next_to_the_launch(bare: Venv, tmp_path: Path) -> None:
    (tmp_path / "serve.yaml").write_text("return-sampling-mask: true\n")
    result = bare.preflight("--output-format", "concise", "--", "vllm", "serve", "m", "--config", "serve.yaml", cwd=tmp_path)
    assert result.returncode == 1 and "RPL003" in result.stdout


def test_metadata_is_read_as_importlib_metadata_reads_it(serving: Venv) -> None:
    """The folder scan that replaces `importlib.metadata` (for speed) finds the same things."""
    code = (
        "import importlib.metadata as m, json; from replaylint.preflight.environment import read_installed; i = read_installed(); "
        "print(json.dumps([i.vllm_version, m.version('vllm'), sorted((p.name, p.target) for p in i.installed_plugins), "
        "sorted((e.name, e.value) for e in m.entry_points(group='vllm.logits_processors'))]))"
    )
    result = subprocess.run([str(serving.python), "-I", "-c", code], capture_output=True, text=True, check=True)
    ours, theirs, our_plugins, their_plugins = json.loads(result.stdout)
    assert ours == theirs == "0.31.0"
    assert our_plugins == their_plugins == [["ban", "ban_words:BanWords"]]
