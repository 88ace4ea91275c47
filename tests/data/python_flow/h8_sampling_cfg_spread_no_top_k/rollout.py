# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ppo_utils/experience_maker.py: generate_kwargs spread into SamplingParams
from vllm import LLM, SamplingParams

SAMPLING_CFG = {
    "temperature": 1.0,
    "top_p": 1.0,
    "max_tokens": 1024,
    "skip_special_tokens": False,
}


def build_engine(model_path):
    return LLM(model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs", seed=42)


def rollout(llm, prompts, sampling_cfg):
    params = SamplingParams(**sampling_cfg)  # expect: RPL102 "top_k > 0"
    return llm.generate(prompts, params)


if __name__ == "__main__":
    engine = build_engine("Qwen/Qwen2.5-7B-Instruct")
    rollout(engine, ["1+1="], SAMPLING_CFG)
