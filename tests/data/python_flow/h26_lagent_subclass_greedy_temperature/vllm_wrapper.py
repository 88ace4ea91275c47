# Imitates InternLM/lagent lagent/llms/vllm_wrapper.py (VllmModel: LLM(..., **vllm_cfg), SamplingParams(**gen_params)).
from typing import List, Union

from base_llm import BaseLLM


class VllmModel(BaseLLM):
    def __init__(self, path: str, tp: int = 1, vllm_cfg=dict(), **kwargs):
        super().__init__(path=path, **kwargs)
        from vllm import LLM
        self.model = LLM(
            model=self.path,
            trust_remote_code=True,
            tensor_parallel_size=tp,
            **vllm_cfg)

    def generate(self, inputs: Union[str, List[str]], skip_special_tokens: bool = False, **kwargs):
        from vllm import SamplingParams

        batched = True
        if isinstance(inputs, str):
            inputs = [inputs]
            batched = False
        gen_params = self.update_gen_params(**kwargs)
        max_new_tokens = gen_params.pop('max_new_tokens')
        stop_words = gen_params.pop('stop_words')

        sampling_config = SamplingParams(
            skip_special_tokens=skip_special_tokens,
            max_tokens=max_new_tokens,
            stop=stop_words,
            **gen_params)
        response = self.model.generate(inputs, sampling_params=sampling_config)
        response = [resp.outputs[0].text for resp in response]
        if batched:
            return response
        return response[0]
