"""vLLM's verdict on NeMo-RL, open-instruct and prime-rl forks: `python scripts/forks_judge.py [--release X.Y.Z] [--vllm-path DIR]`.

Each case is a trimmed real tree of tests/data/forks/ with the edit a user makes to turn replay on
(the edits of tests/test_forks_nemo_open_instruct.py, and a few more; prime-rl's trees are the
folders of tests/data/forks/prime_rl/, a base and a patch each, tests/test_forks_prime_rl.py; and the
NeMo-RL, open-instruct and prime-rl trees of held-out rounds 2 and 3, tests/data/forks_heldout2/ and
forks_heldout3/, the trees with a launch of rounds 8 and 9, all twelve trees of rounds 10 to 18, the eleven of round 19 it reads, and round 21's prime-rl trees). replaylint checks the
launch that runs the fork (NeMo-RL's default config, open-instruct's `grpo_fast.py` script,
prime-rl's rl.toml) and
builds its engine from the fork's own code; vLLM itself (tests/differential/vllm_judge.py in the
judge's virtualenv) then builds that engine, `LLM(**kwargs)` on a stand-in model with the
environment replaylint found. vLLM's refusal must be among replaylint's errors in its own words,
and an engine vLLM accepts must leave the launch without errors (request rules aside: vLLM
checks requests when they are sent, not here). Exit 1 on a disagreement.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import test_forks_nemo_open_instruct as forks  # noqa: E402
from forks_trees import materialize  # noqa: E402

from scripts.realworld import judge_release  # noqa: E402
from tests.differential.oracle import compare, expect  # noqa: E402
from tests.realworld import harness, stand_in  # noqa: E402

ENV_WRITE = (
    '        os.environ["VLLM_USE_V1"] = "1"\n',
    '        os.environ["VLLM_USE_V1"] = "1"\n        os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\n',
)
UPDATE_RAW = (
    "        self._create_engine(llm_kwargs)\n",
    '        llm_kwargs.update(return_sampling_mask=True, logprobs_mode="raw_logprobs")\n        self._create_engine(llm_kwargs)\n',
)
ACTOR_MASK = (
    '        kwargs["generation_config"] = "vllm"\n',
    '        kwargs["generation_config"] = "vllm"\n        kwargs["return_sampling_mask"] = True\n',
)
NO_MODE = ('                logprobs_mode="processed_logprobs",\n', "")
PROCESSOR = (
    '                logprobs_mode="processed_logprobs",\n',
    '                logprobs_mode="processed_logprobs",\n                return_sampling_mask=True,\n'
    '                logits_processors=["my_fork.processors.ClampProcessor"],\n',
)
ADAPTIVE = (
    '                logprobs_mode="processed_logprobs",\n',
    '                logprobs_mode="processed_logprobs",\n                return_sampling_mask=True,\n'
    '                speculative_config={"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4,'
    ' "enable_adaptive_verification": True},\n',
)


def _held_out(round_number: int, cases: tuple[tuple[str, str], ...]) -> dict[str, tuple[str, dict[str, str]]]:
    """A held-out round's trees (tests/data/forks_heldoutN/), each with the launch it runs."""
    return {f"round {round_number}: {case}": (f"heldout{round_number}", {"tree": case, "launch": launch}) for case, launch in cases}


