# Imitates 0russwest0/Agent-R1/agent_r1/src/agent_rollout.py
from vllm import LLM, SamplingParams

from agent_r1.engine_config import build_rollout_kwargs


class ToolRollout:
    def __init__(self, model_path: str):
        engine_kwargs, self.sampling_kwargs = build_rollout_kwargs(model_path)
        self.llm = LLM(**engine_kwargs)

    def rollout(self, prompts: list[str]):
        params = SamplingParams(**self.sampling_kwargs)  # expect: RPL102
        return self.llm.generate(prompts, params)


if __name__ == "__main__":
    ToolRollout("Qwen/Qwen2.5-3B-Instruct").rollout(["Search for the capital of Peru."])
