# Imitates facebookresearch/fairseq2 src/fairseq2/recipes/lm/_online_finetune/_remote_vllm.py (VllmEngineArgs, RemoteVllmModel)
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict

import ray
from ray.util.placement_group import placement_group
from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy
from vllm import SamplingParams

from fairseq2.recipes.lm._online_finetune._common import NoEnvLLM


@dataclass(kw_only=True)
class VllmEngineArgs:
    model: str = "Qwen/Qwen2.5-1.5B-Instruct"
    tokenizer: str = "Qwen/Qwen2.5-1.5B-Instruct"
    tensor_parallel_size: int = 4
    trust_remote_code: bool = False
    model_impl: str = "auto"
    enforce_eager: bool = True
    hf_overrides: object = None
    dtype: str = "auto"
    max_model_len: int = 2048
    return_sampling_mask: bool = True
    logprobs_mode: str = "processed_logprobs"


@dataclass(kw_only=True)
class VllmRayActorConfig:
    ray_actor_name: str = "dummy"
    num_replicas: int = 1
    vllm_engine_args: VllmEngineArgs = field(default_factory=lambda: VllmEngineArgs())
    vllm_sampling_params: Dict[str, Any] = field(default_factory=lambda: {})


class RemoteVllmModelHandler:
    def create(self, actor_config: VllmRayActorConfig) -> RemoteVllmModel:
        return RemoteVllmModel(
            actor_config.ray_actor_name,
            actor_config.num_replicas,
            actor_config.vllm_engine_args,
            actor_config.vllm_sampling_params,
        )


class RemoteVllmModel:
    def __init__(
        self,
        ray_actor_name: str,
        num_replicas: int,
        vllm_engine_args: VllmEngineArgs,
        sampling_params: dict,
    ):
        self.num_replicas = num_replicas
        self.ray_actor_name = ray_actor_name

        self.vllm_workers = []

        for replica_i in range(self.num_replicas):
            self.setup_replica(replica_i, vllm_engine_args)

        # populate sampling params using all values that were passed in the config
        self.sampling_params = SamplingParams(**sampling_params)

        self._vllm_engine_args = vllm_engine_args

    def setup_replica(self, replica_i: int, vllm_engine_args):
        vllm_worker = self.setup_vllm_worker(
            f"{self.ray_actor_name}_{replica_i}", vllm_engine_args
        )
        self.vllm_workers.append(vllm_worker)

    def setup_vllm_worker(self, ray_actor_name, vllm_engine_args: VllmEngineArgs):
        pg_inference = placement_group(
            [{"GPU": 1, "CPU": 0}] * vllm_engine_args.tensor_parallel_size,
            strategy="STRICT_PACK",
        )

        ray.get(pg_inference.ready())

        scheduling_inference = PlacementGroupSchedulingStrategy(
            placement_group=pg_inference,
            placement_group_capture_child_tasks=True,
            placement_group_bundle_index=0,
        )

        llm = NoEnvLLM.options(
            name=ray_actor_name,
            num_cpus=0,
            num_gpus=0,
            scheduling_strategy=scheduling_inference,
            get_if_exists=True,
        ).remote(
            model=vllm_engine_args.model,
            tokenizer=vllm_engine_args.tokenizer,
            enforce_eager=vllm_engine_args.enforce_eager,
            tensor_parallel_size=vllm_engine_args.tensor_parallel_size,
            trust_remote_code=vllm_engine_args.trust_remote_code,
            model_impl=vllm_engine_args.model_impl,
            hf_overrides=vllm_engine_args.hf_overrides,
            dtype=vllm_engine_args.dtype,
            max_model_len=vllm_engine_args.max_model_len,
            return_sampling_mask=vllm_engine_args.return_sampling_mask,
            logprobs_mode=vllm_engine_args.logprobs_mode,
            distributed_executor_backend="ray",
        )

        # we block here until the engine is initialized
        ray.get(llm.is_ready.remote())

        return llm

    def rollout_from_model(self, prompt_list, sampling_params=None):
        if sampling_params is None:
            sampling_params = self.sampling_params

        # Split prompts evenly across replicas
        chunk_size = len(prompt_list) // self.num_replicas
        remainder = len(prompt_list) % self.num_replicas

        chunks = []
        start = 0
        for i in range(self.num_replicas):
            end = start + chunk_size + (1 if i < remainder else 0)
            chunks.append(prompt_list[start:end])
            start = end

        outputs = []
        for replica_i, chunk in enumerate(chunks):
            if len(chunk) > 0:  # Only send non-empty chunks
                output = self.vllm_workers[replica_i].generate.remote(
                    prompt_token_ids=chunk,
                    sampling_params=sampling_params,
                    use_tqdm=False,
                )
                outputs.append(output)

        # block till generation is done
        results = ray.get(outputs)

        rollouts = []
        for chunk_result in results:
            rollouts.extend(chunk_result)

        return rollouts
