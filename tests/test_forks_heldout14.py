"""Held-out fork edits, round 14 (issue 27, "the tree is the framework").

Twelve fork trees of tests/data/forks_heldout14/, each a framework's upstream files (tests/data/forks_base/:
volcengine/verl @ b178a3c, NovaSky-AI/SkyRL @ a956457, OpenRLHF/OpenRLHF @ 3c3be62 with its
samples_generator.py and train_ppo_ray.py, NVIDIA-NeMo/RL @ 7ea279a with examples/run_grpo.py,
allenai/open-instruct @ e6c3044, PrimeIntellect-ai/prime-rl @ 559b447) with the edit a user makes in a fork to
turn replay on (`edits.patch`) and the launch the framework's examples use. Six of the twelve are clean.
Forms: verl's vLLMHttpServer.__init__ reading VERL_RETURN_SAMPLING_MASK into the server args, run through a wrapper
(`bash run_base.sh <overrides> "$@"`) whose override sets logprobs_mode=raw_logprobs; verl's `args.update(...)` after
`**engine_kwargs` replacing a launch's `+engine_kwargs.vllm.logprobs_mode=raw_logprobs` (clean); SkyRL's env-selected
helper `_sampling_replay_overrides()` with the launch's speculative_config Hydra dict literal holding
enable_adaptive_verification; SkyRL's typed `InferenceEngineConfig.sampling_replay` with a raw_logprobs branch in
get_pd_cli_args that the launch does not run (clean); OpenRLHF's fork flags `--vllm.return_sampling_mask` and
`--rollout.top_k` threaded into create_vllm_engines and the generate kwargs (clean), and the mask from a `ray job
submit --runtime-env-json` variable read in LLMRayActor.__init__ with OpenRLHF's own request default top_k -1;
NeMo-RL's new vllm_cfg key with a recipe speculative_config of 0 tokens that the worker drops (clean), and
NRL_SAMPLING_REPLAY in the worker with the launch's `policy.generation.top_k=-1`; open-instruct's request code
(`completions.create` extra_body) given top_k from an env var forwarded through the actors' runtime_env (clean), and
given `"top_k": -1` with the mask in `.remote(...)`; prime-rl's typed InferenceConfig.sampling_replay with the V1 pin
kept only without it, launched through a wrapper `uv run rl @ rl_replay.toml "$@"` (clean), and an env-selected mask
with the pin popped and a pass-through `[inference.vllm] speculative_config` with adaptive verification.

Blindness: the cases and `EXPECTED` were written from the frameworks' source and vLLM 0.34.0's rules
(config/vllm.py, v1/engine/input_processor.py:180-190, docs/rules/) before replaylint was run on any of them,
without reading its implementation (src/replaylint/) or the earlier rounds' case patches and READMEs. Every engine's
arguments were judged by vLLM 0.34.0 (tests/differential/vllm_judge.py, tests/data/forks_heldout14/judge-cases.jsonl
and judge-results.jsonl); each case's README gives them and the verdict. A finding sits on the line that decides:
the written conflicting value's own line; when a framework default is what conflicts (OpenRLHF's top_k -1), the
line that turns the mask on (the fork's `kwargs["return_sampling_mask"] = True`).

First run (the lead, on the integration branch merge-s42 at 4436c20, after forks round 13's fixes): 8 of 12 trees as
expected (67%); of 6 expected findings 2 exact, 4 missed (PENDING): all four turn the mask on from an environment
variable the fork's server, worker or actor reads, set by the launch; 0 false findings; 6 of 6 clean trees clean.

After the SkyRL, NeMo-RL and verl fixes (h-fxfkA, tests/test_forks_round14_readers.py): the SkyRL and NeMo-RL cases
pass. verl's server `__init__` read of VERL_RETURN_SAMPLING_MASK is now followed, but its case stays PENDING: the
raw_logprobs override reaches the launch through a wrapper that runs another script file, which the shell reader does
not follow.
After the OpenRLHF fix (h-fxfkB, tests/test_forks_round15_readers.py): the actor's environment test is decided by the
Ray job's runtime env; the case's expectation moved to no finding: its launch passes `--train.save_path`, which
neither the tree's train_ppo_ray.py nor any OpenRLHF release has, so argparse stops the job before any engine starts
(with `--ckpt.output_dir` the tree gives RPL102 at the runtime env's word; see the case's README). 11 of 12 after.
After the wrapper-script fix (h-fxP2, tests/test_shell_round14_wrapper_scripts.py): the shell reader follows a script
that runs another script file of the tree with its words and exports, and the verl case passes. 12 of 12.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from forks_trees import assert_case_findings, assert_cases_are_the_folders, assert_each_case_imitates_and_edits_its_base, held_out

CORPUS = Path(__file__).parent / "data" / "forks_heldout14"

EXPECTED: dict[str, set[tuple[str, str, int]]] = {
    "verl_server_init_env_mask_wrapper_raw_logprobs": {("RPL003", "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh", 7)},
    "verl_env_mask_update_replaces_engine_kwargs_raw_logprobs_clean": set(),
    "skyrl_env_helper_overrides_launch_adaptive_speculative": {("RPL002", "examples/train/gsm8k/run_gsm8k_replay_ngram.sh", 23)},
    "skyrl_config_field_mask_pd_branch_raw_logprobs_untaken_clean": set(),
    "openrlhf_mask_flag_rollout_top_k_flag_into_sampling_params_clean": set(),
    # Clean, not RPL102 at vllm_engine.py:63 as first written (fixes of s42): the launch passes `--train.save_path`,
    # which OpenRLHF's parser (the tree's train_ppo_ray.py, and every release's) does not have, so
    # `parser.parse_args()` stops the job ("unrecognized arguments") before any engine starts. With a launch
    # the parser takes, the finding sits at the runtime env's `"OPENRLHF_SAMPLING_REPLAY": "1"` (the word that
    # turns the fork's switch on, as round 7's export): tests/test_forks_round15_readers.py.
    "openrlhf_actor_init_runtime_env_mask_rollout_top_k_default": set(),
    "nemo_yaml_mask_key_recipe_speculative_zero_tokens_dropped_clean": set(),
    "nemo_env_mask_in_worker_launch_top_k_minus_one": {("RPL102", "examples/run_grpo_math_replay.sh", 10)},
    "oi_env_mask_runtime_env_request_extra_body_top_k_env_clean": set(),
    "oi_remote_mask_request_extra_body_top_k_minus_one": {("RPL102", "open_instruct/vllm_utils.py", 1018)},
    "prime_config_field_mask_pin_skipped_toml_top_k_clean": set(),
    "prime_env_mask_pin_popped_toml_adaptive_speculative": {("RPL002", "examples/reverse_text/rl_replay_ngram.toml", 26)},
}

PENDING: dict[str, str] = {}


def test_every_folder_is_a_case_and_five_are_clean() -> None:
    assert_cases_are_the_folders(CORPUS, EXPECTED)


def test_every_case_says_what_it_imitates_and_edits_its_base() -> None:
    assert_each_case_imitates_and_edits_its_base(CORPUS, EXPECTED)


@pytest.mark.parametrize("case", held_out(EXPECTED, PENDING))
def test_case_findings(case: str, tmp_path: Path) -> None:
    assert_case_findings(CORPUS, EXPECTED, case, tmp_path)
