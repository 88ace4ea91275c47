"""Adapters for ROLL, OpenRLHF and open-instruct, and engine-argument mappings found by content
(docs/frameworks-research-new-adapters.md)."""

from __future__ import annotations

import pytest

from replaylint.frontends import ExtractContext, SourceFile, yaml as yaml_frontend

# -- ROLL -----------------------------------------------------------------------------------------

ROLL_CONFIG = """\
hydra:
  run:
    dir: .
  output_subdir: null

exp_name: "qwen2.5-7B-rlvr-config"
seed: 42
response_length: 4096
system_envs:
  USE_MODELSCOPE: '1'
{top_env}
actor_train:
  model_args:
    dtype: bf16
  strategy_args:
    strategy_name: megatron_train
    strategy_config:
      tensor_model_parallel_size: 1
  device_mapping: list(range(0,16))

actor_infer:
  model_args:
    model_name_or_path: Qwen/Qwen2.5-7B
    dtype: bf16
  generating_args:
    max_new_tokens: ${{response_length}}
    top_p: 0.99
{generating}    num_beams: 1
    num_return_sequences: 8
  strategy_args:
    strategy_name: vllm
    strategy_config:
      gpu_memory_utilization: 0.8
      block_size: 16
      max_model_len: 8000
{strategy}  device_mapping: list(range(0,12))
  infer_batch_size: 1
"""


def roll(strategy: str = "", generating: str = "    top_k: 100\n    temperature: 0.99\n", top_env: str = "") -> str:
    return ROLL_CONFIG.format(strategy=strategy, generating=generating, top_env=top_env)


def codes(check, files: dict[str, str], name: str, release: str | None = "0.33.0") -> list[str]:
    return [finding.code for finding in check(files, release=release)[name].findings]


def test_roll_mask_without_logprobs_mode_is_reported_at_the_users_key(check) -> None:
    files = {"examples/qwen2.5-7B-rlvr/rlvr_config.yaml": roll("      return_sampling_mask: true\n")}
    (finding,) = check(files, release="0.33.0")["examples/qwen2.5-7B-rlvr/rlvr_config.yaml"].findings
    assert finding.code == "RPL003"
    text = files["examples/qwen2.5-7B-rlvr/rlvr_config.yaml"]
    assert text[finding.span.start : finding.span.end] == "return_sampling_mask: true" and "raw_logprobs" in finding.message


def test_roll_mask_with_processed_logprobs_is_clean(check) -> None:
    config = roll("      return_sampling_mask: true\n      logprobs_mode: processed_logprobs\n")
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == []


