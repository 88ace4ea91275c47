# Imitates NVIDIA-NeMo/Skills/nemo_skills/inference/generate.py: the request made from the helper's
# keywords and sent to the rollout engine
from vllm import LLM, SamplingParams

from rollouts.sampling import reasoning_sampling_kwargs


def main() -> None:
    llm = LLM(model="Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(**reasoning_sampling_kwargs())
    llm.generate(["How many primes are below 100?"], params)


if __name__ == "__main__":
    main()
