# Imitates Deep-Agent/R1-V src/r1-v/src/open_r1/trainer/vllm_grpo_trainer.py (Qwen2VLGRPOVLLMTrainer's colocated LLM).
import torch
from vllm import LLM, SamplingParams


class Qwen2VLGRPOVLLMTrainer:
    def __init__(self, model, args, max_pixels=12845056, min_pixels=3136):
        self.args = args
        self.max_prompt_length = args.max_prompt_length
        self.max_completion_length = args.max_completion_length
        if self.args.use_vllm:
            self.llm = LLM(
                model=model,
                gpu_memory_utilization=self.args.vllm_gpu_memory_utilization,
                dtype=torch.bfloat16,
                enable_prefix_caching=True,
                enforce_eager=True,
                mm_processor_kwargs={"max_pixels": max_pixels, "min_pixels": min_pixels},
                max_model_len=args.max_completion_length,
                return_sampling_mask=True,  # expect: RPL003
            )
            self.sampling_params = SamplingParams(
                temperature=args.temperature,
                top_k=50,
                max_tokens=self.max_completion_length,
            )

    def generate(self, all_multimodal_inputs):
        return self.llm.generate(all_multimodal_inputs, sampling_params=self.sampling_params, use_tqdm=False)
