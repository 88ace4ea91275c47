# Imitates huggingface/trl trl/scripts/vllm_serve.py's `ScriptArguments`, as an argparse parser.
import argparse


def build_parser():
    parser = argparse.ArgumentParser(description="Serve a policy for rollouts")
    parser.add_argument("--model", required=True)
    parser.add_argument("--tensor-parallel-size", type=int, default=1)
    parser.add_argument("--logprobs-mode", default="raw_logprobs")  # expect: RPL003
    return parser
