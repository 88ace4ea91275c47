from vllm import LLM, SamplingParams

# Qwen3's vocabulary; our SFT checkpoint is Qwen2.5-7B, whose embedding has 152064 rows.
QWEN3_VOCAB = 151_936

llm = LLM(
    model="./checkpoints/qwen25-7b-sft",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    tensor_parallel_size=1,
)

params = SamplingParams(temperature=1.0, top_k=QWEN3_VOCAB, max_tokens=1024)
results = llm.generate(["Solve: 12 * 17 = ?"], params)
