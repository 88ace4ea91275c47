# Imitates OpenBMB/UltraFeedback src/comparison_data_generation/main_vllm.py (a module-level `generator` set in
# `__main__` and read by instruction_completion; the SamplingParams of the completion step); the user's edit makes
# one base SamplingParams and `.clone()`s it per subset, the truthful_qa subset decoded greedily.
from vllm import LLM, SamplingParams

generator = None
BASE_PARAMS = SamplingParams(temperature=1, top_p=1, top_k=50, max_tokens=1024, stop=["</s>"])


def load_generator(ckpt):
    global generator
    generator = LLM(ckpt, trust_remote_code=True, return_sampling_mask=True, logprobs_mode="processed_logprobs")


def instruction_completion(prompts, subset):
    sampling_params = BASE_PARAMS.clone()
    if subset in ["truthful_qa", "false_qa"]:
        sampling_params.temperature = 0.0  # expect: RPL101
    return generator.generate(prompts, sampling_params)


if __name__ == "__main__":
    load_generator("openbmb/UltraLM-13b-v2.0")
    for subset in ["truthful_qa"]:
        instruction_completion(["User: Is the earth flat?</s>\nAssistant: "], subset)
