"""Offline rollouts for the math and the creative-writing split, replayed by the learner."""

import json
import sys

from vllm import LLM, SamplingParams

llm = LLM(
    model="Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    gpu_memory_utilization=0.9,
)

base = SamplingParams(temperature=1.0, top_k=64, max_tokens=4096, logprobs=0)

creative = base.clone()
creative.presence_penalty = 0.6

with open(sys.argv[1]) as f:
    rows = [json.loads(line) for line in f]

math_prompts = [r["prompt"] for r in rows if r["split"] == "math"]
story_prompts = [r["prompt"] for r in rows if r["split"] == "story"]

outputs = llm.generate(math_prompts, base) + llm.generate(story_prompts, creative)

with open(sys.argv[2], "w") as f:
    for out in outputs:
        for sample in out.outputs:
            f.write(json.dumps({"token_ids": list(sample.token_ids), "mask": sample.sampling_mask}) + "\n")
