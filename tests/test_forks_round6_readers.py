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
