# Imitates RUC-NLPIR/FlashRAG flashrag/generator/generator.py: VLLMGenerator builds LLM from the
# config; the user's edit spreads a `generator_engine_kwargs` block of the YAML into it.
from copy import deepcopy


class VLLMGenerator:
    def __init__(self, config):
        self._config = config
        self.model_path = config["generator_model_path"]
        self.generation_params = config["generation_params"]
        from vllm import LLM

        engine_kwargs = self._config.get("generator_engine_kwargs", {})
        self.model = LLM(
            self.model_path,
            tensor_parallel_size=config["gpu_num"],
            gpu_memory_utilization=0.85,
            max_model_len=config["generator_max_input_len"],
            **engine_kwargs,
        )

    def generate(self, input_list, **params):
        from vllm import SamplingParams

        generation_params = deepcopy(self.generation_params)
        generation_params.update(params)
        outputs = self.model.generate(input_list, SamplingParams(**generation_params))
        return [output.outputs[0].text for output in outputs]
