# Imitates volcengine/verl/verl/workers/rollout/vllm_rollout/vllm_rollout.py (the engine built from the rollout config)
from dataclasses import asdict

from vllm import LLM, SamplingParams

from rl.config import ReplayRolloutConfig


def make_engine(cfg: ReplayRolloutConfig) -> LLM:
    return LLM(**asdict(cfg))


if __name__ == "__main__":
    llm = make_engine(ReplayRolloutConfig(max_model_len=8192))
    llm.generate(["1, 1, 2, 3, 5,"], SamplingParams(temperature=1.0, top_k=50, max_tokens=16))
