# Imitates modelscope/ms-swift swift/rlhf_trainers/rollout_mixin.py (the rollout engine built with extra engine_kwargs)
from vllm import SamplingParams

from swift_vllm_engine import VllmEngine


def build_rollout_engine() -> VllmEngine:
    return VllmEngine(
        "Qwen/Qwen2.5-1.5B-Instruct",
        "qwen2_5",
        max_model_len=4096,
        engine_kwargs={
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
            "hf_overrides": {"use_sliding_window": False},
        },
    )


if __name__ == "__main__":
    engine = build_rollout_engine()
    params = SamplingParams(temperature=0.9, top_k=40, max_tokens=256)
    engine.engine.add_request("0", "Fill in the blank: the sky is ___.", params)
    while engine.engine.has_unfinished_requests():
        for out in engine.engine.step():
            print(out.outputs[0].text)
