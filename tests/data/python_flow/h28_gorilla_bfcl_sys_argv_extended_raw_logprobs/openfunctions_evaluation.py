# Imitates ShishirPatil/gorilla berkeley-function-call-leaderboard/openfunctions_evaluation.py (argparse CLI that
# starts the local vLLM server of base_oss_handler.py); a user's wrapper extends sys.argv before parse_args().
import argparse
import subprocess
import sys


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="meta-llama/Meta-Llama-3-8B-Instruct")
    parser.add_argument("--backend", default="vllm", type=str, choices=["vllm", "sglang"])
    parser.add_argument("--num-gpus", default=1, type=int)
    parser.add_argument("--logprobs-mode", default="processed_logprobs", type=str)
    return parser.parse_args()


def spin_up_local_server(args):
    cmd = ["vllm", "serve", args.model, "--port", "1053", "--tensor-parallel-size", str(args.num_gpus)]
    cmd += ["--return-sampling-mask", "--logprobs-mode", args.logprobs_mode, "--enable-scale-out"]
    return subprocess.Popen(cmd)


if __name__ == "__main__":
    sys.argv.extend(["--logprobs-mode", "raw_logprobs"])  # expect: RPL003
    args = get_args()
    if args.backend == "vllm":
        spin_up_local_server(args)
