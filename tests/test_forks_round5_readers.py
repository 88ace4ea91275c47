"""Precision of what round 5 of the held-out forks taught the fork readers (tests/test_forks_heldout5.py):
each test takes a round-5 tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way: the finding then goes (or stays, or moves) as vLLM
would have it."""

from __future__ import annotations

from pathlib import Path

from forks_trees import materialize
from test_forks_heldout5 import CORPUS, NEMO_RECIPE
from test_forks_round2_readers import edit, findings

NEMO_WORKER = "nemo_rl/models/generation/vllm/vllm_worker.py"
NEMO_SETDEFAULT = 'vllm_kwargs.setdefault("return_sampling_mask", True)'


def tree(case: str, tmp_path: Path) -> Path:
    root = materialize(CORPUS / case, tmp_path / case)
    (root / ".git").mkdir()
    return root


def test_a_setdefault_of_the_mask_gives_way_to_the_recipes_own_key(tmp_path: Path) -> None:
    root = tree("nemo_vllm_kwargs_setdefault_mask_top_k_null", tmp_path)
    assert findings(root) == {("RPL102", NEMO_RECIPE, 373)}
    edit(root / NEMO_RECIPE, "    vllm_kwargs: {}\n", "    vllm_kwargs:\n      return_sampling_mask: false\n")
    assert findings(root) == set()


def test_a_setdefault_gives_way_to_a_write_before_or_after_it(tmp_path: Path) -> None:
    root = tree("nemo_vllm_kwargs_setdefault_mask_top_k_null", tmp_path)
    edit(root / NEMO_WORKER, NEMO_SETDEFAULT, f'vllm_kwargs["return_sampling_mask"] = False\n        {NEMO_SETDEFAULT}')
    assert findings(root) == set()


def test_a_setdefault_under_a_condition_leaves_the_mask_unknown(tmp_path: Path) -> None:
    root = tree("nemo_vllm_kwargs_setdefault_mask_top_k_null", tmp_path)
    edit(root / NEMO_WORKER, NEMO_SETDEFAULT, f"if self.cfg.get('replay'):\n            {NEMO_SETDEFAULT}")
    assert findings(root) == set()
