# Imitates modelscope/ms-swift swift/cli/infer.py (the CLI entry that builds the engine and runs a batch)
from swift_infer.vllm_engine import VllmEngine

if __name__ == "__main__":
    engine = VllmEngine("Qwen/Qwen2.5-1.5B-Instruct", max_model_len=4096)
    print(engine.infer(["Write a haiku about rollouts."]))
