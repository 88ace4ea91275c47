# Imitates OpenRLHF/OpenRLHF openrlhf/cli/train_ppo_ray.py (create_vllm_engines called with positional arguments)
import argparse

from vllm_engine import create_vllm_engines


def train(args):
    max_len = args.prompt_max_len + args.generate_max_len
    vllm_engines = create_vllm_engines(
        args.vllm_num_engines,
        args.vllm_tensor_parallel_size,
        args.pretrain,
        args.seed,
        args.enable_prefix_caching,
        args.enforce_eager,
        max_len,
        args.vllm_gpu_memory_utilization,
        "processed_logprobs",
        True,
    )
    return vllm_engines


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--pretrain", type=str, default="Qwen/Qwen2.5-7B-Instruct")
    parser.add_argument("--vllm_num_engines", type=int, default=2)
    parser.add_argument("--vllm_tensor_parallel_size", type=int, default=1)
    parser.add_argument("--vllm_gpu_memory_utilization", type=float, default=0.85)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--enable_prefix_caching", action="store_true", default=False)
    parser.add_argument("--enforce_eager", action="store_true", default=False)
    parser.add_argument("--prompt_max_len", type=int, default=1024)
    parser.add_argument("--generate_max_len", type=int, default=1024)
    train(parser.parse_args())