CASES = {  # name -> (framework, edits)
    "nemo_rl unmodified": ("nemo_rl", {}),
    "nemo_rl mask in llm_kwargs": ("nemo_rl", {"worker": forks.MASK_KEYWORD, "config": forks.TOP_K}),
    "nemo_rl setdefault V2=0": ("nemo_rl", {"worker": [forks.MASK_KEYWORD, ENV_WRITE], "config": forks.TOP_K}),
    "nemo_rl update raw_logprobs": ("nemo_rl", {"worker": UPDATE_RAW, "config": forks.TOP_K}),
    "open_instruct unmodified": ("open_instruct", {}),
    "open_instruct mask in .remote": ("open_instruct", {"engines": [forks.REMOTE_MASK, forks.EXTRA_TOP_K]}),
    "open_instruct actor mask, no mode": ("open_instruct", {"engines": [NO_MODE, ACTOR_MASK, forks.EXTRA_TOP_K]}),
    "open_instruct logits processor": ("open_instruct", {"engines": [PROCESSOR, forks.EXTRA_TOP_K]}),
    "open_instruct adaptive verification": ("open_instruct", {"engines": [ADAPTIVE, forks.EXTRA_TOP_K]}),
    "prime_rl unmodified (setdefault V2=0)": ("prime_rl", {"tree": "upstream"}),
    "prime_rl env_vars V2=1 over setdefault": ("prime_rl", {"tree": "upstream_env_vars_v2"}),
    "prime_rl runner line removed": ("prime_rl", {"tree": "runner_removed"}),
    "prime_rl to_namespace raw_logprobs": ("prime_rl", {"tree": "logprobs_raw"}),
    **_held_out(  # held-out round 2 (tests/test_forks_heldout2.py): the trees, with the launch each runs
        2,
        (
            ("nemo_llm_kwargs_subscript_mask_clean", forks.CONFIG),
            ("nemo_default_yaml_vllm_kwargs_mask_top_k_null", forks.CONFIG),
            ("nemo_subscript_mask_logprobs_mode_dropped", forks.CONFIG),
            ("oi_engine_kwargs_mask_no_top_k", "scripts/train/qwen/grpo_replay.sh"),
            ("oi_engine_kwargs_mask_extra_body_top_k_clean", "scripts/train/qwen/grpo_replay.sh"),
            ("oi_actor_environ_runner_v1", "scripts/train/qwen/grpo_replay.sh"),
            ("prime_own_inference_key_no_top_k", "configs/replay/rl.toml"),
            ("prime_orchestrator_top_k_default_clean", "configs/replay/rl.toml"),
            ("prime_orchestrator_temperature_zero", "configs/replay/rl.toml"),
        ),
    ),
    **_held_out(  # held-out round 3 (tests/test_forks_heldout3.py)
        3,
        (
            ("nemo_module_constant_mask_top_k_null", forks.CONFIG),
            ("nemo_sampling_builder_top_k_clean", forks.CONFIG),
            ("oi_engine_args_attribute_mask_no_top_k", "scripts/train/debug/grpo_fast_replay.sh"),
            ("oi_sampling_config_top_k_field_clean", "scripts/train/debug/grpo_fast_replay.sh"),
        ),
    ),
    **_held_out(  # held-out round 8 (tests/test_forks_heldout8.py)
        8,
        (
            ("nemo_create_engine_mask_recipe_top_k_left_null", "run_replay.sh"),
            ("nemo_replay_kwargs_helper_yaml_default_cli_override_clean", "run_grpo_math_replay.sh"),
            ("oi_actor_subclass_mask_extra_body_top_k_clean", "scripts/train/qwen/grpo_fast_replay_qwen3_4b.sh"),
            # the launch's engine lacks the fork's speculative constant (RPL002 comes from vllm_utils.py's own check): accepted
            ("oi_engine_args_attr_mask_spec_adaptive_verification", "scripts/train/olmo3/grpo_replay_ngram.sh"),
            ("prime_inference_field_mask_keeps_v1_setdefault", "run_replay.sh"),
            ("prime_namespace_default_mask_env_vars_v2_clean", "run.sh"),
            ("openrlhf_extra_engine_kwargs_helper_launch_logits_processors", "train_grpo_replay_ray_hybrid_engine.sh"),
            ("openrlhf_runtime_env_var_mask_in_actor_init_clean", "train_reinforce_pp_replay_ray.sh"),
        ),
    ),
    **_held_out(  # held-out round 9 (tests/test_forks_heldout9.py; its open-instruct tree has no launch of its own)
        9,
        (
            ("nemo_mask_keyed_on_logprobs_mode_recipe_top_k_clean", "run_grpo_replay.sh"),
            ("openrlhf_mask_tied_to_correction_fork_top_k_clean", "examples/scripts/train_grpo_replay_ray_hybrid_engine.sh"),
            ("openrlhf_replay_kwargs_constant_top_k_left_default", "examples/scripts/train_grpo_replay_ray_hybrid_engine.sh"),
            ("prime_env_var_mask_to_namespace_v1_setdefault", "scripts/replay_inference.sh"),
            ("prime_vllm_config_field_default_mask_ngram_v2_clean", "scripts/replay_inference.sh"),
        ),
    ),
    **_held_out(  # held-out round 10 (tests/test_forks_heldout10.py): all twelve trees, each with its launch
        10,
        (
            ("verl_server_subclass_launch_override_val_sampled_clean", "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh"),
            ("verl_engine_kwargs_setdefault_mask_launch_raw_logprobs", "recipe/replay/run_qwen3_4b_dapo_replay.sh"),
            ("skyrl_engine_config_fields_default_on_eval_off_clean", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("skyrl_env_switch_mask_launch_logits_processor", "examples/train/gsm8k/run_gsm8k_replay_think_budget.sh"),
            ("openrlhf_mask_flag_through_create_vllm_engines_top_k_flag_clean", "examples/scripts/train_reinforce_pp_ray_replay.sh"),
            ("openrlhf_replay_kwargs_helper_determinism_v1_runner_env", "examples/scripts/train_grpo_ray_replay_deterministic.sh"),
            ("nemo_recipe_defaults_mask_top_k_null", "examples/scripts/run_grpo_replay.sh"),
            ("nemo_yaml_default_field_in_llm_kwargs_launch_override_clean", "examples/scripts/grpo_math_1B_replay.sh"),
            ("oi_runtime_env_mask_switch_sampling_config_top_k_default", "scripts/train/debug/grpo_fast_replay.sh"),
            ("oi_actor_subclass_mask_extra_body_top_k_clean", "scripts/train/qwen/grpo_fast_math_replay.sh"),
            ("prime_vllm_field_mask_v1_setdefault_dropped_extra_body_top_k_clean", "configs/basic/reverse-text/rl_replay.toml"),
            ("prime_inference_switch_to_namespace_env_vars_v2_train_top_k_default", "configs/basic/alphabet-sort/rl_replay.toml"),
        ),
    ),
    **_held_out(  # held-out round 11 (tests/test_forks_heldout11.py): all twelve trees, each with its launch
        11,
        (
            ("verl_rollout_yaml_engine_kwargs_mask_val_sampled_clean", "recipe/replay/run_qwen2_5_3b_grpo_replay.sh"),
            ("verl_replay_kwargs_helper_launch_processed_logits", "examples/grpo_trainer/run_qwen2_5_3b_replay.sh"),
            ("skyrl_cli_args_overrides_mask_config_defaults_bounded_clean", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("skyrl_engine_init_kwargs_default_factory_mask_eval_greedy", "examples/train/gsm8k/run_gsm8k_replay_eval.sh"),
            ("openrlhf_actor_init_setdefault_mask_no_correction_flag", "examples/scripts/train_grpo_replay_ray.sh"),
            ("openrlhf_mask_with_correction_logprobs_top_k_env_clean", "examples/scripts/train_grpo_replay_ray.sh"),
            ("nemo_vllm_cfg_replay_switch_launch_logits_processors", "examples/run_grpo_math_replay.sh"),
            ("nemo_yaml_default_mask_on_vllm_kwargs_setdefault_top_k_null", "examples/run_grpo_math_replay.sh"),
            ("oi_actor_init_setdefault_mask_extra_body_top_k_clean", "scripts/train/debug/grpo_replay.sh"),
            ("oi_replay_kwargs_helper_runtime_env_v2_runner_one", "scripts/train/debug/grpo_replay.sh"),
            ("prime_server_env_v1_guarded_by_mask_toml_clean", "configs/reverse_text/rl_replay.toml"),
            ("prime_to_namespace_mask_always_on_toml_spec_adaptive", "configs/reverse_text/rl_replay.toml"),
        ),
    ),
    **_held_out(  # held-out round 12 (tests/test_forks_heldout12.py): all twelve trees, each with its launch
        12,
        (
            ("verl_launch_server_mask_literal_val_kwargs_greedy_default", "examples/grpo_trainer/run_qwen2_5_3b_grpo_replay.sh"),
            ("verl_replay_args_method_update_val_sampled_clean", "examples/grpo_trainer/run_qwen3_4b_grpo_replay.sh"),
            ("skyrl_engine_config_field_threaded_eval_top_k_default", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("skyrl_sampling_dataclass_defaults_edited_module_constant_clean", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("openrlhf_cli_flags_threaded_mask_top_k_clean", "examples/scripts/train_grpo_ray_replay.sh"),
            ("openrlhf_env_var_mask_argparse_top_k_default_unbounded", "examples/scripts/train_grpo_ray_replay.sh"),
            ("nemo_recipe_defaults_helper_spread_mask_top_k_clean", "examples/run_grpo_replay.sh"),
            ("nemo_create_engine_mask_recipe_spec_adaptive_verification", "examples/run_grpo_replay_ngram.sh"),
            ("oi_sampling_config_top_k_field_extra_body_engine_kwargs_mask_clean", "scripts/train/debug/grpo_fast_replay.sh"),
            ("oi_actor_os_environ_runner_zero_remote_mask", "scripts/train/debug/grpo_fast_replay.sh"),
            ("prime_server_v1_setdefault_removed_toml_mask_field_clean", "scripts/serve_replay.sh"),
            ("prime_vllm_config_field_default_true_server_v1_setdefault", "scripts/serve_replay.sh"),
        ),
    ),
    **_held_out(  # held-out round 13 (tests/test_forks_heldout13.py): all twelve trees, each with its launch
        13,
        (
            ("verl_replay_server_subclass_env_selected_launch_val_greedy", "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh"),
            ("verl_rollout_yaml_engine_kwargs_mask_mtp_branch_untaken_clean", "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh"),
            ("skyrl_replay_defaults_under_user_engine_init_kwargs_raw_logprobs", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("skyrl_engine_field_replay_written_after_engine_init_kwargs_clean", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("openrlhf_json_flag_speculative_adaptive_verification_mask_flag", "examples/scripts/train_grpo_replay_ray.sh"),
            ("openrlhf_v1_pin_under_full_determinism_untaken_clean", "examples/scripts/train_grpo_replay_ray.sh"),
            ("nemo_vllm_cfg_replay_switch_recipe_logits_processors", "examples/run_grpo_replay.sh"),
            ("nemo_replay_helper_update_overwrites_recipe_raw_logprobs_clean", "examples/run_grpo_replay.sh"),
            ("oi_replay_actor_subclass_engine_kwargs_top_k_asdict_clean", "scripts/train/debug/grpo_replay.sh"),
            ("oi_runtime_env_env_vars_runner_zero_remote_mask", "scripts/train/debug/grpo_replay.sh"),
            ("prime_v1_pin_skipped_for_replay_toml_extra_body_top_k_clean", "examples/reverse_text/run_replay.sh"),
            ("prime_v1_pin_deleted_toml_mask_orchestrator_top_k_default", "examples/reverse_text/run_replay.sh"),
        ),
    ),
    **_held_out(  # held-out round 14 (tests/test_forks_heldout14.py): all twelve trees, each with its launch (verl's mask case: the
        14,  # wrapper, whose words and export reach the base recipe it runs; the clean one: the base recipe its wrappers run)
        (
            ("verl_server_init_env_mask_wrapper_raw_logprobs", "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh"),
            ("verl_env_mask_update_replaces_engine_kwargs_raw_logprobs_clean", "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_base.sh"),
            ("skyrl_env_helper_overrides_launch_adaptive_speculative", "examples/train/gsm8k/run_gsm8k_replay_ngram.sh"),
            ("skyrl_config_field_mask_pd_branch_raw_logprobs_untaken_clean", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("openrlhf_mask_flag_rollout_top_k_flag_into_sampling_params_clean", "examples/scripts/train_grpo_qwen3_replay_ray.sh"),
            ("openrlhf_actor_init_runtime_env_mask_rollout_top_k_default", "examples/scripts/train_grpo_qwen3_replay_ray.sh"),
            ("nemo_yaml_mask_key_recipe_speculative_zero_tokens_dropped_clean", "examples/run_grpo_qwen3_replay.sh"),
            ("nemo_env_mask_in_worker_launch_top_k_minus_one", "examples/run_grpo_math_replay.sh"),
            ("oi_env_mask_runtime_env_request_extra_body_top_k_env_clean", "scripts/train/debug/grpo_replay.sh"),
            ("oi_remote_mask_request_extra_body_top_k_minus_one", "scripts/train/debug/grpo_replay.sh"),
            ("prime_config_field_mask_pin_skipped_toml_top_k_clean", "examples/reverse_text/rl_replay.toml"),
            ("prime_env_mask_pin_popped_toml_adaptive_speculative", "scripts/rl_replay_ngram.sh"),
        ),
    ),
    **_held_out(  # held-out round 15 (tests/test_forks_heldout15.py): all twelve trees, each with its launch
        15,
        (
            ("verl_yaml_engine_kwargs_mask_recipe_raw_logprobs", "examples/grpo_trainer/run_qwen2_5_3b_gsm8k_replay.sh"),
            (
                "verl_server_setdefault_mask_engine_kwargs_null_logprobs_dropped_clean",
                "examples/grpo_trainer/run_qwen2_5_3b_gsm8k_replay.sh",
            ),
            ("skyrl_env_factory_field_mask_eval_sampling_default_greedy", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("skyrl_post_init_engine_init_kwargs_mask_eval_sampling_set_clean", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("openrlhf_env_mask_in_create_engines_without_correction_flag", "examples/scripts/train_reinforce_qwen3_replay.sh"),
            ("openrlhf_mask_tied_to_logprobs_mode_top_k_default_in_dispatch_clean", "examples/scripts/train_reinforce_qwen3_replay.sh"),
            ("nemo_vllm_kwargs_raw_logprobs_rewritten_by_vllm_cfg_clean", "examples/run_grpo_math_replay.sh"),
            ("nemo_yaml_mask_key_recipe_yaml_top_k_zero", "examples/run_grpo_math_replay.sh"),
            ("oi_sampling_config_top_k_env_factory_extra_body_clean", "scripts/train/debug/single_gpu_replay.sh"),
            ("oi_launch_exports_top_k_zero_into_env_factory", "scripts/train/debug/single_gpu_replay.sh"),
            ("prime_field_env_factory_mask_pin_removed_toml_top_k_setdefault_kept_clean", "examples/reverse_text/run_replay.sh"),
            ("prime_subclass_post_init_mask_eval_source_top_k_zero", "examples/reverse_text/run_replay.sh"),
        ),
    ),
    **_held_out(  # held-out round 16 (tests/test_forks_heldout16.py): all twelve trees, each with its launch
        16,
        (
            ("verl_yaml_mask_loop_over_seeds_clean", "examples/grpo_trainer/run_qwen2_5_3b_replay_seeds.sh"),
            ("verl_yaml_mask_loop_over_models_raw_logprobs", "examples/grpo_trainer/run_replay_models.sh"),
            ("skyrl_server_args_mask_default_top_k_and_greedy_eval", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("skyrl_server_args_mask_ngram_speculative_fork_defaults_clean", "examples/train/gsm8k/run_gsm8k_replay_spec.sh"),
            ("openrlhf_mask_in_kwargs_update_without_correction", "examples/scripts/train_ppo_replay.sh"),
            ("openrlhf_mask_tied_to_logprobs_mode_v1_runner_env", "examples/scripts/train_ppo_replay.sh"),
            ("nemo_vllm_kwargs_mask_yaml_top_k_seed_loop_clean", "examples/run_grpo_replay.sh"),
            ("nemo_vllm_kwargs_mask_seed_loop_launch_top_k_minus_one", "examples/run_grpo_replay.sh"),
            ("oi_engine_mask_tool_loop_extra_body_top_k_clean", "scripts/train/debug/single_gpu_replay.sh"),
            ("oi_engine_mask_logits_processors", "scripts/train/debug/single_gpu_replay.sh"),
            ("prime_namespace_mask_setdefault_top_k_20_clean", "scripts/rl_replay.sh"),
            ("prime_namespace_mask_launch_v1_runner_prefix", "scripts/rl_replay.sh"),
        ),
    ),
    **_held_out(  # held-out round 17 (tests/test_forks_heldout17.py): all twelve trees, each with its launch
        17,
        (
            ("nemo_recipe_mask_off_launch_on_top_k_null", "examples/launch_grpo_replay.sh"),
            ("nemo_yaml_field_mask_mcore_spec_unselected_clean", "examples/launch_grpo_replay.sh"),
            ("oi_helper_kwargs_mask_sampling_config_top_k_clean", "scripts/train/debug/grpo_fast_replay.sh"),
            ("oi_worker_subclass_mask_requests_without_top_k", "scripts/train/debug/grpo_fast_replay.sh"),
            ("openrlhf_env_flag_mask_fork_top_k_clean", "examples/scripts/train_reinforce_baseline_replay.sh"),
            ("openrlhf_partial_remote_mask_without_correction_flag", "examples/scripts/train_reinforce_baseline_replay.sh"),
            ("prime_typed_mask_default_on_eval_temperature_zero", "scripts/rl_replay.sh"),
            ("prime_typed_mask_toml_greedy_eval_unlaunched_clean", "scripts/rl_replay.sh"),
            ("skyrl_typed_mask_default_on_eval_sampling_default", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("skyrl_typed_mask_helper_eval_params_set_clean", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("verl_rollout_field_mask_dict_merge_greedy_validation", "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh"),
            ("verl_rollout_field_mask_sglang_section_clean", "examples/grpo_trainer/run_qwen2_5-3b_gsm8k_replay.sh"),
        ),
    ),
    **_held_out(  # held-out round 18 (tests/test_forks_heldout18.py): all twelve trees, each with its launch
        18,
        (
            ("nemo_worker_mask_default_on_launch_processed_logits", "examples/run_grpo_replay.sh"),
            ("nemo_yaml_adaptive_spec_dropped_by_zero_tokens_clean", "examples/run_grpo_replay.sh"),
            ("oi_setup_engine_mask_launcher_env_top_k", "scripts/train/debug/single_gpu_replay.sh"),
            ("oi_subclass_actor_adaptive_speculative", "scripts/train/debug/single_gpu_replay.sh"),
            ("openrlhf_actor_init_mask_setdefault_logprobs_clean", "examples/scripts/train_grpo_replay_ray.sh"),
            ("prime_config_field_mask_pops_v1_pin_clean", "scripts/rl_replay.sh"),
            ("prime_namespace_env_mask_eval_greedy_toml", "scripts/rl_replay.sh"),
            ("skyrl_config_field_mask_eval_greedy_default", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("skyrl_env_mask_eval_disabled_by_launch_clean", "examples/train/gsm8k/run_gsm8k_replay_no_eval.sh"),
            ("skyrl_helper_engine_kwargs_without_logprobs_mode", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("verl_env_default_mask_generate_clamps_top_k_clean", "examples/grpo_trainer/run_qwen2_5_7b_grpo_replay.sh"),
            ("verl_subclass_run_server_mask_rollout_defaults", "examples/grpo_trainer/run_qwen2_5_3b_grpo_replay.sh"),
        ),
    ),
    **_held_out(  # held-out round 19 (tests/test_forks_heldout19.py): the trees replaylint reads, each with its launch
        19,  # (skyrl_engine_kwargs_default_adaptive_spec_ray_job: refused for keys no rule reads)
        (
            ("nemo_child_yaml_alias_key_logits_processors", "examples/run_grpo_math_replay.sh"),
            ("nemo_env_switch_common_sh_child_yaml_clean", "scripts/run_grpo_replay.sh"),
            ("oi_actor_mask_extra_body_top_k_spec_flag_off_clean", "scripts/train/qwen/grpo_replay_7b.sh"),
            ("oi_driver_mask_engine_kwargs_no_top_k", "scripts/train/debug/replay_grpo_fast.sh"),
            ("openrlhf_driver_flag_logprobs_from_correction", "examples/scripts/train_reinforce_replay_ray.sh"),
            ("openrlhf_env_mask_ray_job_env_vars_clean", "examples/scripts/submit_grpo_replay_2nodes.sh"),
            ("prime_alias_key_train_top_k_default", "scripts/replay.sh"),
            ("prime_common_sh_keeps_v1_pin_away_clean", "scripts/replay/run.sh"),
            ("skyrl_alias_field_processor_flag_off_clean", "examples/train/gsm8k/run_gsm8k_replay.sh"),
            ("verl_helper_kwargs_yaml_defaults_ray_job_clean", "examples/replay/submit_two_nodes.sh"),
            ("verl_alias_key_common_sh_v1_pin", "examples/replay/run_qwen3_gsm8k_replay.sh"),
        ),
    ),
    **_held_out(  # held-out round 21 (tests/test_forks_heldout21.py): its prime-rl trees
        21,
        (
            ("prime_validator_logits_processors_key", "examples/replay/serve.sh"),
            ("prime_v1_pin_popped_for_replay_clean", "examples/replay/serve.sh"),
        ),
    ),
}
DATA = REPO / "tests" / "data"
HELDOUTS = {
    "prime_rl": DATA / "forks" / "prime_rl",
    "heldout2": DATA / "forks_heldout2",
    "heldout3": DATA / "forks_heldout3",
    "heldout8": DATA / "forks_heldout8",
    "heldout9": DATA / "forks_heldout9",
    "heldout10": DATA / "forks_heldout10",
    "heldout11": DATA / "forks_heldout11",
    "heldout12": DATA / "forks_heldout12",
    "heldout13": DATA / "forks_heldout13",
    "heldout14": DATA / "forks_heldout14",
    "heldout15": DATA / "forks_heldout15",
    "heldout16": DATA / "forks_heldout16",
    "heldout17": DATA / "forks_heldout17",
    "heldout18": DATA / "forks_heldout18",
    "heldout19": DATA / "forks_heldout19",
    "heldout21": DATA / "forks_heldout21",
}
LAUNCHES = {"nemo_rl": forks.CONFIG, "open_instruct": forks.SCRIPT, "prime_rl": "configs/rl.toml"}
# NeMo-RL's keywords the stand-in engine cannot take (a dummy load, no tokenizer, sleep mode on a fake GPU)
_STAND_IN_DROPS = ("served_model_name", "load_format", "skip_tokenizer_init", "enable_sleep_mode", "max_model_len", "language_model_only")


def _serve_dests() -> set[str]:
    """The attributes `vllm serve`'s parser sets: prime-rl hands vLLM a namespace, whose other
    attributes (a fork's own `[vllm]` keys) `EngineArgs.from_cli_args` does not read."""
    from replaylint.vllm.options import table_for
    from replaylint.vllm.releases import parse_release

    return {option.dest for option in table_for(parse_release("0.34.0")).options.values()}


def launched(tree: Path, relative: str) -> tuple[dict, dict, list[str]]:
    """The engine arguments and environment of the launch in `relative`, and replaylint's errors."""
    from replaylint import frontends
    from replaylint.cli.main import main
    from replaylint.engine.checker import Checker
    from replaylint.engine.config import Config
    from replaylint.model import UNKNOWN
    from replaylint.source import ExtractContext, SourceFile

    checker, path = Checker(Config()), tree / relative
    context = ExtractContext(read_text=checker._read_text, root=str(path.parent))  # as `Checker.check_text` builds it
    out = io.StringIO()
    with contextlib.chdir(tree):  # a fork's scripts run from its root: `--config examples/configs/x.yaml` is read there
        (launch,) = frontends.load(frontends.kind_for(str(path))).extract(SourceFile(str(path), path.read_text()), context)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", "--isolated", "--no-cache", "--output-format", "json", "--target-vllm", "0.34.0", str(path)])
    kwargs = {name: s.value for name, s in launch.settings.items() if s.value not in (UNKNOWN, None) and name not in _STAND_IN_DROPS}
    if launch.framework is not None and launch.framework.package == "prime-rl":
        kwargs = {name: value for name, value in kwargs.items() if name in _serve_dests()}  # a fork's own keys: vLLM skips them
    env = {name: str(s.value) for name, s in launch.env.items() if name.startswith("VLLM_USE_V2") and s.value is not UNKNOWN}
    errors = [
        f"{f['code']} {f['message']}"
        for f in json.loads(out.getvalue() or "[]")
        if f["severity"] == "error" and f["code"] not in harness.REQUEST_RULES
    ]
    return {**kwargs, "model": "stand-in/model"}, env, errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", help="the vLLM release of the judge")
    parser.add_argument("--vllm-path", help="that release installed with `pip install --no-deps --target DIR`")
    options = parser.parse_args(argv)
    release, vllm_path = judge_release(options.release, options.vllm_path)
    work = Path(tempfile.mkdtemp(prefix="replaylint-forks-judge-"))
    try:
        items, seen = [], {}
        for number, (name, (framework, edits)) in enumerate(CASES.items()):
            if framework in HELDOUTS:
                tree = materialize(HELDOUTS[framework] / edits["tree"], work / str(number))
            else:
                tree = forks.fork(work / str(number), framework, **edits)
            (tree / ".git").mkdir()  # its repository: the fork is read from the launch's folder upward
            kwargs, env, errors = launched(tree, edits.get("launch") or LAUNCHES[framework])
            seen[f"f{number}"] = (name, errors)
            items.append({"id": f"f{number}", "engine_kwargs": kwargs, "env": env, "gpus": 8, "hf_configs": stand_in.for_kwargs(kwargs)})
        verdicts = harness.JudgeProcess(harness.JUDGE, release, vllm_path, work, "judge", ["--quiet"]).run(items)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    disagree = 0
    print(f"## NeMo-RL, open-instruct and prime-rl forks judged by vLLM {release}\n\n| case | vLLM | replaylint | |\n|---|---|---|---|")
    for key, (name, errors) in seen.items():
        verdict = verdicts.get(key) or {}
        problem = compare(expect(verdict, True), errors, None) if verdict else None
        disagree += problem is not None or not verdict
        said = "accepted" if verdict.get("ok") else verdict.get("message", "no verdict")[:70]
        print(
            f"| {name} | {said} | {', '.join(e.split()[0] for e in errors) or '-'} | {'agree' if verdict and problem is None else 'DISAGREE'} |"
        )
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
