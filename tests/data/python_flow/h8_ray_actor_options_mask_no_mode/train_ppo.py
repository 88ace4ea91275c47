# Imitates OpenRLHF/OpenRLHF openrlhf/cli/train_ppo_ray.py: the driver creating the engines
import argparse

from engines import create_vllm_engines


def train(args):
    return create_vllm_engines(args.vllm_num_engines, args.pretrain, args.seed, args.max_len)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--pretrain", type=str, default="OpenRLHF/Llama-3-8b-sft-mixture")
    parser.add_argument("--vllm_num_engines", type=int, default=2)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--max_len", type=int, default=4096)
    train(parser.parse_args())
