"""dstack run configurations (round 11, tests/test_rpl3_heldout11.py's dstack case): `.dstack.yml`,
the file `dstack apply` reads without `-f`, is walked although its name is hidden, and a task's, a
service's or a dev environment's commands are read as the one script dstack joins them into
(` && `, `sh -i -c` in `image:`), with `env:` exported. A bare `NAME` in `env:` (its value taken
from `dstack apply`'s environment), a `${{ secrets.X }}` value and `${{ run.args }}` are unknown;
a configuration with an `entrypoint:` and documents of other types are not read."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from replaylint.workspace.discovery import discover
from tests.test_configuration import run

REPLAY = "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
THE_CASE = """type: service
name: qwen3-replay

image: vllm/vllm-openai:v0.34.0

env:
  - HF_TOKEN
  - MODEL_ID=Qwen/Qwen3-8B
commands:
  - |
    vllm serve $MODEL_ID \\
      --max-model-len 8192 \\
      --return-sampling-mask \\
      --logprobs-mode processed_logprobs \\
      --enable-scale-out \\
      --override-generation-config '{"temperature": 1.0, "top_k": 64, "presence_penalty": PENALTY}'
port: 8000
model: Qwen/Qwen3-8B
"""


def checked(tmp_path: Path, files: dict[str, str], *args: str) -> list[tuple[str, str, int]]:
    """The findings of `replaylint check .` in a tree of `files` (a walk, not files named)."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    status, out, err = run(tmp_path, "check", "--no-cache", "--output-format", "json", *args, ".")
    assert status in (0, 1), err
    return sorted((f["code"], os.path.normpath(f["filename"]), f["location"]["row"]) for f in json.loads(out))


def messages(tmp_path: Path, name: str) -> list[str]:
    status, out, err = run(tmp_path, "check", "--no-cache", "--output-format", "json", name)
    assert status in (0, 1), err
    return [f["message"] for f in json.loads(out)]


@pytest.mark.parametrize("name", [".dstack.yml", ".dstack.yaml", "service.dstack.yml", "deploy/qwen3.dstack.yml"])
def test_the_case_presence_penalty_in_a_dstack_service_is_found_by_the_walk(tmp_path: Path, name: str) -> None:
    assert checked(tmp_path, {name: THE_CASE.replace("PENALTY", "0.4")}) == [("RPL302", name, 16)]


def test_the_clean_twin_a_neutral_presence_penalty(tmp_path: Path) -> None:
    assert checked(tmp_path, {".dstack.yml": THE_CASE.replace("PENALTY", "0.0")}) == []


@pytest.mark.parametrize(
    ("configuration", "expected"),
    [
        pytest.param(
            "type: task\nenv:\n  MODEL: Qwen/Qwen3-8B\ncommands:\n  - pip install vllm==0.34.0\n"
            "  - vllm serve $MODEL --return-sampling-mask --enable-scale-out &\n  - python rollout.py\n",
            [("RPL003", 6)],
            id="a task: env mapping, a background server among the commands",
        ),
        pytest.param(
            "type: service\nport: 8000\ncommands:\n  - export MODE=raw_logprobs\n"
            "  - vllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out --logprobs-mode $MODE\n",
            [("RPL003", 4)],
            id="a variable exported by an earlier command, reported at its value",
        ),
        pytest.param(
            "type: service\nport: 8000\nreplicas:\n  - name: policy\n    count: 1\n    commands:\n"
            "      - vllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs\n",
            [("RPL301", 7)],
            id="a replica group's commands",
        ),
        pytest.param(
            "type: dev-environment\nide: vscode\ninit:\n  - vllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out\n",
            [("RPL003", 4)],
            id="a dev environment's init",
        ),
        pytest.param(
            "type: service\nport: 8000\nshell: bash\nenv:\n  - 'MODE=raw_logprobs'\ncommands:\n"
            "  - vllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out --logprobs-mode $MODE\n",
            [("RPL003", 5)],
            id="a quoted NAME=value entry",
        ),
    ],
)
def test_other_spellings_of_a_dstack_launch(tmp_path: Path, configuration: str, expected: list[tuple[str, int]]) -> None:
    assert checked(tmp_path, {"serve.dstack.yml": configuration}) == [(code, "serve.dstack.yml", line) for code, line in expected]


