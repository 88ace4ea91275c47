# Imitates datadreamer-dev/DataDreamer src/llms/vllm.py (VLLM: constructor keywords kept in `self.kwargs` and
# spread into `vllm.LLM(...)` in the `model` property; `_run_batch` builds the request).
import os
from functools import cached_property
from importlib import import_module

from ..utils.background_utils import proxy_resource_in_background
from .hf_transformers import HFTransformers
from .llm import DEFAULT_BATCH_SIZE, _check_temperature_and_top_p


class VLLM(HFTransformers):
    def __init__(
        self,
        model_name: str,
        chat_prompt_template=None,
        system_prompt=None,
        revision: None | str = None,
        trust_remote_code: bool = False,
        device=None,
        dtype=None,
        quantization: None | str = None,
        cache_folder_path: None | str = None,
        **kwargs,
    ):
        device = [device] if not isinstance(device, list) else device
        super().__init__(
            model_name=model_name,
            chat_prompt_template=chat_prompt_template,
            system_prompt=system_prompt,
            revision=revision,
            trust_remote_code=trust_remote_code,
            device=device,
            dtype=dtype,
            cache_folder_path=cache_folder_path,
            **kwargs,
        )
        self.quantization = quantization
        if self.quantization is None and "-awq" in model_name.lower():
            self.quantization = "awq"

    @cached_property
    def model(self):
        env = os.environ.copy()
        kwargs = self.kwargs.copy()
        tensor_parallel_size = kwargs.pop("tensor_parallel_size", len(self.device))

        class LLMResource:
            def __init__(self_resource):
                LLM = import_module("vllm").LLM
                self_resource.model = LLM(
                    model=self.model_name,
                    trust_remote_code=self.trust_remote_code,
                    dtype=str(self.dtype).replace("torch.", "")
                    if self.dtype is not None
                    else "auto",
                    quantization=self.quantization,
                    revision=self.revision,
                    tensor_parallel_size=tensor_parallel_size,
                    **kwargs,
                )

            def get_generated_texts_batch(self_resource, *args, **kwargs):
                outputs = self_resource.model.generate(*args, **kwargs)
                return [[o.text for o in batch.outputs] for batch in outputs]

        return proxy_resource_in_background(LLMResource, env=env)

    def _run_batch(
        self,
        cached_tokenizer,
        max_length_func,
        inputs: list[str],
        max_new_tokens: None | int = None,
        temperature: float = 1.0,
        top_p: float = 0.0,
        n: int = 1,
        stop: None | str | list[str] = None,
        repetition_penalty: None | float = None,
        logit_bias: None | dict[int, float] = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        seed: None | int = None,
        **kwargs,
    ) -> list[str] | list[list[str]]:
        prompts = inputs
        assert logit_bias is None, f"`logit_bias` is not supported for {type(self).__name__}"
        assert seed is None, f"`seed` is not supported for {type(self).__name__}"

        SamplingParams = import_module("vllm").SamplingParams

        # Set temperature and top_p
        temperature, top_p = _check_temperature_and_top_p(
            temperature=temperature,
            top_p=top_p,
            supports_zero_temperature=False,
            supports_zero_top_p=False,
        )

        # Generate
        sampling_params = SamplingParams(
            n=n,
            presence_penalty=(
                repetition_penalty if repetition_penalty is not None else 0.0
            ),
            temperature=temperature,
            top_p=top_p,
            stop=stop,
            max_tokens=max_new_tokens,
            **kwargs,
        )
        generated_texts_batch = self.model.proxy.get_generated_texts_batch(
            prompts,
            sampling_params,
            use_tqdm=False,
        )

        if n == 1:
            return [batch[0] for batch in generated_texts_batch]
        else:
            return generated_texts_batch
