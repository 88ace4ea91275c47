from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

dataset = load_dataset("trl-lib/tldr", split="train")

config = GRPOConfig(
    output_dir="grpo-out",
    use_vllm=True,
    vllm_mode="server",
    repetition_penalty=1.2,
    top_k=50,
)
trainer = GRPOTrainer(
    model="Qwen/Qwen2.5-1.5B-Instruct",
    reward_funcs="trl-lib/accuracy_reward",
    args=config,
    train_dataset=dataset,
)
trainer.train()
