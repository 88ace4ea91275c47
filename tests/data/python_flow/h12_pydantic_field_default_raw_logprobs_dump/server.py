# Imitates PrimeIntellect-ai/verifiers verifiers/legacy/serve/server/env_worker.py (a worker that
# takes its settings as a pydantic model and starts its client/engine from them).
from engine_config import VLLMEngineConfig
from vllm import LLM, SamplingParams


class EnvWorker:
    def __init__(self, config: VLLMEngineConfig | None = None):
        self.config = config or VLLMEngineConfig()
        self.llm = LLM(**self.config.model_dump())

    def rollout(self, prompts):
        return self.llm.generate(prompts, SamplingParams(temperature=0.8, top_k=40, max_tokens=512))


if __name__ == "__main__":
    EnvWorker().rollout(["What is 7 * 6?"])
