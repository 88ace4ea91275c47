# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py: the engine's keywords
# kept on `self` in `__init__`, the engine built in another method.
import vllm


class VllmGenerationWorker:
    def __init__(self, model_name):
        self.vllm_kwargs = {"model": model_name, "return_sampling_mask": True}  # expect: RPL003
        self.vllm_kwargs["enforce_eager"] = True

    def start(self):
        self.llm = vllm.LLM(**self.vllm_kwargs)
