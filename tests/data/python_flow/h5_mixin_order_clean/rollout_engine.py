# Imitates rllm-org/rllm/rllm/engine/rollout/rollout_engine.py (cooperative mixins; the replay mixin runs last and drops the processors)
from vllm import LLM, SamplingParams


class BaseRolloutEngine:
    def __init__(self, model: str, tp: int = 1):
        self.model = model
        self.tp = tp

    def engine_kwargs(self) -> dict:
        return {"model": self.model, "tensor_parallel_size": self.tp}


class StopOnAnswerMixin:
    def engine_kwargs(self) -> dict:
        kwargs = super().engine_kwargs()
        kwargs["logits_processors"] = ["rllm_plugins.processors:StopOnAnswerTag"]
        return kwargs


class ReplayMixin:
    def engine_kwargs(self) -> dict:
        kwargs = super().engine_kwargs()
        kwargs.pop("logits_processors", None)  # vLLM refuses custom processors next to replay
        kwargs.update(return_sampling_mask=True, logprobs_mode="processed_logprobs")
        return kwargs


class AgentRolloutEngine(ReplayMixin, StopOnAnswerMixin, BaseRolloutEngine):
    def start(self) -> LLM:
        self.llm = LLM(**self.engine_kwargs())
        return self.llm


engine = AgentRolloutEngine("Qwen/Qwen3-8B", tp=2).start()
engine.generate(["<question>2+3?</question>"], SamplingParams(temperature=0.7, top_k=20, max_tokens=64))
