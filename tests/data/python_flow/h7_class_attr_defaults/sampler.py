# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py: request defaults kept
# as class attributes and read when each request's SamplingParams is built.
from vllm import LLM, SamplingParams


class RolloutDefaults:
    TEMPERATURE = 1.0
    TOP_P = 1.0
    TOP_K = -1  # expect: RPL102
    MAX_TOKENS = 2048


class Rollout:
    def __init__(self, model_path: str):
        self.engine = LLM(model=model_path, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def generate_sequences(self, prompts):
        params = SamplingParams(
            temperature=RolloutDefaults.TEMPERATURE,
            top_p=RolloutDefaults.TOP_P,
            top_k=RolloutDefaults.TOP_K,
            max_tokens=RolloutDefaults.MAX_TOKENS,
        )
        return self.engine.generate(prompts, params)


if __name__ == "__main__":
    Rollout("Qwen/Qwen2.5-3B").generate_sequences(["hi"])
