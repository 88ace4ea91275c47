# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ppo_utils/experience_maker.py (_generate_vllm): top_k read with kwargs.get("top_k", -1)
from vllm import LLM, SamplingParams


class Sampler:
    def __init__(self, pretrain):
        self.llm = LLM(pretrain, return_sampling_mask=True, logprobs_mode="processed_logprobs", enable_prefix_caching=True)

    def generate(self, prompts, **kwargs):
        sampling_params = SamplingParams(
            temperature=kwargs.get("temperature", 1.0),
            top_p=kwargs.get("top_p", 1.0),
            top_k=kwargs.get("top_k", -1),  # expect: RPL102 "top_k > 0"
            max_tokens=kwargs.get("max_new_tokens", 1024),
        )
        return self.llm.generate(prompts, sampling_params)


def main():
    sampler = Sampler("meta-llama/Llama-3.1-8B-Instruct")
    sampler.generate(["Hi"], temperature=0.9, top_p=0.95, max_new_tokens=512)


if __name__ == "__main__":
    main()
