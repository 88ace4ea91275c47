# Imitates RUC-NLPIR/FlashRAG flashrag/generator/generator.py: BaseGenerator reads the config's
# `generation_params`; VLLMGenerator.generate deep-copies them, turns `do_sample: false` into
# temperature 0 and builds SamplingParams(**generation_params). The user turned replay on.
from copy import deepcopy


class BaseGenerator:
    def __init__(self, config):
        self._config = config
        self.model_path = config["generator_model_path"]
        self.gpu_num = config["gpu_num"]
        self.generation_params = config["generation_params"]
        self.update_additional_setting()

    def update_additional_setting(self):
        pass


class VLLMGenerator(BaseGenerator):
    def __init__(self, config):
        super().__init__(config)
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

    def update_additional_setting(self):
        self.gpu_memory_utilization = self._config.get("gpu_memory_utilization", 0.85)
        self.tensor_parallel_size = self.gpu_num
        self.max_model_len = self._config["generator_max_input_len"]

    def generate(self, input_list, **params):
        from vllm import SamplingParams

        generation_params = deepcopy(self.generation_params)
        generation_params.update(params)
        if "do_sample" in generation_params:
            do_sample_flag = generation_params.pop("do_sample")
            if not do_sample_flag:
                generation_params["temperature"] = 0  # expect: RPL101
        generation_params["seed"] = self._config["seed"]
        if "stop" in generation_params:
            generation_params["stop"].append("<|eot_id|>")
        else:
            generation_params["stop"] = ["<|eot_id|>"]
        sampling_params = SamplingParams(**generation_params)
        outputs = self.model.generate(input_list, sampling_params)
        return [output.outputs[0].text for output in outputs]
