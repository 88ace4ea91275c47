# Imitates LiveCodeBench/LiveCodeBench lcb_runner/runner/parser.py: every option of the run has
# an argparse default, read back as `args.x` by the runner.
import argparse


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="Qwen/Qwen2.5-Coder-7B-Instruct")
    parser.add_argument("--local_model_path", type=str, default=None)
    parser.add_argument("--trust_remote_code", action="store_true")
    parser.add_argument("--n", type=int, default=10, help="Number of samples to generate")
    parser.add_argument("--temperature", type=float, default=0.2, help="Temperature for sampling")
    parser.add_argument("--top_p", type=float, default=0.95, help="Top p for sampling")
    parser.add_argument("--top_k", type=int, default=20, help="Top k for sampling (replay needs it)")
    parser.add_argument("--max_tokens", type=int, default=2000, help="Max tokens for sampling")
    parser.add_argument("--stop", default="###", type=str, help="Stop token (use `,` to separate multiple tokens)")
    parser.add_argument("--tensor_parallel_size", type=int, default=1)
    parser.add_argument("--enable_prefix_caching", action="store_true")
    parser.add_argument("--dtype", type=str, default="bfloat16")
    parser.add_argument("--use_cache", action="store_true")
    args = parser.parse_args()
    args.stop = args.stop.split(",")
    return args
