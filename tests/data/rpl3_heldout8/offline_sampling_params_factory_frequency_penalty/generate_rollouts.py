"""Offline rollouts for replay: eight samples per prompt, masks and processed logprobs kept."""

import json

from vllm import LLM, SamplingParams

MODEL = "Qwen/Qwen2.5-Math-7B"


def get_sampling_params(n: int, max_tokens: int = 1024) -> SamplingParams:
    return SamplingParams(
        n=n,
        temperature=1.0,
        top_p=1.0,
        top_k=64,
        max_tokens=max_tokens,
        frequency_penalty=0.3,
        logprobs=0,
    )


def main() -> None:
    llm = LLM(
        model=MODEL,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
        gpu_memory_utilization=0.85,
    )
    with open("prompts.jsonl") as f:
        prompts = [json.loads(line)["prompt"] for line in f]
    outputs = llm.generate(prompts, get_sampling_params(8))
    with open("rollouts.jsonl", "w") as f:
        for out in outputs:
            for sample in out.outputs:
                f.write(json.dumps({"token_ids": list(sample.token_ids), "mask": sample.sampling_mask}) + "\n")


if __name__ == "__main__":
    main()
