# Imitates OpenRLHF/OpenRLHF openrlhf/cli/train_ppo_ray.py (rollout arguments: --top_k defaults to -1)
import argparse


def add_vllm_args(parser):
    group = parser.add_argument_group("vLLM engine")
    group.add_argument("--pretrain", type=str, default="Qwen/Qwen2.5-7B-Instruct")
    group.add_argument("--vllm_gpu_memory_utilization", type=float, default=0.85)
    group.add_argument("--max_len", type=int, default=4096)
    return parser


def add_rollout_args(parser):
    group = parser.add_argument_group("rollout")
    group.add_argument("--temperature", type=float, default=1.0)
    group.add_argument("--top_p", type=float, default=1.0)
    group.add_argument("--top_k", type=int, default=-1)  # expect: RPL102
    group.add_argument("--generate_max_len", type=int, default=1024)
    return parser


def get_parser():
    parser = argparse.ArgumentParser(description="replay rollouts")
    add_vllm_args(parser)
    add_rollout_args(parser)
    return parser
