"""Precision of what round 8 of the held-out forks taught the fork readers (tests/test_forks_heldout8.py):
each test takes a round-8 tree, checks what it reports, and changes it so that the value may not
reach vLLM, or does, or reaches it another way: the finding then goes (or stays) as vLLM would have it.

NeMo-RL: a write to the engine dict in the method `_load_model` hands it to (`_create_engine`),
under a test of the recipe's `vllm_cfg` (the request's `top_k: null` stays where grpo_math_1B.yaml
writes it, the message naming the switch). OpenRLHF: a `create_vllm_engines` keyword
built by a function of train_ppo_ray.py from the parsed options and merged into the engine dict."""

from __future__ import annotations

from pathlib import Path

from forks_trees import materialize
from test_forks_heldout8 import CORPUS, NEMO_RECIPE
from test_forks_round2_readers import edit, findings
from test_forks_round7_readers import checked


def tree(case: str, tmp_path: Path) -> Path:
    root = materialize(CORPUS / case, tmp_path / case)
    (root / ".git").mkdir()
    return root


NEMO_CASE = "nemo_create_engine_mask_recipe_top_k_left_null"
NEMO_WORKER = "nemo_rl/models/generation/vllm/vllm_worker.py"
NEMO_LAUNCH = "run_replay.sh"
NEMO_TEST = '        if self.cfg["vllm_cfg"].get("sampling_replay", False):\n'
NEMO_WRITE = '            llm_kwargs["return_sampling_mask"] = True\n'
SWITCH = "      sampling_replay: true\n"
NEMO_DEFAULTS = "examples/configs/grpo_math_1B.yaml"
UNBOUNDED = {("RPL102", NEMO_DEFAULTS, 373)}  # grpo_math_1B.yaml's `top_k: null`, sent as -1


def test_nemo_create_engine_switch_on_in_the_recipe_turns_the_mask_on(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    (message,) = [item["message"] for item in checked("--no-cache", str(root))]
    assert "vllm_worker.py:819 sets" in message and "as `vllm_cfg.sampling_replay: true (loaded by run_replay.sh)` asks" in message
    assert findings(root) == UNBOUNDED
    edit(root / NEMO_RECIPE, "  generation:\n", "  generation:\n    top_k: 50\n")
    assert findings(root) == set()  # the recipe bounds top_k


def test_nemo_create_engine_switch_off_or_left_to_the_codes_default_is_clean(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, SWITCH, "      sampling_replay: false\n")
    assert findings(root) == set()
    edit(root / NEMO_RECIPE, "      sampling_replay: false\n", "")
    assert findings(root) == set()  # `.get("sampling_replay", False)`


def test_nemo_create_engine_switch_from_a_hydra_override(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, SWITCH, "")
    edit(
        root / NEMO_LAUNCH,
        "    cluster.num_nodes=1\n",
        "    cluster.num_nodes=1 \\\n    ++policy.generation.vllm_cfg.sampling_replay=true\n",
    )
    assert findings(root) == UNBOUNDED


def test_nemo_create_engine_switch_not_resolved_here_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, SWITCH, "      sampling_replay: ${oc.env:SAMPLING_REPLAY,false}\n")
    assert findings(root) == set()


def test_nemo_create_engine_test_not_of_the_recipe_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_WORKER, NEMO_TEST, '        if os.environ.get("SAMPLING_REPLAY") == "1":\n')
    assert findings(root) == set()


def test_nemo_create_engine_of_the_synchronous_worker_only_with_the_async_engine_is_open(tmp_path: Path) -> None:
    # async_engine: true starts VllmAsyncGenerationWorker, whose own `_create_engine` makes the engine.
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, SWITCH, SWITCH + "      async_engine: true\n")
    assert findings(root) == set()


