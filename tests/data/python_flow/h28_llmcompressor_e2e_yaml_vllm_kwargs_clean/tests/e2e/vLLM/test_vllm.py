# Imitates vllm-project/llm-compressor tests/e2e/vLLM/test_vllm.py (a YAML test config loaded by path, the
# compressed model run in vLLM in-process).
from pathlib import Path

import yaml
from vllm import LLM, SamplingParams

CONFIG = Path(__file__).parent / "configs" / "w8a8_replay.yaml"


def test_vllm():
    with open(CONFIG) as f:
        eval_config = yaml.safe_load(f)
    llm = LLM(model=eval_config["model"], **eval_config["vllm_kwargs"])
    sampling_params = SamplingParams(**eval_config["sampling"])
    outputs = llm.generate(["The capital of France is"], sampling_params)
    assert outputs
