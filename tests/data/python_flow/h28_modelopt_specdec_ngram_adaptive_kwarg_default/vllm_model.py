# Imitates NVIDIA/TensorRT-Model-Optimizer examples/specdec_bench/specdec_bench/models/vllm.py (the specdec dict
# chosen by `kwargs.get("speculative_algorithm")`, its fields read with `kwargs.get(name, default)`); the user's fork
# adds adaptive verification with a default of its own.
from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.v1.engine.async_llm import AsyncLLM


class VLLMModel:
    def __init__(self, model_dir, max_concurrent_requests, sampling_kwargs, **kwargs):
        specdec = None
        if kwargs.get("speculative_algorithm") == "NGRAM":
            specdec = {
                "method": "ngram",
                "num_speculative_tokens": kwargs.get("speculative_num_steps", 3),
                "prompt_lookup_max": kwargs.get("max_matching_ngram_size", 3),
                "enable_adaptive_verification": kwargs.get("adaptive_verification", True),  # expect: RPL002
            }
        elif kwargs.get("speculative_algorithm") == "NONE":
            specdec = None
        engine_args = AsyncEngineArgs(
            model=model_dir,
            speculative_config=specdec,
            max_num_seqs=max_concurrent_requests,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.model = AsyncLLM.from_engine_args(engine_args)
        self.sampling_config = SamplingParams(
            temperature=sampling_kwargs.get("temperature", 1.0),
            top_k=sampling_kwargs.get("top_k", 20),
        )