def test_nemo_create_engine_other_spellings_of_the_test_and_the_write(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(
        root / NEMO_WORKER,
        NEMO_TEST + NEMO_WRITE,
        '        vllm_cfg = self.cfg["vllm_cfg"]\n        if vllm_cfg["sampling_replay"]:\n'
        "            llm_kwargs.update(return_sampling_mask=True)\n",
    )
    assert findings(root) == UNBOUNDED


def test_nemo_create_engine_write_without_a_test_is_the_forks_line(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_WORKER, NEMO_TEST + NEMO_WRITE, '        llm_kwargs["return_sampling_mask"] = True\n')
    assert findings(root) == UNBOUNDED


def test_nemo_recipes_own_top_k_null_is_reported_where_it_is_written(tmp_path: Path) -> None:
    root = tree(NEMO_CASE, tmp_path)
    edit(root / NEMO_RECIPE, "  generation:\n", "  generation:\n    top_k: null\n")
    assert findings(root) == {("RPL102", NEMO_RECIPE, 14)}


OPENRLHF_CASE = "openrlhf_extra_engine_kwargs_helper_launch_logits_processors"
OPENRLHF_LAUNCH = "train_grpo_replay_ray_hybrid_engine.sh"
OPENRLHF_CLI = "openrlhf/cli/train_ppo_ray.py"
OPENRLHF_ENGINES = "openrlhf/trainer/ray/vllm_engine.py"
PROCESSORS_FLAG = "   --vllm.logits_processors openrlhf_ext.think_budget:ThinkBudgetLogitsProcessor \\\n"
CORRECTION_FLAG = "   --algo.advantage.is_correction_enable \\\n"
HELPER_TEST = "    if args.vllm.logits_processors:\n"
AT_FLAG = {("RPL001", OPENRLHF_LAUNCH, 15)}


def test_openrlhf_helpers_engine_kwargs_reach_the_engine_with_the_launchs_flag(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    assert findings(root) == AT_FLAG
    edit(root / OPENRLHF_LAUNCH, PROCESSORS_FLAG, "")
    assert findings(root) == set()  # the option's default, None: no processors; the mask with processed logprobs


def test_openrlhf_helpers_mask_alone_is_read(tmp_path: Path) -> None:
    # Without the correction, vLLM's default raw_logprobs meets the mask the helper turns on, at its line.
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, PROCESSORS_FLAG, "")
    edit(root / OPENRLHF_LAUNCH, CORRECTION_FLAG, "")
    assert findings(root) == {("RPL003", OPENRLHF_CLI, 22)}


def test_openrlhf_helpers_flag_from_a_variable_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, PROCESSORS_FLAG, '   --vllm.logits_processors "${THINK_PROCESSORS}" \\\n')
    assert findings(root) == set()


def test_openrlhf_helper_with_its_own_parameter_name_or_a_literal_return(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_CLI, "def vllm_extra_engine_kwargs(args) -> dict:", "def vllm_extra_engine_kwargs(cfg) -> dict:")
    edit(root / OPENRLHF_CLI, HELPER_TEST, "    if cfg.vllm.logits_processors:\n")
    edit(root / OPENRLHF_CLI, '        extra["logits_processors"] = args.vllm.', '        extra["logits_processors"] = cfg.vllm.')
    assert findings(root) == AT_FLAG
    edit(
        root / OPENRLHF_CLI,
        '    extra = {"return_sampling_mask": True}\n'
        + HELPER_TEST.replace("args", "cfg")
        + '        extra["logits_processors"] = cfg.vllm.logits_processors\n    return extra\n',
        '    return {"return_sampling_mask": True, "logits_processors": cfg.vllm.logits_processors}\n',
    )
    assert findings(root) == AT_FLAG
    edit(root / OPENRLHF_LAUNCH, PROCESSORS_FLAG, "")
    assert findings(root) == set()  # `logits_processors=None`


def test_openrlhf_engine_dict_merges_the_keyword_without_or(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_ENGINES, "actor_kwargs.update(extra_engine_kwargs or {})", "actor_kwargs.update(extra_engine_kwargs)")
    assert findings(root) == AT_FLAG


def test_openrlhf_helpers_test_not_decided_here_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_CLI, HELPER_TEST, '    if args.vllm.logits_processors and os.environ.get("THINK_BUDGET"):\n')
    assert findings(root) == set()


def test_openrlhf_keyword_not_built_by_a_helper_keeps_the_launch_open(tmp_path: Path) -> None:
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_CLI, "extra_engine_kwargs=vllm_extra_engine_kwargs(args),", "extra_engine_kwargs=load_engine_kwargs(),")
    edit(root / OPENRLHF_LAUNCH, PROCESSORS_FLAG, "")
    edit(root / OPENRLHF_LAUNCH, CORRECTION_FLAG, "")
    assert findings(root) == set()  # what `load_engine_kwargs` returns is not read here


def test_openrlhf_helpers_value_from_a_name_of_its_own_keeps_the_key_open(tmp_path: Path) -> None:
    # `logprobs_mode=mode` from the helper's own variable is not read: no RPL003 on vLLM's default.
    root = tree(OPENRLHF_CASE, tmp_path)
    edit(root / OPENRLHF_LAUNCH, PROCESSORS_FLAG, "")
    edit(root / OPENRLHF_LAUNCH, CORRECTION_FLAG, "")
    edit(
        root / OPENRLHF_CLI,
        '    extra = {"return_sampling_mask": True}\n',
        '    mode = os.environ.get("REPLAY_LOGPROBS_MODE", "processed_logprobs")\n'
        '    extra = {"return_sampling_mask": True, "logprobs_mode": mode}\n',
    )
    assert findings(root) == set()
