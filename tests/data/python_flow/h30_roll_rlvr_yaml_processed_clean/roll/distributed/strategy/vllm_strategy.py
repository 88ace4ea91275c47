# Imitates alibaba/ROLL roll/distributed/strategy/vllm_strategy.py (strategy_config copied, updated and spread into the engine).
import asyncio
import copy
import os

from vllm import SamplingParams
from vllm.sampling_params import RequestOutputKind
from vllm.utils import random_uuid

from roll.third_party.vllm import create_async_llm


class VllmStrategy:
    strategy_name = "vllm"

    def __init__(self, worker_config, seed=42):
        self.worker_config = worker_config
        self.seed = seed

    async def initialize(self):
        vllm_config = copy.deepcopy(self.worker_config.strategy_args.strategy_config)
        os.environ["VLLM_USE_V1"] = str(vllm_config.pop("VLLM_USE_V1", 1))
        self.sleep_level = vllm_config.pop("sleep_level", 1)

        if self.worker_config.model_args.dtype == "fp32":
            dtype = "float32"
        elif self.worker_config.model_args.dtype == "fp16":
            dtype = "float16"
        elif self.worker_config.model_args.dtype == "bf16":
            dtype = "bfloat16"
        else:
            dtype = "auto"
        vllm_config.update(
            {
                "model": self.worker_config.model_args.model_name_or_path,
                "dtype": dtype,
                "enforce_eager": vllm_config.get("enforce_eager", False),
                "trust_remote_code": True,
                "seed": self.seed,
                "disable_custom_all_reduce": vllm_config.get("disable_custom_all_reduce", True),
                "enable_prefix_caching": vllm_config.get("enable_prefix_caching", True),
                "load_format": vllm_config.get("load_format", "dummy"),
                "max_num_batched_tokens": vllm_config.get("max_num_batched_tokens", 8192),
            }
        )
        self.model = await create_async_llm(resource_placement_groups=None, **vllm_config)

    async def generate(self, prompts, generation_config):
        sampling_params = create_sampling_params_for_vllm(gen_kwargs=generation_config)

        async def _generate(prompt):
            output = None
            async for result in self.model.generate(prompt=prompt, sampling_params=sampling_params, request_id=random_uuid()):
                output = result
            return output

        return await asyncio.gather(*[_generate(prompt) for prompt in prompts])


def create_sampling_params_for_vllm(gen_kwargs):
    output_kind = gen_kwargs.get("output_kind", RequestOutputKind.FINAL_ONLY)
    return SamplingParams(
        max_tokens=gen_kwargs["max_new_tokens"],
        temperature=gen_kwargs["temperature"],
        top_p=gen_kwargs["top_p"],
        top_k=gen_kwargs["top_k"],
        stop_token_ids=gen_kwargs["eos_token_id"],
        repetition_penalty=gen_kwargs["repetition_penalty"],
        n=gen_kwargs["num_return_sequences"],
        stop=gen_kwargs["stop_strings"],
        logprobs=gen_kwargs.get("logprobs", 0),
        output_kind=output_kind,
        include_stop_str_in_output=gen_kwargs.get("include_stop_str_in_output", True),
    )
