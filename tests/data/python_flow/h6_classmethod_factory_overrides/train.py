# Imitates agentica-project/rllm's training entry points: the engine made through the factory with a
# speculative config for faster rollouts
from rl.engine import RolloutEngine


def main() -> None:
    engine = RolloutEngine.create(
        "Qwen/Qwen3-8B",
        speculative_config={
            "method": "ngram",
            "num_speculative_tokens": 3,
            "prompt_lookup_max": 4,
            "enable_adaptive_verification": True,  # expect: RPL002
        },
    )
    engine.rollout(["Prove that sqrt(2) is irrational."])


if __name__ == "__main__":
    main()
