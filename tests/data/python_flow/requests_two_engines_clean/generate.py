# Imitates huggingface/trl trl/trainer/grpo_trainer.py with a reference engine: greedy requests
# go to the engine without replay, bounded ones to the replay engine: clean.
from vllm import LLM, SamplingParams

GREEDY = SamplingParams(temperature=0.0)
SAMPLED = SamplingParams(temperature=1.0, top_k=50)


def run(model, prompts):
    policy = LLM(model, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    reference = LLM(model, enforce_eager=True)
    return policy.generate(prompts, SAMPLED), reference.generate(prompts, GREEDY)
