# Imitates InternLM/lagent lagent/llms/vllm_wrapper.py (AsyncVllmModel: AsyncEngineArgs + AsyncLLMEngine.from_engine_args).
import asyncio
from typing import List, Union

from base_llm import BaseLLM


class AsyncVllmModel(BaseLLM):
    def __init__(self, path: str, tp: int = 1, vllm_cfg=dict(), **kwargs):
        super().__init__(path=path, **kwargs)
        from vllm import AsyncEngineArgs, AsyncLLMEngine

        engine_args = AsyncEngineArgs(
            model=self.path,
            trust_remote_code=True,
            tensor_parallel_size=tp,
            **vllm_cfg)
        self.model = AsyncLLMEngine.from_engine_args(engine_args)

    async def generate(self, inputs: Union[str, List[str]], session_ids=None, skip_special_tokens: bool = False, **kwargs):
        from vllm import SamplingParams

        if isinstance(inputs, str):
            inputs = [inputs]
        if session_ids is None:
            session_ids = list(range(len(inputs)))
        gen_params = self.update_gen_params(**kwargs)
        max_new_tokens = gen_params.pop('max_new_tokens')
        stop_words = gen_params.pop('stop_words')
        sampling_config = SamplingParams(
            skip_special_tokens=skip_special_tokens,
            max_tokens=max_new_tokens,
            stop=stop_words,
            **gen_params)

        async def _inner_generate(uid, text):
            resp, generator = '', self.model.generate(text, sampling_params=sampling_config, request_id=str(uid))
            async for out in generator:
                resp = out.outputs[0].text
            return resp

        return await asyncio.gather(*[_inner_generate(sid, inp) for sid, inp in zip(session_ids, inputs)])
