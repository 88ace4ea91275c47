# Imitates IINemo/lm-polygraph src/lm_polygraph/model_adapters/whitebox_model_vllm.py (trimmed)
from copy import copy

from lm_polygraph.utils.generation_parameters import GenerationParameters


class WhiteboxModelvLLM:
    """Basic whitebox model adapter for using vLLM in stat calculators and uncertainty estimators."""

    def __init__(
        self,
        model,
        sampling_params,
        generation_parameters: GenerationParameters = GenerationParameters(),
        device: str = "cuda",
        instruct: bool = False,
    ):
        self.model = model
        self.tokenizer = self.model.get_tokenizer()
        self.tokenizer.pad_token = self.tokenizer.eos_token
        self.sampling_params = sampling_params
        self.generation_parameters = generation_parameters
        self.instruct = instruct

        stop_strings = getattr(self.generation_parameters, "stop_strings", None)
        if stop_strings is None:
            stop_strings = []
        self.sampling_params.stop = list(stop_strings)

        for param in [
            "temperature",
            "top_p",
            "top_k",
        ]:
            setattr(
                self.sampling_params,
                param,
                getattr(self.generation_parameters, param, None),
            )

        self.base_device = device
        self.model_type = "vLLMCausalLM"

    def generate(self, *args, **kwargs):
        sampling_params = copy(self.sampling_params)
        sampling_params.n = kwargs.get("num_return_sequences", 1)
        if "max_new_tokens" in kwargs:
            sampling_params.max_tokens = kwargs["max_new_tokens"]
        texts = self.tokenizer.batch_decode(
            kwargs["input_ids"], skip_special_tokens=True
        )
        output = self.model.generate(*args, texts, sampling_params)
        return self.post_processing(output)

    def tokenize(self, texts):
        return self.tokenizer(texts, return_tensors="pt", padding=True)

    def post_processing(self, outputs):
        return outputs
