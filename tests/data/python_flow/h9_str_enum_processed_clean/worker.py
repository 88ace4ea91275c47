# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py (the worker builds vllm.LLM from the config)
from dataclasses import asdict

import vllm

from config import VllmGenerationConfig


class VllmWorker:
    def __init__(self, cfg: VllmGenerationConfig):
        self.llm = vllm.LLM(**asdict(cfg))

    def generate(self, prompts: list[str]) -> list[str]:
        params = vllm.SamplingParams(temperature=1.0, top_k=64, max_tokens=1024)
        return [out.outputs[0].text for out in self.llm.generate(prompts, params)]


if __name__ == "__main__":
    worker = VllmWorker(VllmGenerationConfig())
    print(worker.generate(["Solve: 3x + 5 = 20."]))
