from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer


def reward_len(completions, **kwargs):
    return [-abs(200 - len(c)) for c in completions]


dataset = load_dataset("trl-lib/tldr", split="train")

config = GRPOConfig(output_dir="grpo-out", use_vllm=True, vllm_mode="server",
    vllm_server_base_url="http://localhost:8000",
    top_k=50,
    generation_kwargs={"presence_penalty": 0.2},
)
trainer = GRPOTrainer(model="Qwen/Qwen3-1.7B", reward_funcs=reward_len, args=config, train_dataset=dataset)
trainer.train()
