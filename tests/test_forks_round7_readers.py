"""Precision of what round 7 of the held-out forks taught the fork readers (tests/test_forks_heldout7.py):
each test takes a round-7 tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way: the finding then goes (or stays) as vLLM would have it."""

from __future__ import annotations

from pathlib import Path

from forks_trees import materialize
from test_forks_heldout7 import CORPUS
from test_forks_round2_readers import edit, findings

SKYRL_CASE = "skyrl_flag_field_mask_sets_logprobs_mode_no_eval_clean"
SKYRL_LAUNCH = "run_gsm8k_replay.sh"
SKYRL_UTILS = "skyrl/backends/skyrl_train/inference_servers/utils.py"
EVAL_OFF = "  trainer.eval_interval=-1 \\\n"
GREEDY_EVAL = {("RPL101", SKYRL_UTILS, 158), ("RPL102", SKYRL_UTILS, 158)}


def tree(case: str, tmp_path: Path) -> Path:
    root = materialize(CORPUS / case, tmp_path / case)
    (root / ".git").mkdir()
    return root


def test_skyrl_sends_no_eval_request_with_evaluation_off(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    assert findings(root) == set()
    edit(root / SKYRL_LAUNCH, EVAL_OFF, "  trainer.eval_interval=0 \\\n")
    assert findings(root) == set()  # `eval_interval > 0` is SkyRL's test


def test_skyrl_evaluates_at_its_default_interval(tmp_path: Path) -> None:
    # Without the override, `eval_interval: int = 5`: the greedy `eval_sampling_params` default is sent.
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, EVAL_OFF, "")
    assert findings(root) == GREEDY_EVAL


def test_skyrl_evaluates_with_a_positive_interval_even_without_eval_before_train(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, EVAL_OFF, "  trainer.eval_interval=10 \\\n")
    assert findings(root) == GREEDY_EVAL


def test_skyrl_eval_interval_from_a_variable_keeps_the_eval_requests(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, EVAL_OFF, '  trainer.eval_interval="${EVAL_EVERY}" \\\n')
    assert findings(root) == GREEDY_EVAL


def test_skyrl_eval_off_keeps_the_train_requests_judged(tmp_path: Path) -> None:
    root = tree(SKYRL_CASE, tmp_path)
    edit(root / SKYRL_LAUNCH, "  generator.sampling_params.top_k=20 \\\n", "")
    assert {code for code, _, _ in findings(root)} == {"RPL102"}  # the train requests' default top_k -1
