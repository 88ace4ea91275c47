# Imitates PeterGriffinJin/Search-R1 search_r1/llm_agent/generation.py (`LLMGenerationManager.run_llm_loop`), the rollout engine an AsyncLLM
import asyncio
import uuid
from pathlib import Path

import yaml
from vllm import AsyncEngineArgs, SamplingParams
from vllm.v1.engine.async_llm import AsyncLLM

CONFIG_PATH = Path(__file__).resolve().parents[2] / "config" / "rollout.yaml"


class LLMGenerationManager:
    def __init__(self, config_path=CONFIG_PATH):
        with open(config_path) as f:
            self.config = yaml.safe_load(f)
        self.engine = AsyncLLM.from_engine_args(AsyncEngineArgs(**self.config["engine"]))
        self.sampling_params = SamplingParams(**self.config["sampling"])

    async def _generate(self, prompt: str):
        final = None
        async for out in self.engine.generate(prompt, self.sampling_params, request_id=str(uuid.uuid4())):
            final = out
        return final.outputs[0]

    async def run_llm_loop(self, prompts, max_turns: int = 2):
        for _ in range(max_turns):
            outputs = await asyncio.gather(*(self._generate(p) for p in prompts))
            prompts = [p + o.text for p, o in zip(prompts, outputs)]
        return prompts


if __name__ == "__main__":
    manager = LLMGenerationManager()
    print(asyncio.run(manager.run_llm_loop(["Question: who wrote Hamlet?\n"])))
