# Imitates NVIDIA-NeMo/RL examples/run_grpo.py (policy generation and validation workers)
from vllm_worker import VllmEvalWorker, VllmGenerationWorker


def main():
    policy_generation = VllmGenerationWorker("Qwen/Qwen2.5-1.5B")
    val_generation = VllmEvalWorker("Qwen/Qwen2.5-1.5B", max_model_len=2048)
    print(policy_generation.generate(["2 + 2 ="]), val_generation.generate(["3 + 3 ="]))


if __name__ == "__main__":
    main()
