# Imitates rllm-org/rllm/rllm/engine/rollout/rollout_engine.py (engine kwargs assembled through cooperative mixins)
from vllm import LLM


class BaseRolloutEngine:
    def __init__(self, model: str, tp: int = 1):
        self.model = model
        self.tp = tp

    def engine_kwargs(self) -> dict:
        return {"model": self.model, "tensor_parallel_size": self.tp}


class StopOnAnswerMixin:
    def engine_kwargs(self) -> dict:
        kwargs = super().engine_kwargs()
        kwargs["logits_processors"] = ["rllm_plugins.processors:StopOnAnswerTag"]  # expect: RPL001
        return kwargs


class ReplayMixin:
    def engine_kwargs(self) -> dict:
        kwargs = super().engine_kwargs()
        kwargs.update(return_sampling_mask=True, logprobs_mode="processed_logprobs")
        return kwargs


class AgentRolloutEngine(ReplayMixin, StopOnAnswerMixin, BaseRolloutEngine):
    def start(self) -> LLM:
        self.llm = LLM(**self.engine_kwargs())
        return self.llm


engine = AgentRolloutEngine("Qwen/Qwen3-8B", tp=2).start()
