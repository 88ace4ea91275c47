# Imitates modelscope/ms-swift swift/llm/infer/infer_engine/vllm_engine.py: the engine's keyword
# arguments are collected by a helper that walks a tuple of (name, value) pairs.
from vllm import LLM, SamplingParams

_ROLLOUT_FLAGS = (
    ("enforce_eager", False),
    ("enable_prefix_caching", True),
    ("return_sampling_mask", True),  # expect: RPL003
)


def prepare_engine_kwargs(model_dir: str, gpu_memory_utilization: float = 0.85) -> dict:
    engine_kwargs = {"model": model_dir, "gpu_memory_utilization": gpu_memory_utilization}
    for key, value in _ROLLOUT_FLAGS:
        engine_kwargs[key] = value
    return engine_kwargs


def main() -> None:
    llm = LLM(**prepare_engine_kwargs("Qwen/Qwen2.5-7B-Instruct"))
    outputs = llm.generate(["1 + 1 ="], SamplingParams(temperature=1.0, top_k=40, max_tokens=16))
    print(outputs[0].outputs[0].text)


if __name__ == "__main__":
    main()
