"""What held-out round 46 (tests/data/python_flow/h46_marin_vllm_environment_*) made the value flow follow:
marin-community/marin's experiments start `vllm serve` through `VllmEnvironment(model, extra_args=[...])`, a class
of the monorepo's member package (`lib/marin/src/marin/inference/vllm_server.py`, far from `experiments/`), whose
`__init__` splices the words into `self.extra_cli_args` (`[*defaults, *(extra_args or [])]`) and whose
`__enter__` hands them to a helper that runs `[shutil.which("vllm") or "vllm", "serve", ...]` with
`subprocess.Popen`. The finding is at the words the script passes."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main

SERVER = """\
import shutil
import subprocess
from shutil import which


def _start_native_server(*, model: str, port: int = 8000, extra_cli_args: list[str] | None = None):
    vllm_bin = WHICH
    cmd: list[str] = [vllm_bin, "serve", model, "--port", str(port), *(extra_cli_args or [])]
    return subprocess.Popen(cmd, text=True)


class VllmEnvironment:
    def __init__(self, model: str, *, port: int = 8000, extra_args: list[str] | None = None) -> None:
        self.model = model
        self.port = port
        self.extra_cli_args = ["--max-model-len", "2048", *(extra_args or [])]
        self.process = None

    def __enter__(self) -> "VllmEnvironment":
        self.process = _start_native_server(model=self.model, port=self.port, extra_cli_args=self.extra_cli_args)
        return self

    def __exit__(self, *exc) -> None:
        self.process.terminate()
"""

SCRIPT = """\
import sys

from marin.inference.vllm_server import VllmEnvironment


def main() -> None:
    with VllmEnvironment(
        "Qwen/Qwen3-0.6B",
        port=8000,
        extra_args=EXTRA,
    ) as env:
        print(env.port)


if __name__ == "__main__":
    main()
"""

MASK_ONLY = '["--return-sampling-mask", "--enable-scale-out"]'
NO_SCALE_OUT = '["--return-sampling-mask", "--logprobs-mode", "processed_logprobs"]'
REPLAY = '["--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--enable-scale-out"]'


def run(tree: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    return json.loads(out.getvalue())


def check(
    tmp_path: Path, extra: str, which: str = 'shutil.which("vllm") or "vllm"', members: str = "lib", package: str = "marin"
) -> list[tuple[str, int, str]]:
    """The monorepo: `experiments/inference/serve.py` and the member `<members>/<package>/src/marin/inference/`."""
    inference = tmp_path / members / package / "src" / "marin" / "inference"
    inference.mkdir(parents=True)
    (inference.parent / "__init__.py").write_text("")
    (inference / "__init__.py").write_text("")
    (inference / "vllm_server.py").write_text(SERVER.replace("WHICH", which))
    script = tmp_path / "experiments" / "inference" / "serve.py"
    script.parent.mkdir(parents=True)
    script.write_text(SCRIPT.replace("EXTRA", extra))
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in run(tmp_path))


def test_the_mask_without_the_mode_through_a_members_environment_is_reported_at_the_scripts_words(tmp_path: Path) -> None:
    assert check(tmp_path, MASK_ONLY) == [("serve.py", 10, "RPL003")]


def test_the_mask_without_scale_out_through_a_members_environment_is_rpl301(tmp_path: Path) -> None:
    assert check(tmp_path, NO_SCALE_OUT) == [("serve.py", 10, "RPL301")]


def test_a_replay_server_with_the_mode_and_scale_out_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, REPLAY) == []


def test_the_program_imported_by_name_from_shutil_and_a_packages_folder_are_read_too(tmp_path: Path) -> None:
    # `from shutil import which` is the same function; `packages/NAME/src/NAME` is a member as `lib/` is
    found = check(tmp_path, MASK_ONLY, which='which("vllm") or "vllm"', members="packages")
    assert found == [("serve.py", 10, "RPL003")]


def test_a_fallback_to_another_program_is_not_taken_for_vllm(tmp_path: Path) -> None:
    # `which("vllm") or "python"` runs vllm or python: which one is known only when it runs
    assert check(tmp_path, MASK_ONLY, which='shutil.which("vllm") or "python"') == []


def test_words_from_the_command_line_keep_the_server_open_ended(tmp_path: Path) -> None:
    # `sys.argv` may hold --enable-scale-out and --logprobs-mode: the rules that depend on absence stay silent
    assert check(tmp_path, '["--return-sampling-mask", *sys.argv[1:]]') == []


def test_a_member_folder_not_named_like_its_package_is_not_guessed(tmp_path: Path) -> None:
    # `lib/core/src/marin`: which member installs `marin` is said by packaging this reading does not look at
    assert check(tmp_path, MASK_ONLY, package="core") == []
