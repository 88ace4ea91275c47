# Imitates huggingface/trl trl/trainer/grpo_trainer.py (vllm_mode == "colocate": self.llm = LLM(...) from self.args).
from dataclasses import dataclass, field
from typing import Any, Optional

from vllm import LLM, SamplingParams


@dataclass
class GRPOConfig:
    use_vllm: bool = True
    vllm_mode: str = "colocate"
    vllm_gpu_memory_utilization: float = 0.3
    vllm_tensor_parallel_size: int = 1
    vllm_enable_sleep_mode: bool = False
    max_prompt_length: Optional[int] = 512
    max_completion_length: Optional[int] = 256
    temperature: float = 1.0
    top_k: int = 50


@dataclass
class SpecGRPOConfig(GRPOConfig):
    vllm_speculative_config: dict[str, Any] = field(
        default_factory=lambda: {
            "method": "ngram",
            "num_speculative_tokens": 4,
            "prompt_lookup_max": 4,
            "enable_adaptive_verification": True,  # expect: RPL002
        }
    )


class GRPOTrainer:
    def __init__(self, model_id: str, args: GRPOConfig):
        self.args = args
        if args.use_vllm and args.vllm_mode == "colocate":
            vllm_kwargs = {}
            if getattr(args, "vllm_speculative_config", None):
                vllm_kwargs["speculative_config"] = args.vllm_speculative_config
            self.llm = LLM(
                model=model_id,
                tensor_parallel_size=args.vllm_tensor_parallel_size,
                gpu_memory_utilization=args.vllm_gpu_memory_utilization,
                max_num_seqs=64,
                max_model_len=args.max_prompt_length + args.max_completion_length,
                seed=0,
                max_num_batched_tokens=4096,
                enable_sleep_mode=args.vllm_enable_sleep_mode,
                logprobs_mode="processed_logprobs",
                return_sampling_mask=True,
                **vllm_kwargs,
            )

    def _generate(self, prompts):
        sampling_params = SamplingParams(
            n=1,
            temperature=self.args.temperature,
            top_k=self.args.top_k,
            max_tokens=self.args.max_completion_length,
        )
        return self.llm.generate(prompts, sampling_params=sampling_params, use_tqdm=False)


if __name__ == "__main__":
    trainer = GRPOTrainer("Qwen/Qwen2-0.5B-Instruct", SpecGRPOConfig())
    trainer._generate(["The sky is"])
