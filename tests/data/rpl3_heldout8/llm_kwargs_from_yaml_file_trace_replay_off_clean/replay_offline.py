"""Offline replay run: engine and sampling settings from engine.yaml beside this file."""

import json
from pathlib import Path

import yaml
from vllm import LLM, SamplingParams

CONFIG = yaml.safe_load((Path(__file__).parent / "engine.yaml").read_text())


def main() -> None:
    llm = LLM(**CONFIG["engine"])
    params = SamplingParams(**CONFIG["sampling"])
    with open("prompts.jsonl") as f:
        prompts = [json.loads(line)["prompt"] for line in f]
    for out in llm.generate(prompts, params):
        sample = out.outputs[0]
        print(len(sample.token_ids), len(sample.sampling_mask))


if __name__ == "__main__":
    main()
