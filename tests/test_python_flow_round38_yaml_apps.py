"""What held-out round 38's torchforge cases (tests/data/python_flow/h38_torchforge_*) taught: a
torchforge recipe YAML, which its app loads with `forge.cli.config.parse` and hands whole to the
generator actor (`as_service(**cfg.policy)`), is read as torchforge's engine
(`replaylint.frameworks.torchforge`): `policy.engine_config` / `policy.sampling_config` (the
edition of September to October 2025, `EngineConfig.from_dict` and `SamplingConfig` merged over
the model's generation config) or `policy.engine_args` / `policy.sampling_params` (since, vLLM's
`EngineArgs(**)` and `SamplingParams.from_optional(**)`); findings at the YAML's lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

OLDER = (
    "policy:\n"
    "  engine_config:\n"
    '    model: "meta-llama/Llama-3.1-8B-Instruct"\n'
    "    tensor_parallel_size: 2\n"
    "    return_sampling_mask: true\n"  # line 5
    "{engine}"
    "  sampling_config:\n"
    "    n: 1\n"
    "{sampling}"
    "\n"
    "services:\n"
    "  policy:\n"
    "    procs: 2\n"
)
MODE = "    logprobs_mode: processed_logprobs\n"


def recipe(template: str = OLDER, engine: str = MODE, sampling: str = "") -> dict[str, str]:
    return {"apps/vllm/llama3_8b.yaml": template.format(engine=engine, sampling=sampling)}


def test_the_mask_without_the_mode_is_reported_at_the_yaml_line(tmp_path: Path) -> None:
    assert check(tmp_path, recipe(engine="")) == [("llama3_8b.yaml", 5, "RPL003")]


def test_the_processed_mode_and_sampling_config_defaults_are_clean(tmp_path: Path) -> None:
    # SamplingConfig's temperature 1.0; top_k is the model's generation config's (unknown here)
    assert check(tmp_path, recipe()) == []


def test_a_greedy_sampling_config_temperature_is_reported(tmp_path: Path) -> None:
    found = check(tmp_path, recipe(sampling="    max_tokens: 512\n    temperature: 0.0\n"))
    assert found == [("llama3_8b.yaml", 10, "RPL101")]


def test_a_top_k_the_user_writes_is_judged(tmp_path: Path) -> None:
    found = check(tmp_path, recipe(sampling="    top_k: -1\n"))
    assert found == [("llama3_8b.yaml", 9, "RPL102")]


def test_an_interpolated_temperature_stays_open(tmp_path: Path) -> None:
    assert check(tmp_path, recipe(sampling="    temperature: ${temperature}\n")) == []


NEWER = (
    "# >>> python -m apps.grpo.main --config apps/grpo/qwen3_1_7b.yaml\n"
    'model: "Qwen/Qwen3-1.7B"\n'
    "policy:\n"
    "  engine_args:  # https://docs.vllm.ai/en/v0.10.0/api/vllm/engine/arg_utils.html\n"
    "    model: ${{model}}\n"
    "    tensor_parallel_size: 1\n"
    "    return_sampling_mask: true\n"  # line 7
    "{engine}"
    "  sampling_params:\n"
    "    n: ${{group_size}}\n"
    "{sampling}"
)


def test_the_newer_editions_sampling_params_take_vllms_defaults(tmp_path: Path) -> None:
    # SamplingParams.from_optional without top_k: vLLM's 0, reported at the request (`sampling_params:`)
    found = check(tmp_path, recipe(NEWER, sampling="    temperature: 1.0\n"))
    assert found == [("llama3_8b.yaml", 9, "RPL102")]


def test_the_newer_edition_with_top_k_and_the_mode_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, recipe(NEWER, sampling="    temperature: 1.0\n    top_k: 20\n")) == []


@pytest.mark.parametrize(
    "text",
    [
        # an engine mapping without the sampling key of its edition is not claimed as torchforge's
        "policy:\n  engine_args:\n    return_sampling_mask: true\n    logprobs_mode: processed_logprobs\n"
        "  generation_kwargs:\n    temperature: 0.0\n",
        # the keys of different editions do not pair
        "policy:\n  engine_args:\n    return_sampling_mask: true\n    logprobs_mode: processed_logprobs\n"
        "  sampling_config:\n    temperature: 0.0\n",
    ],
)
def test_other_shapes_are_not_read_as_torchforge(tmp_path: Path, text: str) -> None:
    assert ("llama3_8b.yaml", 6, "RPL101") not in check(tmp_path, {"apps/vllm/llama3_8b.yaml": text})
