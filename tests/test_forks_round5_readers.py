"""Precision of what round 5 of the held-out forks taught the fork readers (tests/test_forks_heldout5.py):
each test takes a round-5 tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way: the finding then goes (or stays, or moves) as vLLM
would have it."""

from __future__ import annotations

from pathlib import Path

from forks_trees import materialize
from test_forks_heldout5 import CORPUS, NEMO_RECIPE, OI_UTILS, SKYRL_CONFIG, SKYRL_UTILS, VERL_SERVER
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


SKYRL_LAUNCH = "examples/train/gsm8k/run_gsm8k.sh"
SKYRL_LAST_WORD = "  generator.inference_engine.gpu_memory_utilization=0.8 \\\n"
SKYRL_SPREAD = "        **get_config_as_dict(ie_cfg.engine_init_kwargs),\n"


def launch_writes(root: Path, override: str) -> None:
    edit(root / SKYRL_LAUNCH, SKYRL_LAST_WORD, f"{SKYRL_LAST_WORD}  {override} \\\n")


def test_a_key_before_the_pass_through_spread_gives_way_to_the_launchs(tmp_path: Path) -> None:
    root = tree("skyrl_engine_kwargs_spread_mask_default_requests", tmp_path)
    assert findings(root) == {("RPL101", SKYRL_UTILS, 159), ("RPL102", SKYRL_UTILS, 159)}
    launch_writes(root, "generator.inference_engine.engine_init_kwargs.return_sampling_mask=false")
    assert findings(root) == set()


def test_a_key_after_the_pass_through_spread_wins_over_the_launchs(tmp_path: Path) -> None:
    root = tree("skyrl_engine_kwargs_spread_mask_default_requests", tmp_path)
    edit(root / SKYRL_UTILS, '        "return_sampling_mask": True,\n', "")
    edit(root / SKYRL_UTILS, SKYRL_SPREAD, SKYRL_SPREAD + '        "return_sampling_mask": True,\n')
    launch_writes(root, "generator.inference_engine.engine_init_kwargs.return_sampling_mask=false")
    assert findings(root) == {("RPL101", SKYRL_UTILS, 161), ("RPL102", SKYRL_UTILS, 161)}


def test_a_spread_of_another_dict_leaves_the_copied_keys_open(tmp_path: Path) -> None:
    root = tree("skyrl_engine_kwargs_spread_mask_default_requests", tmp_path)
    edit(root / SKYRL_UTILS, SKYRL_SPREAD, SKYRL_SPREAD + "        **_replay_overrides(cfg),\n")
    assert findings(root) == set()


def test_a_typed_mask_field_is_the_launchs_value_else_its_default(tmp_path: Path) -> None:
    root = tree("skyrl_config_field_mask_vllm_default_logprobs_mode", tmp_path)
    assert findings(root) == {("RPL003", SKYRL_CONFIG, 1145)}
    launch_writes(root, "generator.inference_engine.return_sampling_mask=false")
    assert findings(root) == set()


def test_a_typed_mask_field_the_launch_turns_on_is_reported_at_the_launch(tmp_path: Path) -> None:
    root = tree("skyrl_config_field_mask_vllm_default_logprobs_mode", tmp_path)
    edit(root / SKYRL_CONFIG, "    return_sampling_mask: bool = True\n", "    return_sampling_mask: bool = False\n")
    assert findings(root) == set()
    launch_writes(root, "generator.inference_engine.return_sampling_mask=true")
    assert {(code, path) for code, path, _ in findings(root)} == {("RPL003", SKYRL_LAUNCH)}


def test_a_typed_field_whose_default_is_not_read_here_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree("skyrl_config_field_mask_vllm_default_logprobs_mode", tmp_path)
    edit(
        root / SKYRL_CONFIG, "    return_sampling_mask: bool = True\n", '    return_sampling_mask: bool = os.environ.get("REPLAY") == "1"\n'
    )
    assert findings(root) == set()


def line_of(path: Path, text: str) -> int:
    lines = path.read_text().splitlines()
    assert sum(text in line for line in lines) == 1, text
    return next(number for number, line in enumerate(lines, 1) if text in line)


ADAPTIVE = '"enable_adaptive_verification": True,'


def test_a_dict_the_verl_server_writes_is_judged_at_the_key_that_decides(tmp_path: Path) -> None:
    root = tree("verl_ngram_speculative_adaptive_verification", tmp_path)
    assert findings(root) == {("RPL002", VERL_SERVER, 315)}
    edit(root / VERL_SERVER, ADAPTIVE, '"enable_adaptive_verification": False,')
    assert findings(root) == set()


def test_a_dict_keyword_of_the_open_instruct_actor_is_judged_at_the_key_that_decides(tmp_path: Path) -> None:
    root = tree("oi_remote_ngram_adaptive_verification", tmp_path)
    assert findings(root) == {("RPL002", OI_UTILS, 1292)}
    edit(root / OI_UTILS, ADAPTIVE, '"enable_adaptive_verification": False,')
    assert findings(root) == set()


def test_a_dict_the_nemo_worker_writes_is_judged_at_the_key_that_decides(tmp_path: Path) -> None:
    root = tree("nemo_vllm_kwargs_setdefault_mask_recipe_top_k_clean", tmp_path)
    assert findings(root) == set()
    speculative = (
        'vllm_kwargs["speculative_config"] = {\n            "method": "ngram",\n            "num_speculative_tokens": 4,\n'
        f'            "prompt_lookup_max": 4,\n            {ADAPTIVE}\n        }}'
    )
    edit(root / NEMO_WORKER, NEMO_SETDEFAULT, f"{NEMO_SETDEFAULT}\n        {speculative}")
    assert findings(root) == {("RPL002", NEMO_WORKER, line_of(root / NEMO_WORKER, ADAPTIVE))}
