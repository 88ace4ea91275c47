"""A script that runs another script file of the tree (forks round 14's last miss, issue 27): `bash run_base.sh
<overrides> "$@"`, `sh`, `exec bash "$(dirname "$0")/base.sh"`, `./base.sh`, `source`/`.`. The callee is read with the
caller's words as its `"$@"` (each found where the caller writes it) and the caller's exported variables, and its
launch is judged with them.

Precision: a callee checked alone is judged as written (its `"$@"` forwarded, as before); one that ignores its
arguments, a path the tree does not hold, one from outside (`"$BASE"`, an absolute path), one two folders could mean,
or another engine gives nothing; a variable the caller does not export does not reach the callee. A launch the callee
gives alone too (the caller's words change nothing replay reads) is reported once, by the callee's own check; a
caller's word that makes another finding is reported at that word.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import test_forks_heldout14 as round14
from forks_trees import findings, in_repository
from test_forks_round2_readers import edit

from replaylint.frontends import relevant

SHEBANG = "#!/usr/bin/env bash\n"
SERVE = "vllm serve Qwen/Qwen2.5-1.5B-Instruct --enable-scale-out --return-sampling-mask"
BASE = SHEBANG + SERVE + ' --logprobs-mode processed_logprobs "$@"\n'
RAW = "--logprobs-mode raw_logprobs"


def tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.mark.parametrize(
    ("wrapper", "line"),
    [
        (f'bash run_base.sh {RAW} "$@"\n', 2),
        ('sh "$(dirname "$0")/run_base.sh" \\\n    --logprobs-mode=raw_logprobs\n', 3),
        (f'set -e\nexec bash "${{BASH_SOURCE%/*}}/run_base.sh" {RAW} "$@"\n', 3),
        (f"./run_base.sh {RAW}\n", 2),
        (f'bash -x ./run_base.sh {RAW} "$@"\n', 2),
        (f"source run_base.sh {RAW}\n", 2),
        (f". ./run_base.sh {RAW}\n", 2),
        ('export MODE=raw_logprobs\nbash run_base.sh --logprobs-mode "$MODE"\n', 2),
    ],
    ids=["bash", "sh-dirname", "exec-bash-source", "dot-slash", "bash-x", "source", "dot", "variable"],
)
def test_wrapper_words_reach_the_callee_launch(tmp_path: Path, wrapper: str, line: int) -> None:
    root = tree(tmp_path, {"run_base.sh": BASE, "run_replay.sh": SHEBANG + wrapper})
    assert findings(root) == {("RPL003", "run_replay.sh", line)}
    assert findings(root, root / "run_replay.sh") == {("RPL003", "run_replay.sh", line)}  # the wrapper named alone
    assert findings(root, root / "run_base.sh") == set()  # the callee alone: its "$@" forwarded, judged as written


def test_script_folder_variable_and_a_callee_in_another_folder(tmp_path: Path) -> None:
    wrapper = 'SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)\nMODE=raw_logprobs\nbash "$SCRIPT_DIR/../run_base.sh" --logprobs-mode "$MODE"\n'
    root = tree(tmp_path, {"run_base.sh": BASE, "examples/run_replay.sh": SHEBANG + wrapper})
    assert findings(root) == {("RPL003", "examples/run_replay.sh", 3)}


def test_working_folder_path_from_the_tree_root(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {"examples/grpo/run_base.sh": BASE, "examples/grpo/run_replay.sh": SHEBANG + f'bash examples/grpo/run_base.sh {RAW} "$@"\n'},
    )
    assert findings(root) == {("RPL003", "examples/grpo/run_replay.sh", 2)}


@pytest.mark.parametrize(
    ("word", "where"),
    [
        ('"$MODE"', ("run_replay.sh", 2)),  # the value's own line: the caller's export
        # a default spelt in the word: at the word, as in one file (`export MODE=...` before `"${MODE:-...}"`)
        ('"${MODE:-processed_logprobs}"', ("run_base.sh", 2)),
    ],
    ids=["plain", "with-default"],
)
def test_exported_variable_reaches_the_callee(tmp_path: Path, word: str, where: tuple[str, int]) -> None:
    base = SHEBANG + SERVE + f" --logprobs-mode {word}\n"
    root = tree(tmp_path, {"run_base.sh": base, "run_replay.sh": SHEBANG + "export MODE=raw_logprobs\nbash run_base.sh\n"})
    assert findings(root) == {("RPL003", *where)}
    assert findings(root, root / "run_base.sh") == set()


def test_unexported_variable_does_not_reach_the_callee(tmp_path: Path) -> None:
    base = SHEBANG + SERVE + ' --logprobs-mode "${MODE:-processed_logprobs}"\n'
    root = tree(tmp_path, {"run_base.sh": base, "run_replay.sh": SHEBANG + "MODE=raw_logprobs\nbash run_base.sh  # sampling_mask\n"})
    assert findings(root) == set()


def test_chain_of_wrappers(tmp_path: Path) -> None:
    files = {
        "run_base.sh": BASE,
        "run_mid.sh": SHEBANG + 'bash run_base.sh --seed 1 "$@"\n',
        "run_replay.sh": SHEBANG + f"bash run_mid.sh {RAW}\n",
    }
    assert findings(tree(tmp_path, files)) == {("RPL003", "run_replay.sh", 2)}


def test_cycle_is_read_once(tmp_path: Path) -> None:
    files = {
        "a.sh": SHEBANG + f'bash b.sh {RAW} "$@"\n',
        "b.sh": SHEBANG + 'if [ -n "$AGAIN" ]; then bash a.sh "$@"; fi\n' + SERVE + ' --logprobs-mode processed_logprobs "$@"\n',
    }
    assert findings(tree(tmp_path, files)) == {("RPL003", "a.sh", 2)}


@pytest.mark.parametrize(
    ("files", "wrapper"),
    [
        ({"run_base.sh": SHEBANG + SERVE + " --logprobs-mode processed_logprobs\n"}, f"bash run_base.sh {RAW}\n"),
        ({}, f"bash run_base.sh {RAW}  # sampling_mask\n"),
        ({"run_base.sh": BASE}, f'bash "$BASE_SCRIPT" {RAW}  # run_base.sh\n'),
        ({"run_base.sh": BASE}, f"bash /opt/recipes/run_base.sh {RAW}\n"),
        ({"run_base.sh": BASE}, f"bash -s {RAW} < run_base.sh\n"),
        ({"run_base.sh": SHEBANG + 'python -m sglang.launch_server --model-path m "$@"  # sampling_mask\n'}, f"bash run_base.sh {RAW}\n"),
        ({"run_base.sh": BASE, "sub/run_base.sh": SHEBANG + SERVE + " --logprobs-mode processed_logprobs\n"}, f"bash run_base.sh {RAW}\n"),
    ],
    ids=["callee-ignores-arguments", "no-such-file", "path-from-outside", "outside-the-tree", "stdin", "another-engine", "two-folders"],
)
def test_callee_not_followed_or_not_reached_stays_silent(tmp_path: Path, files: dict[str, str], wrapper: str) -> None:
    folder = "sub/" if "sub/run_base.sh" in files else ""
    root = tree(tmp_path, {**files, f"{folder}run_replay.sh": SHEBANG + wrapper})
    assert findings(root) == set()


def test_callee_finding_reported_once(tmp_path: Path) -> None:
    base = SHEBANG + SERVE + f' {RAW} "$@"\n'
    root = tree(tmp_path, {"run_base.sh": base, "run_replay.sh": SHEBANG + "bash run_base.sh --port 8001 --seed 3  # sampling_mask\n"})
    assert findings(root) == {("RPL003", "run_base.sh", 2)}


def test_caller_word_that_makes_its_own_finding(tmp_path: Path) -> None:
    base = SHEBANG + SERVE + f' {RAW} "$@"\n'
    root = tree(tmp_path, {"run_base.sh": base, "run_replay.sh": SHEBANG + f"bash run_base.sh {RAW}\n"})
    assert findings(root) == {("RPL003", "run_base.sh", 2), ("RPL003", "run_replay.sh", 2)}


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (b'bash run_base.sh --seed 1 "$@"\n', True),
        (b'exec sh "$(dirname "$0")/run_base.sh"\n', True),
        (b"source ./env_setup.sh\n", True),
        (b"./scripts/run_base.sh\n", True),
        (b"echo run_base.sh\n", False),
        (b"cp run_base.sh run_base.sh.bak\n", False),
        (b"# Usage: ./ci_clean_log.sh ci.log\n", False),  # vLLM's .buildkite/scripts/ci-clean-log.sh: a comment runs nothing
        (b"  # bash run_base.sh\n./run_base.sh\n", True),
    ],
)
def test_prefilter_keeps_a_script_that_runs_a_script_file(text: bytes, kept: bool) -> None:
    assert relevant("shell", b"#!/usr/bin/env bash\n" + text) is kept
    assert relevant("shell", b"#!/usr/bin/env bash\n" + text, wrappers=False) is False


VERL_CASE = "verl_server_init_env_mask_wrapper_raw_logprobs"
VERL_WRAPPER = "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh"
VERL_CALL = "bash examples/grpo_trainer/run_qwen2_5-3b_gsm8k_base.sh \\\n"


@pytest.mark.parametrize(
    ("call", "export", "expected"),
    [
        (VERL_CALL, "export VERL_RETURN_SAMPLING_MASK=1\n", {("RPL003", VERL_WRAPPER, 7)}),
        ('bash "$(dirname "$0")/run_qwen2_5-3b_gsm8k_base.sh" \\\n', "export VERL_RETURN_SAMPLING_MASK=1\n", {("RPL003", VERL_WRAPPER, 7)}),
        (
            "source examples/grpo_trainer/run_qwen2_5-3b_gsm8k_base.sh \\\n",
            "export VERL_RETURN_SAMPLING_MASK=1\n",
            {("RPL003", VERL_WRAPPER, 7)},
        ),
        (VERL_CALL, "VERL_RETURN_SAMPLING_MASK=1\n", set()),  # not exported: the server's test is not met
        (VERL_CALL, 'export VERL_RETURN_SAMPLING_MASK="$MASK"\n', set()),  # from outside
    ],
    ids=["case", "dirname", "source", "not-exported", "from-outside"],
)
def test_verl_wrapper(tmp_path: Path, call: str, export: str, expected: set) -> None:
    root = in_repository(round14.CORPUS / VERL_CASE, tmp_path / VERL_CASE)
    edit(root / VERL_WRAPPER, VERL_CALL, call)
    edit(root / VERL_WRAPPER, "export VERL_RETURN_SAMPLING_MASK=1\n", export)
    assert findings(root) == expected
