# Imitates OpenRLHF/OpenRLHF openrlhf/cli/train_ppo_ray.py @ 3c3be6234e0cb353e76bb8019947db9dfe99fca7.
import argparse

from openrlhf.trainer.ray import create_vllm_engines


def train(args):
    return create_vllm_engines(
        args.vllm_num_engines,
        args.vllm_tensor_parallel_size,
        args.pretrain,
        args.seed,
        "processed_logprobs" if args.enable_correction else None,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--vllm_num_engines", type=int, default=1)
    parser.add_argument("--vllm_tensor_parallel_size", type=int, default=1)
    parser.add_argument("--pretrain", type=str, default="OpenRLHF/Llama-3-8b-sft-mixture")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--enable_correction", action="store_true", default=False)
    train(parser.parse_args())
