from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

dataset = load_dataset("trl-lib/tldr", split="train")

config = GRPOConfig(
    output_dir="grpo-colocate",
    use_vllm=True,
    vllm_mode="colocate",
    top_k=50,
    repetition_penalty=1.2,
)
trainer = GRPOTrainer(
    model="Qwen/Qwen3-1.7B",
    reward_funcs=lambda completions, **kw: [len(c) / 100 for c in completions],
    args=config,
    train_dataset=dataset,
)
trainer.train()
