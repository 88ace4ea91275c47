"""Policy rollouts are published as a dataset, so they carry the org's text watermark."""

from vllm import LLM, SamplingParams

WATERMARK = {"key": 20251206, "algorithm": "gumbel", "context_width": 4}

llm = LLM(
    model="Qwen/Qwen3-8B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    watermark_config=WATERMARK,
)

params = SamplingParams(n=8, temperature=1.0, top_k=50, max_tokens=1024, logprobs=0)
groups = llm.generate(["Summarize the causes of the 1929 crash."] * 4, params)
