# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py, with the mode written
# next to the mask: clean.
import vllm


class VllmGenerationWorker:
    def __init__(self, model_name):
        self.vllm_kwargs = {"model": model_name, "return_sampling_mask": True}
        self.vllm_kwargs["logprobs_mode"] = "processed_logprobs"

    def start(self):
        self.llm = vllm.LLM(**self.vllm_kwargs)
