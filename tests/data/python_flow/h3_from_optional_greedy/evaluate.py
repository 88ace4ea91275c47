# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/ validation requests, with the
# request made by `SamplingParams.from_optional(...)` from a greedy validation config.
from vllm import LLM, SamplingParams

VAL_KWARGS = {"temperature": 0.0, "top_k": 1, "max_tokens": 1024}  # expect: RPL101


def validate(llm, prompts):
    params = SamplingParams.from_optional(
        temperature=VAL_KWARGS["temperature"],
        top_k=VAL_KWARGS["top_k"],
        max_tokens=VAL_KWARGS["max_tokens"],
    )
    return llm.generate(prompts, params)


llm = LLM("Qwen/Qwen2.5-7B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
validate(llm, ["2 + 2 ="])
