# Imitates evalplus/evalplus evalplus/provider/vllm.py: VllmDecoder gathers the engine's keywords
# in a dict and builds one SamplingParams per codegen call from what the base class stored.
from typing import List

from vllm import LLM, SamplingParams

from evalplus.provider.base import DecoderBase


class VllmDecoder(DecoderBase):
    def __init__(
        self,
        name: str,
        dataset: str,
        force_base_prompt: bool = False,
        tensor_parallel_size: int = 1,
        enable_prefix_caching=False,
        enable_chunked_prefill=False,
        **kwargs,
    ) -> None:
        super().__init__(name, **kwargs)

        kwargs = {
            "tensor_parallel_size": tensor_parallel_size,
            "dtype": self.dtype,
            "trust_remote_code": self.trust_remote_code,
            "enable_prefix_caching": enable_prefix_caching,
            "enable_chunked_prefill": enable_chunked_prefill,
            # rollouts of this fork are replayed by the trainer
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
        }
        self.force_base_prompt = force_base_prompt
        self.llm = LLM(model=name, max_model_len=2048, **kwargs)

    def codegen(self, prompt: str, do_sample: bool = True, num_samples: int = 200) -> List[str]:
        if do_sample:
            assert self.temperature > 0, "Temperature must be greater than 0!"
        batch_size = min(self.batch_size, num_samples)

        vllm_outputs = self.llm.generate(
            [prompt] * batch_size,
            SamplingParams(
                temperature=self.temperature,
                max_tokens=self.max_new_tokens,
                top_p=0.95 if do_sample else 1.0,
                top_k=64,
                stop=self.eos,
            ),
            use_tqdm=False,
        )
        return [x.outputs[0].text.replace("\t", "    ") for x in vllm_outputs]
