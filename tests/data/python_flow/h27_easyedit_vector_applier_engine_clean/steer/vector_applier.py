# Imitates zjunlp/EasyEdit steer/vector_appliers/vector_applier.py (generate_kwargs copied into a vLLM
# SamplingParams when hparams.vllm_enable); the user's edit keeps a per-task generation table.
from vllm import SamplingParams

from model_wrapper import BaseModelWrapper

GENERATION_PARAMS = {
    "sentiment": {"temperature": 0.9, "top_p": 0.9, "top_k": 50, "max_new_tokens": 100},
    "detox": {"temperature": 0.7, "top_k": 20, "max_new_tokens": 64},
}


class BaseVectorApplier:
    def __init__(self, model: BaseModelWrapper, task: str):
        self.model = model
        self.generation_params = dict(GENERATION_PARAMS[task])

    def generate(self, prompts):
        gen = self.generation_params
        vllm_sampling_params = SamplingParams(
            temperature=gen.get("temperature", 1.0),
            top_p=gen.get("top_p", 1.0),
            top_k=gen.get("top_k", 10),
            max_tokens=gen.get("max_new_tokens", 50),
        )
        outputs = self.model.VLLM_model.generate(prompts, vllm_sampling_params)
        return [o.outputs[0].text for o in outputs]


if __name__ == "__main__":
    applier = BaseVectorApplier(BaseModelWrapper("meta-llama/Llama-2-7b-chat-hf"), "detox")
    print(applier.generate(["You are"]))
