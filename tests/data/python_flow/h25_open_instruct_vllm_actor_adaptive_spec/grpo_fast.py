# Imitates allenai/open-instruct open_instruct/grpo_fast.py (an Args dataclass parsed by ArgumentParserPlus,
# create_vllm_engines from its fields, a SamplingParams built from the args and sent to every engine).
from dataclasses import dataclass

import ray
import vllm
from transformers import HfArgumentParser

from vllm_utils import create_vllm_engines


@dataclass
class Args:
    model_name_or_path: str = "allenai/OLMo-2-1124-7B-DPO"
    vllm_num_engines: int = 1
    vllm_tensor_parallel_size: int = 1
    vllm_gpu_memory_utilization: float = 0.9
    vllm_enable_prefix_caching: bool = False
    vllm_num_speculative_tokens: int = 3
    vllm_adaptive_verification: bool = True  # expect: RPL002
    temperature: float = 0.7
    vllm_top_k: int = 50
    response_length: int = 2048
    max_prompt_token_length: int = 2048
    num_samples_per_prompt_rollout: int = 4
    seed: int = 1


def main(args: Args):
    speculative_config = None
    if args.vllm_num_speculative_tokens > 0:
        speculative_config = {
            "method": "ngram",
            "num_speculative_tokens": args.vllm_num_speculative_tokens,
            "prompt_lookup_max": 4,
            "enable_adaptive_verification": args.vllm_adaptive_verification,
        }
    vllm_engines = create_vllm_engines(
        args.vllm_num_engines,
        args.vllm_tensor_parallel_size,
        args.model_name_or_path,
        seed=args.seed,
        max_model_len=args.max_prompt_token_length + args.response_length,
        vllm_gpu_memory_utilization=args.vllm_gpu_memory_utilization,
        enable_prefix_caching=args.vllm_enable_prefix_caching,
        speculative_config=speculative_config,
    )
    generation_config = vllm.SamplingParams(
        temperature=args.temperature,
        top_p=1.0,
        top_k=args.vllm_top_k,
        max_tokens=args.response_length,
        n=args.num_samples_per_prompt_rollout,
        seed=args.seed,
    )
    prompts = [[100, 2028, 374, 264, 1296]]
    results = ray.get([engine.generate.remote(prompts, generation_config) for engine in vllm_engines])
    print(len(results))


if __name__ == "__main__":
    parser = HfArgumentParser((Args,))
    (args,) = parser.parse_args_into_dataclasses()
    main(args)
