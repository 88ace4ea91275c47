# Imitates volcengine/verl verl/trainer/ppo/ray_trainer.py (_validate: the rollout generates in validation mode)
from vllm_rollout import vLLMRollout


def main():
    rollout = vLLMRollout("Qwen/Qwen2.5-0.5B-Instruct")
    rollout.generate_sequences(["What is 6 * 7?"], validate=True)


if __name__ == "__main__":
    main()
