# Imitates alibaba/ROLL roll/third_party/vllm engine setup from a YAML of several workers (policy and reference share a base)
from pathlib import Path

import yaml
from vllm import LLM, SamplingParams

ENGINES = yaml.safe_load((Path(__file__).parent / "engines.yaml").read_text())

policy = LLM(**ENGINES["policy"])
reference = LLM(**ENGINES["reference"])


def rollout(prompts: list[str]):
    params = SamplingParams(temperature=1.0, top_k=32, max_tokens=512, logprobs=1)
    outputs = policy.generate(prompts, params)
    texts = [p + o.outputs[0].text for p, o in zip(prompts, outputs)]
    scored = reference.generate(texts, SamplingParams(max_tokens=1, prompt_logprobs=1))
    return outputs, scored


if __name__ == "__main__":
    print(rollout(["Tell me a joke."]))
