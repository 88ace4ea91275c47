# Imitates Agent-RL/ReCall src/flashrag/generator/generator.py (BaseGenerator, VLLMGenerator.generate:
# deepcopy of the config's generation_params, `do_sample` popped, the seed and stop words added); the
# user's edit turns sampling distribution replay on in the engine.
from copy import deepcopy
from typing import List


class BaseGenerator:
    def __init__(self, config):
        self._config = config
        self.update_config()

    def update_config(self):
        self.update_base_setting()
        self.update_additional_setting()

    def update_base_setting(self):
        self.model_name = self._config["generator_model"]
        self.model_path = self._config["generator_model_path"]
        self.max_input_len = self._config["generator_max_input_len"]
        self.batch_size = self._config["generator_batch_size"]
        self.gpu_num = self._config["gpu_num"]
        self.generation_params = self._config["generation_params"]

    def update_additional_setting(self):
        pass


class VLLMGenerator(BaseGenerator):
    """Class for decoder-only generator, based on vllm."""

    def __init__(self, config):
        super().__init__(config)

        from vllm import LLM

        self.model = LLM(
            self.model_path,
            tensor_parallel_size=self.tensor_parallel_size,
            gpu_memory_utilization=self.gpu_memory_utilization,
            max_logprobs=32016,
            max_model_len=self.max_model_len,
            return_sampling_mask=True,  # expect: RPL003
        )

    def update_additional_setting(self):
        if "gpu_memory_utilization" not in self._config:
            self.gpu_memory_utilization = 0.85
        else:
            self.gpu_memory_utilization = self._config["gpu_memory_utilization"]
        if self.gpu_num != 1 and self.gpu_num % 2 != 0:
            self.tensor_parallel_size = self.gpu_num - 1
        else:
            self.tensor_parallel_size = self.gpu_num
        self.max_model_len = self._config["generator_max_input_len"]

    def generate(self, input_list: List[str], return_raw_output=False, **params):
        from vllm import SamplingParams

        if isinstance(input_list, str):
            input_list = [input_list]

        generation_params = deepcopy(self.generation_params)
        generation_params.update(params)
        if "do_sample" in generation_params:
            do_sample_flag = generation_params.pop("do_sample")
            if not do_sample_flag:
                generation_params["temperature"] = 0
        generation_params["seed"] = self._config["seed"]

        # fix for llama3
        if "stop" in generation_params:
            generation_params["stop"].append("<|eot_id|>")
            generation_params["include_stop_str_in_output"] = True
        else:
            generation_params["stop"] = ["<|eot_id|>"]

        sampling_params = SamplingParams(**generation_params)
        outputs = self.model.generate(input_list, sampling_params)
        if return_raw_output:
            return outputs
        return [output.outputs[0].text for output in outputs]
