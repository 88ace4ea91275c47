# Imitates ZubinGou/math-evaluation-harness scripts/run_eval_multi_gpus.py (one `os.system` command string per GPU)
import argparse
import os
import subprocess


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default="deepseek-ai/deepseek-math-7b-rl", type=str)
    parser.add_argument("--data_names", default="gsm8k,math", type=str)
    parser.add_argument("--gpus", default="0", type=str)
    return parser.parse_args()


def main():
    args = parse_args()
    procs = []
    for gpu in args.gpus.split(","):
        cmd = f"CUDA_VISIBLE_DEVICES={gpu} "
        cmd += "VLLM_USE_V2_MODEL_RUNNER=0 "  # expect: RPL206
        cmd += f"python3 -u math_eval.py --model_name_or_path {args.model_name_or_path} "
        cmd += f"--data_names {args.data_names} --n_sampling 4"
        print(cmd)
        procs.append(subprocess.Popen(cmd, shell=True, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    for p in procs:
        p.wait()


if __name__ == "__main__":
    main()
