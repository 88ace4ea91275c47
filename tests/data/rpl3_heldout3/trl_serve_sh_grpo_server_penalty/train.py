from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

config = GRPOConfig(
    output_dir="out",
    use_vllm=True,
    vllm_mode="server",
    top_k=50,
    repetition_penalty=1.15,
)
trainer = GRPOTrainer(
    model="Qwen/Qwen3-4B",
    reward_funcs=lambda completions, **kw: [len(c) for c in completions],
    args=config,
    train_dataset=load_dataset("trl-lib/tldr", split="train"),
)
trainer.train()
