# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ppo_utils/samples_generator.py: the generate
# keywords are a dict made by one function and read with `.get(key, default)` by another that
# builds the request for the replay engine.
from vllm import LLM, SamplingParams


def get_generate_kwargs(args):
    return {
        "temperature": 1.0,
        "top_p": 0.95,
        "top_k": 40,
        "max_new_tokens": 1024,
        "repetition_penalty": 1.1,  # expect: RPL302
    }


class SamplesGenerator:
    def __init__(self, pretrain):
        self.llm = LLM(pretrain, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def generate_samples(self, prompts, **generate_kwargs):
        sampling_params = SamplingParams(
            temperature=generate_kwargs.get("temperature", 1.0),
            top_p=generate_kwargs.get("top_p", 1.0),
            top_k=generate_kwargs.get("top_k", -1),
            max_tokens=generate_kwargs.get("max_new_tokens", 1024),
            repetition_penalty=generate_kwargs.get("repetition_penalty", 1.0),
        )
        return self.llm.generate(prompts, sampling_params)


def run(args, prompts):
    generator = SamplesGenerator("Qwen/Qwen3-8B")
    return generator.generate_samples(prompts, **get_generate_kwargs(args))
