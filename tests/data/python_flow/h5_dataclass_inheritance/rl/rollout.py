# Imitates volcengine/verl/verl/workers/rollout/vllm_rollout/vllm_rollout.py (the engine built from the rollout config)
from dataclasses import asdict

from vllm import LLM

from rl.config import ReplayRolloutConfig


def make_engine(cfg: ReplayRolloutConfig) -> LLM:
    kwargs = asdict(cfg)
    kwargs.update(kwargs.pop("extra"))
    return LLM(**kwargs)


if __name__ == "__main__":
    make_engine(ReplayRolloutConfig(max_model_len=8192))
