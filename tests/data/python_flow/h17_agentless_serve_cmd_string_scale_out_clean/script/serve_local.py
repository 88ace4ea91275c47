# Imitates OpenAutoCoder/Agentless's local-model setup (a `vllm serve` the user starts before
# `python agentless/fl/localize.py --backend openai`), written as a string-built command line
import argparse
import shlex
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--model", type=str, default="Qwen/Qwen2.5-Coder-32B-Instruct")
parser.add_argument("--port", type=int, default=8000)
parser.add_argument("--tp", type=int, default=4)
args = parser.parse_args()

cmd = f"vllm serve {args.model} --port {args.port} --tensor-parallel-size {args.tp} --max-model-len 32768"
cmd += " --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
server = subprocess.Popen(shlex.split(cmd))
server.wait()
