# Imitates huggingface/open-r1 scripts/pass_rate_filtering/compute_pass_rate.py (an engine and
# `llm.generate(prompts, sampling_params=...)` over the dataset's prompts).
from specs import TRAIN_SPEC
from vllm import LLM, SamplingParams

llm = LLM(
    model="deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
sampling_params = SamplingParams(**TRAIN_SPEC._asdict())
outputs = llm.generate(["Prove that 2 is prime."], sampling_params=sampling_params)
