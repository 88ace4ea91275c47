"""Command lines another program runs: systemd units (`ExecStart=`), `Procfile`s, `tox.ini`
`commands`, SLURM batch scripts (`srun ... vllm serve`), each read as the words that program
gives vLLM, reported at their line in the file, fixed in place."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replaylint.frontends import ExtractContext, SourceFile, command_lines, kind_for, relevant
from tests.test_configuration import run

MASK = "--return-sampling-mask"
SERVE = f"vllm serve Qwen/Qwen3-8B {MASK} --logprobs-mode processed_logprobs"


def findings(tmp_path: Path, files: dict[str, str], *args: str) -> list[tuple[str, str, int]]:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    status, out, err = run(tmp_path, "check", "--no-cache", "--output-format", "json", *args, *files)
    assert status in (0, 1), err
    return sorted((f["code"], Path(f["filename"]).name, f["location"]["row"]) for f in json.loads(out))


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("deploy/vllm.service", "systemd"),
        ("deploy/vllm@.service", "systemd"),
        ("Procfile", "procfile"),
        ("Procfile.dev", "procfile"),
        ("Procfile.md", None),
        ("docs/Procfile.rst", None),
        ("Procfile.txt", None),
        ("Procfile.html", None),
        ("tox.ini", "tox"),
        ("setup.ini", "supervisord"),  # read only when it holds a `[program:]`
        ("slurm/rollout.sbatch", "shell"),
        ("jobs/train.slurm", "shell"),
    ],
)
def test_the_files_are_read_as_their_kind(path: str, kind: str | None) -> None:
    assert kind_for(path) == kind


@pytest.mark.parametrize("kind", ["systemd", "procfile", "tox"])
def test_the_prefilter_lets_a_launch_through_and_turns_away_the_rest(kind: str) -> None:
    assert relevant(kind, f"x {SERVE}\n".encode())
    assert not relevant(kind, b"[Service]\nExecStart=/usr/bin/nginx -g 'daemon off;'\n")


# -- systemd -----------------------------------------------------------------------------------

UNIT = "[Unit]\nDescription=policy\n\n[Service]\nEnvironment=HF_HOME=/srv/hf\nExecStart=/opt/vllm/bin/{serve}\nRestart=always\n"


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        pytest.param(UNIT.format(serve=SERVE), [("RPL301", "u.service", 6)], id="one line"),
        pytest.param(
            f"[Service]\nExecStart=/usr/bin/vllm serve m \\\n    # the mask\n    {MASK} \\\n    --logprobs-mode raw_logprobs\n",
            [("RPL003", "u.service", 5), ("RPL301", "u.service", 4)],
            id="continued, a comment line between",
        ),
        pytest.param(
            f"[Service]\nEnvironment=MODE=raw_logprobs\nExecStart=-/usr/bin/vllm serve m {MASK} --logprobs-mode ${{MODE}} --enable-scale-out\n",
            [("RPL003", "u.service", 2)],
            id="a prefix, ${VAR} from Environment=",
        ),
        pytest.param(
            f"[Service]\nEnvironment=MODE=raw_logprobs\nExecStart=/usr/bin/vllm serve m {MASK} --logprobs-mode=$MODE --enable-scale-out\n",
            [("RPL201", "u.service", 3)],
            id="$VAR inside a word is passed as written",
        ),
        pytest.param(
            f"[Service]\nEnvironment=MODE=raw_logprobs\nExecStart=/usr/bin/vllm serve m {MASK} --logprobs-mode $MODE --enable-scale-out\n",
            [("RPL003", "u.service", 2)],
            id="$VAR as a word of its own",
        ),
        pytest.param(
            f"[Service]\nExecStart=/usr/bin/vllm serve m {MASK} --served-model-name 'a;b' --chat-template x|y "
            "--logprobs-mode processed_logprobs\n",
            [("RPL301", "u.service", 2)],
            id="; and | are no shell operators",
        ),
        pytest.param(
            f'[Service]\nExecStart=/usr/bin/vllm serve m {MASK} --logprobs-mode processed_logprobs --enable-scale-out --speculative-config \'{{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4, "rejection_sample_method": "synthetic"}}\'\n',
            [("RPL306", "u.service", 2)],
            id="quoted JSON",
        ),
        pytest.param(
            '[Service]\nEnvironment="VLLM_USE_V2_MODEL_RUNNER=0"\nExecStart=/usr/bin/' + SERVE + " --enable-scale-out\n",
            [("RPL206", "u.service", 2)],
            id="the runner variable in Environment=",
        ),
    ],
)
def test_systemd_exec_start(tmp_path: Path, unit: str, expected: list) -> None:
    assert findings(tmp_path, {"u.service": unit}) == expected


@pytest.mark.parametrize(
    "unit",
    [
        pytest.param(f"[Service]\nExecStart=/usr/bin/{SERVE} $EXTRA_ARGS\n", id="$VAR nothing sets: any words"),
        pytest.param(f"[Service]\nExecStart=/usr/bin/{SERVE} --port %i\n", id="a specifier: any words"),
        pytest.param(f"[Service]\nExecStart=/usr/bin/{SERVE}\nExecStart=\nExecStart=/usr/bin/{SERVE} --tokens-only\n", id="reset"),
        pytest.param(f"[Unit]\nDescription=x\nExecStart=/usr/bin/{SERVE}\n", id="not [Service]"),
        pytest.param(f"[Service]\n# ExecStart=/usr/bin/{SERVE}\nExecStart=/usr/bin/true\n", id="a comment"),
        pytest.param(f"[Service]\nExecStart=@/usr/bin/vllm vllm-policy {SERVE[5:]}\n", id="@: argv[0] is not read"),
    ],
)
def test_systemd_what_stays_silent(tmp_path: Path, unit: str) -> None:
    assert findings(tmp_path, {"u.service": unit}) == []


@pytest.mark.parametrize(("line", "open_"), [("EnvironmentFile=/etc/vllm/env\n", True), ("Environment=HF_HOME=/srv\n", False)])
def test_an_environment_file_opens_the_units_environment(line: str, open_: bool) -> None:
    unit = f"[Service]\n{line}ExecStart=/usr/bin/{SERVE}\n"
    (launch,) = command_lines.extract(SourceFile("u.service", unit), ExtractContext())
    assert launch.env_open is open_ and launch.get("return_sampling_mask") is not None


def test_the_fix_edits_the_unit_in_place_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    unit = f"[Service]\nExecStart=/usr/bin/vllm serve m \\\n    {MASK} \\\n    --logprobs-mode raw_logprobs\nRestart=always\n"
    (tmp_path / "u.service").write_text(unit)
    run(tmp_path, "check", "--no-cache", "--fix", "--unsafe-fixes", "u.service")
    fixed = (tmp_path / "u.service").read_text()
    assert "--logprobs-mode processed_logprobs" in fixed and "--enable-scale-out" in fixed and fixed.endswith("Restart=always\n")
    assert findings(tmp_path, {"u.service": fixed}) == []
    run(tmp_path, "check", "--no-cache", "--fix", "--unsafe-fixes", "u.service")
    assert (tmp_path / "u.service").read_text() == fixed


# -- Procfile ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("procfile", "expected"),
    [
        pytest.param(f"web: {SERVE} --port $PORT\nworker: python work.py\n", [("RPL301", "Procfile", 1)], id="$PORT is one word"),
        pytest.param(f'web: {SERVE} --port "${{PORT}}"\n', [("RPL301", "Procfile", 1)], id="quoted"),
        pytest.param(f"web: {SERVE} --port $HTTP_PORT\n", [], id="another variable: any words"),
        pytest.param(f"web: {SERVE} --enable-scale-out --port $PORT\n", [], id="scale-out"),
        pytest.param(
            f"policy: {SERVE} --enable-scale-out --speculative-config.method ngram --speculative-config.num_speculative_tokens 3 "
            "--speculative-config.prompt_lookup_max 4 --speculative-config.rejection_sample_method fly\n",
            [("RPL306", "Procfile", 1)],
            id="dotted speculative flags",
        ),
    ],
)
def test_procfile_processes(tmp_path: Path, procfile: str, expected: list) -> None:
    assert findings(tmp_path, {"Procfile": procfile}) == expected


# -- tox.ini -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tox", "expected"),
    [
        pytest.param(
            f"[testenv:serve]\ndeps = vllm\ncommands =\n    {SERVE} --enable-scale-out --override-generation-config.top_k 300000\n",
            [("RPL304", "tox.ini", 4)],
            id="dotted override",
        ),
        pytest.param(
            f"[testenv]\ncommands =\n    pytest\n    {{envpython}} -m vllm.entrypoints.openai.api_server --model m \\\n        {MASK}\n",
            [("RPL003", "tox.ini", 5), ("RPL301", "tox.ini", 5)],
            id="{envpython}, a continued command",
        ),
        pytest.param(
            f"[testenv]\nsetenv =\n    VLLM_USE_V2_MODEL_RUNNER = 0\ncommands = {SERVE} --enable-scale-out\n",
            [("RPL206", "tox.ini", 3)],
            id="setenv",
        ),
        pytest.param(f"[testenv]\ncommands = {SERVE} {{posargs}}\n", [], id="{posargs}: the caller's words"),
        pytest.param(
            f"[testenv]\ncommands = {SERVE} {{posargs:--enable-scale-out --port 9}}\n",
            [],
            id="{posargs:...} with a default of several words: the caller's words",
        ),
        pytest.param(
            f"[testenv]\ncommands =\n    pytest\n# the server, as CI starts it\n    {SERVE} --port 9\n",
            [("RPL301", "tox.ini", 5)],
            id="a comment line at column 0 inside commands: the value goes on",
        ),
        pytest.param(f"[tox]\nenvlist = py\n[flake8]\ncommands = {SERVE}\n", [], id="not a testenv"),
    ],
)
def test_tox_commands(tmp_path: Path, tox: str, expected: list) -> None:
    assert findings(tmp_path, {"tox.ini": tox}) == expected


# -- SLURM -------------------------------------------------------------------------------------


def test_srun_in_a_batch_script_is_a_launch_wrapper(tmp_path: Path) -> None:
    script = (
        f"#!/bin/bash\n#SBATCH --gpus=4\nsrun --ntasks=1 --gpus=4 vllm serve m \\\n    {MASK} \\\n    --logprobs-mode processed_logprobs\n"
    )
    assert findings(tmp_path, {"rollout.sbatch": script}) == [("RPL301", "rollout.sbatch", 4)]
    assert findings(tmp_path, {"rollout.slurm": script.replace("processed_logprobs", "processed_logprobs --tokens-only")}) == []


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("u.service", f"[Service]\nExecStart=/usr/bin/{SERVE}\n"),
        ("tox.ini", f"[testenv]\ncommands =\n    {SERVE}\n"),
    ],
)
def test_add_noqa_writes_a_comment_line_where_a_trailing_hash_would_be_a_word(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text)
    run(tmp_path, "check", "--no-cache", "--add-noqa", name)
    written = (tmp_path / name).read_text()
    assert "# replaylint: ignore[RPL301]\n" in written and text.splitlines()[-1] in written.splitlines()  # the command as it was
    assert findings(tmp_path, {name: written}) == []
