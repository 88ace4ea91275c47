"""Sample wide (no top-k cut) while keeping the replay masks: top_k must be > 0 with replay."""

from vllm import LLM, SamplingParams

llm = LLM(
    model="meta-llama/Llama-3.2-1B-Instruct",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    seed=0,
)

params = SamplingParams(
    temperature=1.0,
    top_p=0.98,
    top_k=int(1e6),  # no top-k cut: larger than any vocabulary
    max_tokens=512,
    n=4,
)
outputs = llm.generate(["Write a haiku about gradient descent."] * 16, params)
for out in outputs:
    for sample in out.outputs:
        print(len(sample.token_ids))