@pytest.mark.parametrize(
    "configuration",
    [
        pytest.param(
            "type: service\nport: 8000\nenv:\n  - MODE\ncommands:\n"
            "  - vllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out --logprobs-mode $MODE\n",
            id="a bare NAME: given by dstack apply's environment",
        ),
        pytest.param(
            "type: service\nport: 8000\nenv:\n  MODE: ${{ secrets.MODE }}\ncommands:\n"
            "  - vllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out --logprobs-mode $MODE\n",
            id="a secret's value",
        ),
        pytest.param(
            "type: task\ncommands:\n  - vllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out ${{ run.args }}\n",
            id="the words given to dstack apply",
        ),
        pytest.param(
            "type: task\nimage: vllm/vllm-openai:v0.34.0\nentrypoint: echo\ncommands:\n  - vllm serve Qwen/Qwen3-8B --return-sampling-mask\n",
            id="an entrypoint: the commands are its words (echo prints them)",
        ),
        pytest.param(
            "type: fleet\nname: gpus\nnodes: 2\ncommands:\n  - vllm serve Qwen/Qwen3-8B --return-sampling-mask\n",
            id="a fleet runs no commands",
        ),
        pytest.param(
            "type: task\nshell: /usr/bin/python3\ncommands:\n  - vllm serve Qwen/Qwen3-8B --return-sampling-mask\n",
            id="a shell replaylint does not read",
        ),
        pytest.param(
            f"type: task\nimage: vllm/vllm-openai:v0.34.0\ncommands:\n  - vllm serve Qwen/Qwen3-8B {REPLAY}\n",
            id="a replay server as vLLM wants it",
        ),
    ],
)
def test_what_stays_silent(tmp_path: Path, configuration: str) -> None:
    assert checked(tmp_path, {".dstack.yml": configuration}) == []


def test_the_image_tag_gives_the_release(tmp_path: Path) -> None:
    (tmp_path / "serve.dstack.yml").write_text(
        "type: service\nport: 8000\nimage: vllm/vllm-openai:v0.33.0\ncommands:\n"
        "  - vllm serve Qwen/Qwen3-8B --return-sampling-mask --enable-scale-out\n"
    )
    assert [message for message in messages(tmp_path, "serve.dstack.yml") if "vLLM 0.33.0 says" in message]


def test_the_fix_is_written_into_the_command(tmp_path: Path) -> None:
    path = tmp_path / ".dstack.yml"
    path.write_text("type: task\ncommands:\n  - pip install vllm==0.34.0\n  - vllm serve m --return-sampling-mask --enable-scale-out &\n")
    status, _, err = run(tmp_path, "check", "--no-cache", "--fix", ".")
    assert status == 0, err
    assert (
        path.read_text().splitlines()[-1]
        == "  - vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out &"
    )


def test_no_fix_across_commands_of_different_styles(tmp_path: Path) -> None:
    text = "type: task\ncommands:\n  - 'export MODE=raw_logprobs'\n  - vllm serve m --return-sampling-mask --enable-scale-out --logprobs-mode $MODE\n"
    (tmp_path / ".dstack.yml").write_text(text)
    status, _, _ = run(tmp_path, "check", "--no-cache", "--fix", ".")
    assert status == 1
    assert (tmp_path / ".dstack.yml").read_text() == text


def test_the_walk_keeps_hidden_launch_files_only(tmp_path: Path) -> None:
    serve = f"type: task\ncommands:\n  - vllm serve m {REPLAY}\n"
    for name in (".dstack.yml", ".dstack.yaml", ".other.yml", "sub/.dstack.yml", ".hidden/.dstack.yml", "app.dstack.yml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(serve)
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        found = list(discover(["."], respect_gitignore=False))
    finally:
        os.chdir(cwd)
    assert sorted(found) == [".dstack.yaml", ".dstack.yml", "app.dstack.yml", "sub/.dstack.yml"]


def test_a_warm_walk_sees_a_dstack_file_added_later(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("serving\n")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        snapshots: dict = {}
        assert list(discover(["."], snapshots=snapshots, respect_gitignore=False)) == ["README.md"]
        (tmp_path / ".dstack.yml").write_text("type: task\n")
        stat = tmp_path.stat()
        os.utime(tmp_path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
        assert list(discover(["."], snapshots=snapshots, respect_gitignore=False)) == [".dstack.yml", "README.md"]
    finally:
        os.chdir(cwd)


def test_another_tools_type_service_is_left_to_the_other_readers(tmp_path: Path) -> None:
    manifest = (
        "type: service\nspec:\n  containers:\n    - name: vllm\n      image: vllm/vllm-openai:v0.34.0\n"
        '      args: ["Qwen/Qwen3-8B", "--return-sampling-mask", "--enable-scale-out"]\n'
    )
    assert checked(tmp_path, {"app.yaml": manifest}) == [("RPL003", "app.yaml", 6)]
