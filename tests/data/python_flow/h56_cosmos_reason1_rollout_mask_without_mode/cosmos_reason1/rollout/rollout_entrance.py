# Imitates nvidia-cosmos/cosmos-reason1 cosmos_reason1/rollout/rollout_entrance.py (trimmed: one replica, default config)
from transformers import AutoTokenizer

from cosmos_reason1.policy.config import Config
from cosmos_reason1.rollout.vllm_rollout.vllm_rollout import vLLMRollout


def run_rollout():
    config = Config()
    tokenizer = AutoTokenizer.from_pretrained(config.policy.model_name_or_path)
    rollout = vLLMRollout(config, tokenizer, seed=42)
    completions = rollout.rollout_generation(["Describe what happens in the video."])
    val_completions = rollout.rollout_generation(["Is the car about to collide?"], is_validation=True)
    print(completions, val_completions)


if __name__ == "__main__":
    run_rollout()
