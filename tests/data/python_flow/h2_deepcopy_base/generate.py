# Imitates hiyouga/LLaMA-Factory src/llamafactory/chat/vllm_engine.py: a module-level default
# dict copied with `copy.deepcopy` and then mutated key by key before `AsyncEngineArgs(**...)`.
import copy

from vllm import AsyncEngineArgs, AsyncLLMEngine

DEFAULT_ENGINE_ARGS = {
    "trust_remote_code": True,
    "max_model_len": 4096,
    "tensor_parallel_size": 1,
    "logprobs_mode": "processed_logprobs",
}


class VllmEngine:
    def __init__(self, model_name_or_path, infer_dtype="bfloat16"):
        engine_args = copy.deepcopy(DEFAULT_ENGINE_ARGS)
        engine_args["model"] = model_name_or_path
        engine_args["dtype"] = infer_dtype
        engine_args["return_sampling_mask"] = True
        engine_args.update({"logits_processors": ["llamafactory.extras.RepetitionGuard"]})  # expect: RPL001
        self.model = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(**engine_args))


engine = VllmEngine("Qwen/Qwen3-8B")
