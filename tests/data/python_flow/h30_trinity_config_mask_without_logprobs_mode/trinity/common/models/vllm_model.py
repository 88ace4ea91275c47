"""A wrapper around the vllm.AsyncEngine to handle async requests."""

# Imitates modelscope/Trinity-RFT trinity/common/models/vllm_model.py (vLLMRolloutModel: a greedy default request cloned per call).
import os
from typing import Any, Dict, List

import vllm
from vllm.sampling_params import RequestOutputKind

from trinity.common.config import InferenceModelConfig


class vLLMRolloutModel:
    def __init__(self, config: InferenceModelConfig) -> None:
        self.config = config
        if config.tensor_parallel_size != 1:
            os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"
            os.environ["VLLM_RAY_BUNDLE_INDICES"] = config.bundle_indices
        if config.use_v1:
            os.environ["VLLM_RAY_PER_WORKER_GPUS"] = str(int(config.use_v1))
            os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"
            os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"
        self.default_sampling_params = vllm.SamplingParams(
            n=1,
            temperature=1.0,
            top_k=20,
            max_tokens=config.max_response_tokens,
            min_tokens=config.min_response_tokens,
            skip_special_tokens=True,
            include_stop_str_in_output=False,
            output_kind=RequestOutputKind.FINAL_ONLY,
            logprobs=0,
            ignore_eos=config.ignore_eos,
        )
        self.request_id = 0
        max_model_len = config.max_model_len
        engine_args = vllm.AsyncEngineArgs(
            model=config.model_path,
            enforce_eager=config.enforce_eager,
            tensor_parallel_size=config.tensor_parallel_size,
            seed=config.seed,
            distributed_executor_backend=("uni" if config.tensor_parallel_size == 1 else "ray"),
            max_model_len=max_model_len,
            enable_prefix_caching=config.enable_prefix_caching,
            dtype=config.dtype,
            trust_remote_code=True,
            gpu_memory_utilization=config.gpu_memory_utilization,
            enable_chunked_prefill=config.enable_chunked_prefill,
            enable_lora=config.enable_lora,
            return_sampling_mask=config.return_sampling_mask,
            **self.config.lora_kwargs,
        )
        engine_args.enable_log_requests = False
        self.async_llm = vllm.AsyncLLMEngine.from_engine_args(engine_args)
        self.tokenizer = None

    async def chat(self, messages: List[Dict], **kwargs) -> Any:
        if self.tokenizer is None:
            self.tokenizer = self.async_llm.get_tokenizer()
        prompt = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return await self.generate(prompt=prompt, **kwargs)

    async def generate(self, prompt: str, **kwargs) -> Any:
        return await self._generate_internal(prompt=prompt, **kwargs)

    async def _generate_internal(self, prompt: Any, **kwargs) -> Any:
        self.request_id += 1
        stream = self.async_llm.generate(
            request_id=str(self.request_id),
            prompt=prompt,
            sampling_params=self._create_sampling_params(**kwargs),
        )
        async for request_output in stream:
            if request_output.finished:
                return request_output
        raise RuntimeError("[vLLM] The request is not finished. This should not happen.")

    def _create_sampling_params(self, **kwargs):
        """Create sampling params."""
        if len(kwargs) == 0:
            return self.default_sampling_params
        params = self.default_sampling_params.clone()
        for k, v in kwargs.items():
            if hasattr(params, k):
                setattr(params, k, v)
        return params
