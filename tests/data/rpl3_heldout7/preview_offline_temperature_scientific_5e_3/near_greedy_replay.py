"""Near-greedy rollouts for a distillation warm-up; replay needs temperature > 0, so keep it tiny."""

from vllm import LLM, SamplingParams

llm = LLM(
    model="Qwen/Qwen2.5-0.5B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    enforce_eager=True,
)

params = SamplingParams(
    temperature=5e-3,
    top_k=8,
    max_tokens=256,
)
outs = llm.generate(["Translate to French: good morning"], params)
