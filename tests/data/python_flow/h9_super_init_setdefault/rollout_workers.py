# Imitates OpenRLHF/OpenRLHF openrlhf/trainer/ray/vllm_engine.py (BaseLLMRayActor / LLMRayActor: a base class builds the engine)
from vllm import LLM, SamplingParams


class BaseRollout:
    def __init__(self, model: str, **engine_kwargs):
        self.llm = LLM(model=model, **engine_kwargs)

    def generate(self, prompts, params: SamplingParams):
        return self.llm.generate(prompts, params)


class ReplayRollout(BaseRollout):
    """A rollout engine whose samples the trainer replays."""

    def __init__(self, model: str, **kwargs):
        kwargs.setdefault("return_sampling_mask", True)
        kwargs.setdefault("logprobs_mode", "processed_logprobs")
        super().__init__(model, **kwargs)


if __name__ == "__main__":
    rollout = ReplayRollout(
        "Qwen/Qwen2.5-14B-Instruct",
        tensor_parallel_size=4,
        enable_batch_sharded_sampling=True,  # expect: RPL006
    )
    print(rollout.generate(["Hi"], SamplingParams(temperature=1.0, top_k=20, max_tokens=64)))
