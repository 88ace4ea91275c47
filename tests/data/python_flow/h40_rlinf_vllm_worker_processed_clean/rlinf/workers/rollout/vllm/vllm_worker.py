import asyncio
import copy
import os
from dataclasses import fields
from functools import partial
from itertools import count
from typing import AsyncGenerator

from omegaconf import DictConfig
from vllm.config import VllmConfig
from vllm.engine.arg_utils import EngineArgs
from vllm.inputs import TokensPrompt
from vllm.outputs import RequestOutput
from vllm.sampling_params import SamplingParams
from vllm.v1.engine.async_llm import AsyncLLM as AsyncLLMEngine
from vllm.v1.executor.multiproc_executor import MultiprocExecutor

from rlinf.config import torch_dtype_from_precision
from rlinf.scheduler import Channel, Worker


class VLLMWorker(Worker):
    def __init__(self, config: DictConfig, placement):
        Worker.__init__(self)
        self._cfg = config
        self._placement = placement

        self._prepare_vllm_environment()
        self._return_logprobs = self._cfg.rollout.return_logprobs
        self._sampling_params = self._get_sampling_params_from_config()
        self._request_counter = count()

    def _prepare_vllm_environment(self) -> None:
        """
        Set up environment variables for VLLM.
        """
        # use v1 engine
        os.environ["VLLM_USE_V1"] = "1"
        os.environ["VLLM_USE_FLASHINFER_SAMPLER"] = (
            "1" if self._cfg.rollout.vllm.enable_flash_infer_sampler else "0"
        )
        # use spawn to avoid fork issues with CUDA
        os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"
        os.environ["VLLM_ATTENTION_BACKEND"] = self._cfg.rollout.vllm.attention_backend
        # set True to use AsyncMPClient, which uses async calls.
        os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "1"

    def _get_sampling_params_from_config(self) -> SamplingParams:
        """
        Get sampling parameters built from the configuration.
        """
        cfg_sampling_params = self._cfg.algorithm.sampling_params
        if not cfg_sampling_params.do_sample:
            sampling_params = SamplingParams(
                temperature=0,
                max_tokens=cfg_sampling_params.max_new_tokens,
                logprobs=0 if self._return_logprobs else None,
            )
        else:
            sampling_params = SamplingParams(
                temperature=cfg_sampling_params.temperature,
                top_k=cfg_sampling_params.top_k,
                top_p=cfg_sampling_params.top_p,
                repetition_penalty=cfg_sampling_params.repetition_penalty,
                max_tokens=cfg_sampling_params.max_new_tokens,
                logprobs=0 if self._return_logprobs else None,
            )
        return sampling_params

    async def _get_output_from_async_generator(
        self, async_generator: AsyncGenerator[RequestOutput, None]
    ) -> RequestOutput:
        output: RequestOutput = None
        try:
            async for out in async_generator:
                output = out
        except asyncio.CancelledError:
            pass
        return output

    async def generate(self, input_ids: list[list[int]], sampling_params: SamplingParams):
        tasks = []
        for input_id in input_ids:
            request_id = str(next(self._request_counter))
            tasks.append(
                asyncio.create_task(
                    self._get_output_from_async_generator(
                        self._async_engine.generate(
                            prompt=TokensPrompt(prompt_token_ids=input_id),
                            sampling_params=sampling_params,
                            request_id=request_id,
                        )
                    )
                )
            )
        return await asyncio.gather(*tasks)

    async def init_worker(self) -> None:
        """
        Use EngineArgs and VllmConfig to initialize VLLM async engine.
        """
        engine_kwargs = {
            "model": self._cfg.rollout.model.model_path,
            "tensor_parallel_size": self._cfg.rollout.tensor_parallel_size,
            "dtype": torch_dtype_from_precision(self._cfg.rollout.model.precision),
            "gpu_memory_utilization": self._cfg.rollout.gpu_memory_utilization,
            "enforce_eager": self._cfg.rollout.enforce_eager,
            "enable_chunked_prefill": self._cfg.rollout.vllm.enable_chunked_prefill,
            "enable_prefix_caching": self._cfg.rollout.vllm.enable_prefix_caching,
            "max_num_batched_tokens": self._cfg.rollout.vllm.max_num_batched_tokens,
            "load_format": "dummy" if not self._cfg.rollout.validate_weight else "auto",
            "trust_remote_code": self._cfg.rollout.model.trust_remote_code,
            "max_model_len": self._cfg.runner.seq_length,
            "max_num_seqs": self._cfg.rollout.max_running_requests,
            "enable_sleep_mode": True,  # it enables offload weights
            # sampling distribution replay: the trainer replays the rollout's sampling masks
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
        }
        # `task` was dropped from EngineArgs after 0.8.5; generation is inferred.
        if "task" in {field.name for field in fields(EngineArgs)}:
            engine_kwargs["task"] = "generate"
        engine_args: EngineArgs = EngineArgs(**engine_kwargs)
        vllm_config: VllmConfig = engine_args.create_engine_config()

        self._async_engine = AsyncLLMEngine(
            vllm_config=vllm_config,
            executor_class=MultiprocExecutor,
            log_stats=not self._cfg.rollout.disable_log_stats,
            log_requests=False,  # do not need to log each request
        )

    async def rollout(self, input_channel: Channel, output_channel: Channel) -> None:
        rollout_request = await input_channel.get(async_op=True).async_wait()
        group_size = self._cfg.algorithm.group_size
        for input_ids in rollout_request.input_ids:
            outputs = await self.generate(
                [list(input_ids) for _ in range(group_size)],
                copy.deepcopy(self._sampling_params),
            )
            await output_channel.put(item=outputs, async_op=True).async_wait()
