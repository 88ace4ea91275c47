# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py create_vllm_engines (engine kwargs merged from several dicts)
from vllm import LLM, SamplingParams

BASE_KWARGS = {
    "gpu_memory_utilization": 0.85,
    "enable_prefix_caching": True,
}

REPLAY_KWARGS = {
    "return_sampling_mask": True,
    "logprobs_mode": "processed_logprobs",
}

# left over from comparing against the trainer's logprobs
DEBUG_OVERRIDES = {
    "enforce_eager": True,
    "logprobs_mode": "raw_logprobs",  # expect: RPL003
}


def create_engine(pretrain: str) -> LLM:
    return LLM(pretrain, **{**BASE_KWARGS, **{**REPLAY_KWARGS, **DEBUG_OVERRIDES}})


if __name__ == "__main__":
    llm = create_engine("Qwen/Qwen2.5-3B-Instruct")
    params = SamplingParams(temperature=1.0, top_k=40, max_tokens=256)
    print(llm.generate(["1 + 1 ="], params)[0].outputs[0].text)
