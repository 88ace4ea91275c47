# Imitates OpenRLHF/OpenRLHF/openrlhf/cli/train_ppo_ray.py
import argparse

import ray

from openrlhf.trainer.ray.vllm_engine import create_vllm_engines


def train(args):
    vllm_engines = create_vllm_engines(
        args.vllm_num_engines,
        args.vllm_tensor_parallel_size,
        args.pretrain,
        args.seed,
        args.full_determinism,
        args.enable_prefix_caching,
        args.enforce_eager,
        args.prompt_max_len + args.generate_max_len,
        None,
        args.vllm_gpu_memory_utilization,
        args.vllm_enable_sleep,
        "processed_logprobs" if args.enable_vllm_is_correction else None,
    )
    ray.get([engine.is_sleeping.remote() for engine in vllm_engines])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--pretrain", type=str, default="Qwen/Qwen2.5-1.5B-Instruct")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--full_determinism", action="store_true", default=False)
    parser.add_argument("--vllm_num_engines", type=int, default=None)
    parser.add_argument("--vllm_tensor_parallel_size", type=int, default=1)
    parser.add_argument("--vllm_gpu_memory_utilization", type=float, default=0.95)
    parser.add_argument("--vllm_enable_sleep", action="store_true", default=False)
    parser.add_argument("--enable_prefix_caching", action="store_true", default=False)
    parser.add_argument("--enforce_eager", action="store_true", default=False)
    parser.add_argument("--prompt_max_len", type=int, default=1024)
    parser.add_argument("--generate_max_len", type=int, default=1024)
    parser.add_argument(
        "--enable_vllm_is_correction",
        action="store_true",
        default=False,
        help="Use vLLM's processed logprobs for importance-sampling correction",
    )
    args = parser.parse_args()
    train(args)
