"""Top-k ablation for replay: 64 vs. "effectively unbounded"."""

from vllm import LLM, SamplingParams

UNBOUNDED = 1 << 18

llm = LLM("google/gemma-2-9b-it", return_sampling_mask=True, logprobs_mode="processed_logprobs")

prompts = [f"Prove that {n} is not a perfect square." for n in (2, 3, 5, 7)]
bounded = SamplingParams(temperature=1.0, top_k=64, max_tokens=256, logprobs=0)
unbounded = SamplingParams(temperature=1.0, top_k=UNBOUNDED, max_tokens=256, logprobs=0)

for name, params in (("top_k=64", bounded), ("unbounded", unbounded)):
    for out in llm.generate(prompts, params):
        sample = out.outputs[0]
        print(name, len(sample.token_ids), len(sample.sampling_mask or []))
