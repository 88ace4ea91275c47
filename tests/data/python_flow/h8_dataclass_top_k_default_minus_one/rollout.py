# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_rollout.py: SamplingParams read from the config object
from configs import RolloutConfig
from vllm import LLM, SamplingParams


class Rollout:
    def __init__(self, config: RolloutConfig):
        self.config = config
        self.engine = LLM(config.model, return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def generate_sequences(self, prompts):
        cfg = self.config
        params = SamplingParams(temperature=cfg.temperature, top_p=cfg.top_p, top_k=cfg.top_k, max_tokens=cfg.response_length)
        return self.engine.generate(prompts, params)


if __name__ == "__main__":
    Rollout(RolloutConfig(temperature=0.8)).generate_sequences(["hello"])
