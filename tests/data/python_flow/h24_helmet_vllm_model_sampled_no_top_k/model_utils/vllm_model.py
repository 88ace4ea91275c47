# Imitates princeton-nlp/HELMET model_utils/vllm_model.py: VLLMModel(LocalModel) builds LLM with
# tensor_parallel_size=torch.cuda.device_count() and makes SamplingParams in _sampling_params();
# the user turned replay on.
import torch

from model_utils.local import LocalModel


class VLLMModel(LocalModel):
    def __init__(self, model_name, seed=42, **kwargs):
        super().__init__(model_name, **kwargs)

        from vllm import LLM

        self.model = LLM(
            model_name,
            tensor_parallel_size=torch.cuda.device_count(),
            dtype="auto",
            trust_remote_code=True,
            enforce_eager=True,
            seed=seed,
            max_model_len=self.max_length,
            enable_chunked_prefill=True,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.tokenizer = self.model.get_tokenizer()

    def _sampling_params(self):
        from vllm import SamplingParams

        return SamplingParams(  # expect: RPL102
            temperature=self.temperature if self.do_sample else 0.0,
            top_p=self.top_p,
            max_tokens=self.generation_max_length,
            stop=self.stops,
        )

    def generate_batch(self, prompt=None, **kwargs):
        outputs = self.model.generate(prompts=prompt, sampling_params=self._sampling_params(), **kwargs)
        return [{"output": output.outputs[0].text} for output in outputs]
