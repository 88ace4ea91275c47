# Imitates RUC-NLPIR/FlashRAG flashrag/generator/generator.py (VLLMGenerator: the engine from the config,
# generate() from a deepcopy of generation_params); the user's edit turns sampling distribution replay on.
from copy import deepcopy
from typing import List


class VLLMGenerator:
    """Class for decoder-only generator, based on vllm."""

    def __init__(self, config):
        self._config = config
        self.model_path = config["generator_model_path"]
        self.generation_params = config["generation_params"]
        self.gpu_memory_utilization = config["gpu_memory_utilization"] or 0.85
        gpu_num = config["gpu_num"]
        self.tensor_parallel_size = gpu_num - 1 if gpu_num != 1 and gpu_num % 2 != 0 else gpu_num
        self.max_model_len = config["generator_max_input_len"]

        from vllm import LLM

        self.model = LLM(
            self.model_path,
            tensor_parallel_size=self.tensor_parallel_size,
            gpu_memory_utilization=self.gpu_memory_utilization,
            max_logprobs=32016,
            max_model_len=self.max_model_len,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

    def generate(self, input_list: List[str], return_raw_output=False, **params):
        from vllm import SamplingParams

        if isinstance(input_list, str):
            input_list = [input_list]

        generation_params = deepcopy(self.generation_params)
        generation_params.update(params)
        if "do_sample" in generation_params:
            if not generation_params.pop("do_sample"):
                generation_params["temperature"] = 0
        generation_params["seed"] = self._config["seed"]
        generation_params.setdefault("stop", []).append("<|eot_id|>")

        sampling_params = SamplingParams(**generation_params)
        outputs = self.model.generate(input_list, sampling_params)
        if return_raw_output:
            return outputs
        return [output.outputs[0].text for output in outputs]
