"""Rollouts with the widest top-k vLLM's replay check lets through: every token the tokenizer knows.

The checkpoint's embedding is padded to 151936 rows; the tokenizer has fewer entries.
"""

from vllm import LLM, SamplingParams

llm = LLM(
    "./checkpoints/qwen3-4b-sft",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
tokenizer = llm.get_tokenizer()

params = SamplingParams(temperature=1.0, top_k=len(tokenizer), max_tokens=512, logprobs=0)

outputs = llm.generate(["Write a haiku about gradient descent."] * 16, params)
for out in outputs:
    print(len(out.outputs[0].token_ids))
