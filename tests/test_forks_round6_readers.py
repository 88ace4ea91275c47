"""Precision of what round 6 of the held-out forks taught the fork readers (tests/test_forks_heldout6.py):
each test takes a round-6 tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way: the finding then goes (or stays) as vLLM would have it."""

from __future__ import annotations

from pathlib import Path

from forks_trees import materialize
from test_forks_heldout6 import CORPUS
from test_forks_round2_readers import edit, findings

NEMO_WORKER = "nemo_rl/models/generation/vllm/vllm_worker.py"
NEMO_RECIPE = "examples/configs/grpo_math_1B.yaml"
NEMO_CASE = "nemo_vllm_cfg_mask_key_recipe_top_k_null"
NEMO_READ = 'self.cfg["vllm_cfg"].get("return_sampling_mask", False)'
RECIPE_MASK = "      return_sampling_mask: true\n"


def tree(case: str, tmp_path: Path) -> Path:
    root = materialize(CORPUS / case, tmp_path / case)
    (root / ".git").mkdir()
    return root


def test_a_worker_keyword_reading_vllm_cfg_takes_the_recipes_value(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    assert findings(root) == {("RPL102", NEMO_RECIPE, 373)}
    edit(root / NEMO_RECIPE, RECIPE_MASK, "      return_sampling_mask: false\n")
    assert findings(root) == set()


def test_without_the_recipes_key_the_workers_default_decides(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, RECIPE_MASK, "")
    assert findings(root) == set()  # `.get("return_sampling_mask", False)`: off
    edit(root / NEMO_WORKER, NEMO_READ, NEMO_READ.replace("False", "True"))
    assert findings(root) == {("RPL102", NEMO_RECIPE, 373)}  # the worker's own default turns it on


def test_a_read_without_a_default_and_without_the_recipes_key_leaves_the_mask_open(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, RECIPE_MASK, "")
    edit(root / NEMO_WORKER, NEMO_READ, 'self.cfg["vllm_cfg"].get("return_sampling_mask", self.replay)')
    assert findings(root) == set()


def test_vllm_cfg_read_through_a_local_name_is_the_recipes_key(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_WORKER, "        llm_kwargs = dict(\n", '        vllm_cfg = self.cfg["vllm_cfg"]\n        llm_kwargs = dict(\n')
    edit(root / NEMO_WORKER, NEMO_READ, 'vllm_cfg["return_sampling_mask"]')
    assert findings(root) == {("RPL102", NEMO_RECIPE, 373)}
    edit(root / NEMO_RECIPE, RECIPE_MASK, "      return_sampling_mask: false\n")
    assert findings(root) == set()


def test_a_key_read_from_another_section_is_not_vllm_cfgs(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_WORKER, NEMO_READ, 'self.cfg["colocated"].get("return_sampling_mask", False)')
    assert findings(root) == set()


PRIME_CASE = "prime_namespace_mask_runner_setdefault_kept"
PRIME_ORCHESTRATOR = "packages/prime-rl-configs/src/prime_rl/configs/orchestrator.py"
PRIME_INFERENCE = "packages/prime-rl-configs/src/prime_rl/configs/inference.py"
PRIME_SERVER = "src/prime_rl/inference/server.py"
PRIME_EXTRA_BODY = 'args["extra_body"] = {"top_k": self.top_k, **self.extra_body}'


def test_prime_rl_extra_body_spread_after_the_forks_top_k_sends_prime_rls_minus_one(tmp_path: Path) -> None:
    # `resolve_env_config` sets `extra_body.setdefault("top_k", -1)` for policy-sourced envs, and the
    # spread after the fork's entry wins: every train request sends top_k=-1 (refused by vLLM 0.34.0).
    root = tree(PRIME_CASE, tmp_path)
    assert findings(root) == {("RPL206", PRIME_SERVER, 17), ("RPL102", PRIME_INFERENCE, 616)}


def test_prime_rl_top_k_entry_after_the_spread_is_what_is_sent(tmp_path: Path) -> None:
    root = tree(PRIME_CASE, tmp_path)
    edit(root / PRIME_ORCHESTRATOR, PRIME_EXTRA_BODY, 'args["extra_body"] = {**self.extra_body, "top_k": self.top_k}')
    assert findings(root) == {("RPL206", PRIME_SERVER, 17)}  # the field's default 64: bounded
    edit(root / PRIME_ORCHESTRATOR, '"top_k": self.top_k}', '"top_k": -1}')
    assert findings(root) == {("RPL206", PRIME_SERVER, 17), ("RPL102", PRIME_INFERENCE, 616)}  # unbounded again


def test_prime_rl_extra_body_without_top_k_leaves_it_to_the_server(tmp_path: Path) -> None:
    root = tree(PRIME_CASE, tmp_path)
    edit(root / PRIME_ORCHESTRATOR, PRIME_EXTRA_BODY, 'args["extra_body"] = {"min_p": 0.0}')
    assert findings(root) == {("RPL206", PRIME_SERVER, 17)}
