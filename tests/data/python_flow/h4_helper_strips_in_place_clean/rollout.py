# Imitates Unakar/Logic-RL/verl/utils/vllm_kwargs.py (a helper makes the shared settings replay-safe in place)
from vllm import LLM, SamplingParams

BASE_KWARGS = {
    "model": "Qwen/Qwen2.5-7B-Instruct-1M",
    "max_model_len": 8192,
    "logits_processors": ["logic_rl.processors:FormatGuard"],
}


def make_replay_safe(kwargs: dict) -> None:
    kwargs.pop("logits_processors", None)
    kwargs["return_sampling_mask"] = True
    kwargs["logprobs_mode"] = "processed_logprobs"


def build_engine() -> LLM:
    kwargs = dict(BASE_KWARGS)
    make_replay_safe(kwargs)
    return LLM(**kwargs)


if __name__ == "__main__":
    llm = build_engine()
    llm.generate(["<think>"], SamplingParams(temperature=1.0, top_k=50, max_tokens=512))
