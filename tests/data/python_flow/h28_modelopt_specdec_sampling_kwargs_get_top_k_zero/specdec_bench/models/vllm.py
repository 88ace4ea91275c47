# Imitates NVIDIA/TensorRT-Model-Optimizer examples/specdec_bench/specdec_bench/models/vllm.py (VLLMModel:
# `AsyncEngineArgs(...)`, `AsyncLLM.from_engine_args`, `SamplingParams(... top_k=sampling_kwargs.get("top_k", 0))`,
# max_tokens and stop_token_ids written on the SamplingParams before each request), replay turned on.
import asyncio

from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.inputs import TokensPrompt
from vllm.v1.engine.async_llm import AsyncLLM


class VLLMModel:
    def __init__(self, model_dir, max_concurrent_requests, sampling_kwargs, **kwargs):
        specdec = None
        if kwargs.get("speculative_algorithm") == "EAGLE3":
            specdec = {
                "method": "eagle3",
                "model": kwargs.get("draft_model_dir"),
                "num_speculative_tokens": kwargs.get("speculative_num_steps", 3),
            }
        engine_args = AsyncEngineArgs(
            model=model_dir,
            trust_remote_code=True,
            tensor_parallel_size=kwargs.get("tensor_parallel_size", 1),
            speculative_config=specdec,
            max_num_seqs=max_concurrent_requests,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.model = AsyncLLM.from_engine_args(engine_args)
        self.sampling_kwargs = sampling_kwargs
        self.sampling_config = SamplingParams(
            detokenize=False,
            temperature=sampling_kwargs.get("temperature", 1.0),
            top_p=sampling_kwargs.get("top_p", 1.0),
            top_k=sampling_kwargs.get("top_k", 0),  # expect: RPL102
        )
        self.loop = asyncio.new_event_loop()

    async def run(self, prompt_ids, max_length, end_id, request_id):
        self.sampling_config.max_tokens = max_length
        self.sampling_config.stop_token_ids = [end_id]
        async for output in self.model.generate(
            request_id=str(request_id),
            prompt=TokensPrompt(prompt_token_ids=prompt_ids),
            sampling_params=self.sampling_config,
        ):
            if output.finished:
                return output
