"""What held-out round 46's llm-jp-eval-inference cases (tests/data/python_flow/h46_llmjp_*) taught:
a YAML given by a shell script's `--config` (after a positional `inference` of `choices=[...]`) is
validated into pydantic schemas, each nested block into the model its field names (`generation_config:
VLLMSamplingParams`, its `top_k: int = -1` where the YAML gives none), the keys that are no field
kept or dropped as the model's `extra` says, and spread into `vllm.LLM` and `SamplingParams` by
`model_dump()`; `import vllm` beside `import vllm.sampling_params` is one name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

INFERENCE = """import argparse

import vllm
import vllm.sampling_params
import yaml

from schemas import InferenceConfig


class Generator:
    def __init__(self, cfg: InferenceConfig):
        self.cfg = cfg

    def main(self, prompts):
        model = vllm.LLM(**self.cfg.model.model_dump(){engine_extra})
        params = vllm.sampling_params.SamplingParams(**self.cfg.generation_config.model_dump())
        return model.generate(prompts, sampling_params=params)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["inference"])
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    with open(args.config, encoding="utf-8") as f:
        cfg = InferenceConfig.model_validate(yaml.safe_load(f))
    Generator(cfg).main(["hi"])
"""
SCHEMAS = """from typing import Optional

from pydantic import BaseModel, ConfigDict, Field


class ModelConfig(BaseModel):
{model_config}
    model: str
    gpu_memory_utilization: float = 0.9


class SamplingConfig(BaseModel):
    model_config = ConfigDict(extra="allow")

    temperature: float = 1.0
    top_k: int = -1
    max_tokens: Optional[int] = None


class InferenceConfig(BaseModel):
    model: ModelConfig
    generation_config: SamplingConfig = Field(default_factory=SamplingConfig)
"""
TOP_K_LINE = 17  # `top_k: int = -1` of SCHEMAS with its one-line `model_config`
ALLOW = '    model_config = ConfigDict(extra="allow")\n'
CONFIG = """model:
  model: llm-jp/llm-jp-3-3.7b-instruct
  return_sampling_mask: true
{mode}
generation_config:
  temperature: 0.7
{top_k}"""
MASK_LINE = 3
PROCESSED = "  logprobs_mode: processed_logprobs\n"
EVAL = "#!/bin/bash\nset -eu\npython inference.py {command} --config {config}\n"


def tree(
    model_config: str = ALLOW,
    mode: str = PROCESSED,
    top_k: str = "  top_k: 20\n",
    command: str = "inference",
    config: str = "./config_sample.yaml",
    engine_extra: str = "",
) -> dict[str, str]:
    return {
        "vllm/inference.py": INFERENCE.format(engine_extra=engine_extra),
        "vllm/schemas.py": SCHEMAS.format(model_config=model_config),
        "vllm/config_sample.yaml": CONFIG.format(mode=mode, top_k=top_k),
        "vllm/eval.sh": EVAL.format(command=command, config=config),
    }


def test_the_config_as_upstream_with_a_top_k_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, tree()) == []


def test_the_mask_kept_by_extra_allow_without_a_mode_is_reported_in_the_yaml(tmp_path: Path) -> None:
    assert check(tmp_path, tree(mode="")) == [("config_sample.yaml", MASK_LINE, "RPL003")]


def test_a_request_without_top_k_is_reported_at_the_schema_default(tmp_path: Path) -> None:
    assert check(tmp_path, tree(top_k="")) == [("schemas.py", TOP_K_LINE, "RPL102")]


@pytest.mark.parametrize(
    "model_config",
    [
        "    class Config:\n        extra = Extra.allow\n",  # pydantic v1's spelling
        '    model_config = {"extra": "allow"}\n',
    ],
)
def test_other_spellings_of_extra_allow_keep_the_mask(tmp_path: Path, model_config: str) -> None:
    found = check(tmp_path, tree(model_config=model_config, mode=""))
    assert found == [("config_sample.yaml", MASK_LINE, "RPL003")]


@pytest.mark.parametrize("model_config", ["", '    model_config = ConfigDict(extra="ignore")\n'])
def test_a_model_that_ignores_extra_keys_drops_the_mask(tmp_path: Path, model_config: str) -> None:
    # pydantic's default: `return_sampling_mask` is no field of ModelConfig, so `model_dump()` never gives it
    assert check(tmp_path, tree(model_config=model_config, mode="")) == []


def test_a_model_that_forbids_extra_keys_starts_no_engine(tmp_path: Path) -> None:
    assert check(tmp_path, tree(model_config='    model_config = ConfigDict(extra="forbid")\n', mode="")) == []


def test_a_command_the_parser_refuses_starts_no_engine(tmp_path: Path) -> None:
    assert check(tmp_path, tree(command="evaluate", mode="")) == []


@pytest.mark.parametrize(("config", "expected"), [("./config_sample.yaml", [("schemas.py", TOP_K_LINE, "RPL102")]), ('"$1"', [])])
def test_a_config_the_script_leaves_to_its_caller_keeps_the_request_open(tmp_path: Path, config: str, expected: list) -> None:
    # the engine is spelt out in the program; with the YAML not known its `generation_config` may give top_k
    files = tree(config=config, top_k="", engine_extra=', return_sampling_mask=True, logprobs_mode="processed_logprobs"')
    assert check(tmp_path, files) == expected


def test_an_aliased_field_keeps_the_request_open(tmp_path: Path) -> None:
    files = tree(top_k="")
    files["vllm/schemas.py"] = files["vllm/schemas.py"].replace("    top_k: int = -1", '    top_k: int = Field(-1, alias="k")')
    assert check(tmp_path, files) == []
