# Imitates bigcode-project/bigcodebench bigcodebench/provider/vllm.py (VllmDecoder)
import os

from vllm import LLM, SamplingParams

from bigcodebench.provider.base import DecoderBase


class VllmDecoder(DecoderBase):
    def __init__(self, name: str, lora_path: str, **kwargs) -> None:
        super().__init__(name, **kwargs)
        kwargs = {
            "tensor_parallel_size": int(os.getenv("VLLM_N_GPUS", self.tp)),
            "dtype": self.dtype,
            "trust_remote_code": self.trust_remote_code,
            "revision": self.revision,
            "return_sampling_mask": True,
            "logprobs_mode": "processed_logprobs",
        }
        self.lora_request = None
        self.llm = LLM(model=name, max_model_len=self.max_new_tokens, **kwargs)

    def codegen(self, prompts, do_sample: bool = True, num_samples: int = 200):
        vllm_outputs = self.llm.generate(
            prompts,
            SamplingParams(
                n=num_samples,
                temperature=self.temperature,
                max_tokens=self.max_new_tokens,
                top_p=0.95 if do_sample else 1.0,
                top_k=50,
                stop=self.eos,
            ),
            use_tqdm=True,
            lora_request=self.lora_request,
        )
        return [[o.text for o in x.outputs] for x in vllm_outputs]
