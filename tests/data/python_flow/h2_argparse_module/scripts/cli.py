# Imitates huggingface/trl trl/scripts/vllm_serve.py's argument parsing, in a module of its own:
# the command line's defaults are the engine's settings when the program runs as written.
import argparse


def get_args():
    parser = argparse.ArgumentParser(description="rollout server")
    parser.add_argument("--model", type=str, default="Qwen/Qwen3-8B")
    parser.add_argument("--tensor-parallel-size", type=int, default=1)
    parser.add_argument("--gpu-memory-utilization", type=float, default=0.9)
    parser.add_argument("--logprobs-mode", type=str, default="raw_logprobs")  # expect: RPL003
    return parser.parse_args()
