# Imitates hiyouga/LLaMA-Factory src/llamafactory/chat/vllm_engine.py, with the engine options
# kept as class attributes of the engine wrapper.
from vllm import LLM, SamplingParams


class VllmEngine:
    RETURN_MASK = True
    LOGPROBS_MODE = "raw_logprobs"  # expect: RPL003
    MAX_MODEL_LEN = 4096

    def __init__(self, model_name_or_path):
        self.model = LLM(
            model=model_name_or_path,
            max_model_len=self.MAX_MODEL_LEN,
            return_sampling_mask=VllmEngine.RETURN_MASK,
            logprobs_mode=self.LOGPROBS_MODE,
        )

    def chat(self, prompts):
        return self.model.generate(prompts, SamplingParams(temperature=0.9, top_k=40))


engine = VllmEngine("meta-llama/Llama-3.1-8B-Instruct")
