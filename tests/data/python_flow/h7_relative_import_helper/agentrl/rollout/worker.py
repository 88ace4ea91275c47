from vllm import LLM

from ..engine.args import build_engine_kwargs


class RolloutWorker:
    def __init__(self, model_path: str):
        self.llm = LLM(**build_engine_kwargs(model_path, tp=2))
