# Imitates pytorch/rl torchrl/modules/llm/backends/vllm/vllm_async.py (_AsyncLLMEngine, AsyncVLLM, make_async_vllm_engine), trimmed.
"""Async vLLM engine implementation for efficient batching and inference."""

from __future__ import annotations

import asyncio
import os
import random
import uuid
from typing import Any

import ray
from ray.util.placement_group import placement_group
from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy
from torchrl._utils import logger as torchrl_logger
from vllm import AsyncEngineArgs, SamplingParams

TIMEOUT_SECONDS = os.getenv("TORCHRL_VLLM_TIMEOUT_SECONDS", 300)


class _AsyncLLMEngine:
    """Extended AsyncLLMEngine with TorchRL-specific features."""

    def __init__(
        self,
        *,
        engine_args: AsyncEngineArgs,
        bundle_indices: list[int] | None = None,
        enable_prefix_caching: bool = False,
    ):
        from vllm import AsyncLLMEngine

        if bundle_indices is not None:
            os.environ["VLLM_RAY_BUNDLE_INDICES"] = ",".join(map(str, bundle_indices))

        engine_args.enable_prefix_caching = enable_prefix_caching
        self.engine = AsyncLLMEngine.from_engine_args(engine_args)
        self.bundle_indices = bundle_indices

    def ready(self) -> bool:
        return True

    async def generate(self, prompts: Any = None, sampling_params: SamplingParams | None = None):
        if sampling_params is None:
            sampling_params = SamplingParams()

        async def _gen_one(prompt):
            final = None
            async for output in self.engine.generate(
                prompt=prompt, sampling_params=sampling_params, request_id=str(uuid.uuid4())
            ):
                if output.finished:
                    final = output
            return final

        if not isinstance(prompts, (list, tuple)):
            return await _gen_one(prompts)
        return await asyncio.gather(*[_gen_one(p) for p in prompts])


def _gpus_per_replica(engine_args: AsyncEngineArgs) -> int:
    return (
        engine_args.tensor_parallel_size
        * getattr(engine_args, "data_parallel_size", 1)
        * getattr(engine_args, "pipeline_parallel_size", 1)
    )


_AsyncLLMEngineActor = ray.remote(num_cpus=0, num_gpus=0)(_AsyncLLMEngine)


class AsyncVLLM:
    """A service that manages multiple async vLLM engine actors for distributed inference."""

    def __init__(
        self,
        engine_args: AsyncEngineArgs,
        num_replicas: int = 1,
        actor_class=None,
        enable_prefix_caching: bool = False,
    ):
        engine_args.enable_prefix_caching = enable_prefix_caching

        self.engine_args = engine_args
        self.num_replicas = num_replicas
        self.actor_class = actor_class or _AsyncLLMEngineActor
        self.actors: list = []
        self._service_id = uuid.uuid4().hex[:8]

    def _launch(self):
        for i in range(self.num_replicas):
            num_gpus = _gpus_per_replica(self.engine_args)
            bundles = [{"GPU": 1.0, "CPU": 1.0} for _ in range(num_gpus)]
            pg = placement_group(bundles, strategy="PACK", name=f"vllm-replica-{self._service_id}-{i}")
            ray.get(pg.ready(), timeout=180)

            bundle_indices = list(range(num_gpus)) if num_gpus > 1 else None
            scheduling_strategy = PlacementGroupSchedulingStrategy(
                placement_group=pg,
                placement_group_capture_child_tasks=True,
                placement_group_bundle_index=0,
            )
            actor = self.actor_class.options(
                name=f"async-vllm-replica-{self._service_id}-{i}",
                namespace="torchrl_vllm",
                scheduling_strategy=scheduling_strategy,
                num_gpus=0,
                num_cpus=0,
            ).remote(
                engine_args=self.engine_args,
                bundle_indices=bundle_indices,
                enable_prefix_caching=self.engine_args.enable_prefix_caching,
            )
            self.actors.append(actor)

        ray.get([actor.ready.remote() for actor in self.actors], timeout=TIMEOUT_SECONDS)
        torchrl_logger.info(f"Successfully launched {len(self.actors)} async vLLM engine actors")

    @classmethod
    def launch(cls, engine_args: AsyncEngineArgs, num_replicas: int = 1) -> AsyncVLLM:
        service = cls(engine_args, num_replicas)
        service._launch()
        return service

    @classmethod
    def from_pretrained(
        cls,
        model_name: str,
        num_devices: int | None = None,
        num_replicas: int = 1,
        verbose: bool = True,
        enable_fp32_output: bool = False,
        **kwargs,
    ) -> AsyncVLLM:
        return make_async_vllm_engine(
            model_name=model_name,
            num_devices=num_devices,
            num_replicas=num_replicas,
            verbose=verbose,
            enable_fp32_output=enable_fp32_output,
            **kwargs,
        )

    def generate(self, prompts: Any = None, sampling_params: SamplingParams | None = None):
        actor = self.actors[random.randint(0, len(self.actors) - 1)]
        return ray.get(actor.generate.remote(prompts, sampling_params))


def make_async_vllm_engine(
    *,
    model_name: str,
    num_devices: int | None = None,
    num_replicas: int = 1,
    verbose: bool = True,
    enable_fp32_output: bool = False,
    tensor_parallel_size: int | None = None,
    data_parallel_size: int | None = None,
    pipeline_parallel_size: int | None = None,
    **kwargs,
) -> AsyncVLLM:
    """Create an async vLLM engine service.

    **kwargs: Additional arguments passed to AsyncEngineArgs.
    """
    if enable_fp32_output:
        os.environ["VLLM_ENABLE_FP32_OUTPUT"] = "1"

    if verbose:
        import logging

        logging.getLogger("vllm").setLevel(logging.INFO)

    if tensor_parallel_size is None:
        if num_devices is None:
            tensor_parallel_size = 1
        else:
            tensor_parallel_size = num_devices
    elif num_devices is not None and tensor_parallel_size != num_devices:
        raise ValueError(f"tensor_parallel_size must be set to {num_devices}")

    if data_parallel_size is None:
        data_parallel_size = 1

    if pipeline_parallel_size is None:
        pipeline_parallel_size = 1

    kwargs.setdefault("distributed_executor_backend", "ray")
    kwargs.setdefault("enable_prefix_caching", True)

    engine_args = AsyncEngineArgs(
        model=model_name,
        tensor_parallel_size=tensor_parallel_size,
        data_parallel_size=data_parallel_size,
        pipeline_parallel_size=pipeline_parallel_size,
        worker_extension_cls="torchrl.modules.llm.backends.vllm.vllm_async._AsyncvLLMWorker",
        **kwargs,
    )

    return AsyncVLLM.launch(engine_args, num_replicas)
