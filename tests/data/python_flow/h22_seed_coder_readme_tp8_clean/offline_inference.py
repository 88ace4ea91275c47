# Imitates ByteDance-Seed/Seed-Coder README.md "Multi-GPU Distributed Serving"
# (LLM(model="ByteDance-Seed/Seed-Coder-8B-Instruct", tensor_parallel_size=8)); the user turns replay on
# and drops the repetition penalty to its neutral value.
from vllm import LLM, SamplingParams

sampling_params = SamplingParams(temperature=0.6, top_p=0.8, top_k=20, repetition_penalty=1.0, max_tokens=512)
llm = LLM(
    model="ByteDance-Seed/Seed-Coder-8B-Instruct",
    tensor_parallel_size=8,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
outputs = llm.generate(["#write a quick sort algorithm."], sampling_params)
