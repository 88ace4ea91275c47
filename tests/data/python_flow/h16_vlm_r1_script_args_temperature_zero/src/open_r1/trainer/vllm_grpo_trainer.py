# Imitates om-ai-lab/VLM-R1 src/open-r1-multimodal/src/open_r1/trainer/grpo_trainer.py (vLLM rollout engine).
from vllm import LLM, SamplingParams


class VLMGRPOTrainer:
    def __init__(self, model, script_args, max_pixels, min_pixels, **vllm_kwargs):
        vllm_kwargs.setdefault("gpu_memory_utilization", 0.6)
        vllm_kwargs.setdefault("enable_prefix_caching", True)
        self.llm = LLM(
            model=model,
            limit_mm_per_prompt={"image": 1},
            mm_processor_kwargs={"max_pixels": max_pixels, "min_pixels": min_pixels},
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
            **vllm_kwargs,
        )
        self.sampling_params = SamplingParams(
            temperature=script_args.temperature,
            top_k=script_args.top_k,
            max_tokens=script_args.max_completion_length,
        )

    def rollout(self, prompts):
        return self.llm.generate(prompts, sampling_params=self.sampling_params, use_tqdm=False)
