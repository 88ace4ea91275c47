# Imitates NVIDIA-NeMo/RL nemo_rl/models/generation/vllm/vllm_worker.py (a worker base class whose subclasses change class-level settings)
from vllm import LLM, SamplingParams


class VllmGenerationWorker:
    REPLAY = True
    LOGPROBS_MODE = "processed_logprobs"
    GPU_MEMORY_UTILIZATION = 0.6

    def __init__(self, model_name, max_model_len=4096):
        self.llm = LLM(
            model=model_name,
            max_model_len=max_model_len,
            gpu_memory_utilization=self.GPU_MEMORY_UTILIZATION,
            return_sampling_mask=self.REPLAY,
            logprobs_mode=self.LOGPROBS_MODE,
        )

    def generate(self, prompts):
        return self.llm.generate(prompts, SamplingParams(temperature=1.0, top_k=50, max_tokens=512))


class VllmEvalWorker(VllmGenerationWorker):
    # evaluation reports the policy's own logprobs
    LOGPROBS_MODE = "raw_logprobs"  # expect: RPL003
    GPU_MEMORY_UTILIZATION = 0.3
