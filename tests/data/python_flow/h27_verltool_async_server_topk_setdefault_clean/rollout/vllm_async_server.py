# Imitates TIGER-AI-Lab/verl-tool verl_tool/workers/rollout/vllm_rollout/vllm_async_server.py
# (generate(): sampling_params dict completed with setdefault, `async for output in generator`); no
# penalty in the YAML, so the repetition_penalty default 1.0 stays neutral.
import asyncio
import os
import uuid

import yaml
from vllm import SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.inputs import TokensPrompt
from vllm.v1.engine.async_llm import AsyncLLM

HERE = os.path.dirname(os.path.abspath(__file__))


class VerlToolvLLMServer:
    def __init__(self, config: dict):
        self.config = config
        engine_args = AsyncEngineArgs(
            model=config["model"],
            tensor_parallel_size=config["tensor_parallel_size"],
            gpu_memory_utilization=config["gpu_memory_utilization"],
            max_model_len=config["max_model_len"],
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.engine = AsyncLLM.from_engine_args(engine_args)

    async def generate(self, prompt_ids, sampling_params: dict, request_id: str):
        max_tokens = min(self.config["max_model_len"] - len(prompt_ids), sampling_params.get("max_tokens", self.config["response_length"]))
        sampling_params["max_tokens"] = max_tokens
        sampling_params["logprobs"] = 0 if sampling_params.pop("logprobs", False) else None
        sampling_params.setdefault("top_k", self.config.get("top_k", -1))
        sampling_params.setdefault("repetition_penalty", self.config.get("repetition_penalty", 1.0))
        sampling_params = SamplingParams(**sampling_params)
        generator = self.engine.generate(
            prompt=TokensPrompt(prompt_token_ids=prompt_ids), sampling_params=sampling_params, request_id=request_id
        )
        final_res = None
        async for output in generator:
            final_res = output
        return final_res.outputs[0].token_ids


async def main():
    with open(os.path.join(HERE, "rollout.yaml")) as f:
        config = yaml.safe_load(f)
    server = VerlToolvLLMServer(config)
    ids = await server.generate([1, 2, 3], {"temperature": config["temperature"], "logprobs": True}, str(uuid.uuid4()))
    print(ids)


if __name__ == "__main__":
    asyncio.run(main())