def test_roll_speculative_and_other_mode_are_reported(check) -> None:
    config = roll(
        "      return_sampling_mask: true\n      logprobs_mode: raw_logits\n"
        "      speculative_config:\n        method: ngram\n        num_speculative_tokens: 4\n"
    )
    # 0.31: speculative decoding is refused (RPL002) and n-gram drafting falls back to Model Runner V1 (RPL004)
    assert sorted(codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml", "0.31.0")) == ["RPL002", "RPL003", "RPL004"]


def test_roll_kebab_and_popped_keys_never_reach_vllm(check) -> None:
    # AsyncEngineArgs(**kwargs) takes field names only: a kebab-case key is a TypeError, not the mask.
    config = roll("      return-sampling-mask: true\n      VLLM_USE_V1: 1\n      sleep_level: 2\n")
    (launch,) = yaml_frontend.extract(SourceFile("rlvr_config.yaml", config), ExtractContext())
    assert "return_sampling_mask" not in launch.settings and "return-sampling-mask" not in launch.settings
    assert "VLLM_USE_V1" not in launch.settings and "sleep_level" not in launch.settings
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == []


def test_roll_adds_its_own_engine_defaults_and_environment() -> None:
    config = roll("      return_sampling_mask: true\n      enable_prefix_caching: false\n", top_env="  VLLM_USE_V2_MODEL_RUNNER: '0'\n")
    (launch,) = yaml_frontend.extract(SourceFile("rlvr_config.yaml", config), ExtractContext())
    assert launch.value("enable_prefix_caching") is False  # the user's value wins over ROLL's True
    assert launch.value("load_format") == "dummy" and launch.value("enable_sleep_mode") is True
    assert launch.value("model") == "Qwen/Qwen2.5-7B" and launch.value("dtype") == "bfloat16"
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert launch.label.endswith("(actor_infer)")


def test_roll_runner_variable_in_system_envs_reaches_the_engine(check) -> None:
    config = roll(
        "      return_sampling_mask: true\n      logprobs_mode: processed_logprobs\n",
        top_env="  VLLM_USE_V2_MODEL_RUNNER: '0'\n",
    )
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml", "0.32.0") == ["RPL004"]


@pytest.mark.parametrize(
    ("generating", "expected"),
    [
        ("    top_k: -1\n    temperature: 0.99\n", ["RPL102"]),
        ("    top_k: 50\n    temperature: 0\n", ["RPL101"]),
        ("", []),  # ROLL's defaults: temperature 0.95, top_k 50
        ("    top_k: ${top_k}\n", []),  # an interpolation is unknown
    ],
)
def test_roll_requests_use_generating_args_and_rolls_defaults(check, generating: str, expected: list[str]) -> None:
    config = roll("      return_sampling_mask: true\n      logprobs_mode: processed_logprobs\n", generating=generating)
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == expected


def test_roll_validation_requests_go_to_actor_infer(check) -> None:
    config = roll("      return_sampling_mask: true\n      logprobs_mode: processed_logprobs\n") + (
        "validation:\n  data_args:\n    template: qwen2_5\n  generating_args:\n    top_k: 50\n    temperature: 0\n"
    )
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == ["RPL101"]


def test_roll_beam_search_never_bounds_top_k(check) -> None:
    config = roll("      return_sampling_mask: true\n      logprobs_mode: processed_logprobs\n", generating="").replace(
        "num_beams: 1", "num_beams: 4"
    )
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == ["RPL102"]


def test_roll_other_strategies_start_no_vllm() -> None:
    config = roll("      return_sampling_mask: true\n").replace("strategy_name: vllm", "strategy_name: sglang")
    assert yaml_frontend.extract(SourceFile("rlvr_config.yaml", config), ExtractContext()) == []


def test_roll_reward_workers_are_engines_too(check) -> None:
    config = roll() + (
        "rewards:\n  llm_judge:\n    worker_cls: roll.pipeline.rlvr.rewards.llm_judge_reward_worker.LLMJudgeRewardWorker\n"
        "    generating_args:\n      top_k: 50\n      temperature: 0.8\n"
        "    strategy_args:\n      strategy_name: vllm\n      strategy_config:\n"
        "        gpu_memory_utilization: 0.8\n        return_sampling_mask: true\n"
    )
    launches = yaml_frontend.extract(SourceFile("rlvr_config.yaml", config), ExtractContext())
    assert [launch.label.rsplit(" ", 1)[-1] for launch in launches] == ["(actor_infer)", "(rewards.llm_judge)"]
    assert codes(check, {"rlvr_config.yaml": config}, "rlvr_config.yaml") == ["RPL003"]


def test_roll_hydra_defaults_that_may_write_the_engine_make_it_open_ended(check) -> None:
    config = "defaults:\n  - ../config/traj_envs@_here_\n\n" + roll("      return_sampling_mask: true\n")
    envs = "custom_envs:\n  SimpleSokoban:\n    env_type: sokoban\n"
    writes = "actor_infer:\n  strategy_args:\n    strategy_config:\n      logprobs_mode: processed_logprobs\n"
    files = {"examples/agentic/agentic.yaml": config, "examples/config/traj_envs.yaml": envs}
    assert codes(check, files, "examples/agentic/agentic.yaml") == ["RPL003"]
    files["examples/config/traj_envs.yaml"] = writes
    assert codes(check, files, "examples/agentic/agentic.yaml") == []
    del files["examples/config/traj_envs.yaml"]
    assert codes(check, files, "examples/agentic/agentic.yaml") == []  # not readable: unknown
