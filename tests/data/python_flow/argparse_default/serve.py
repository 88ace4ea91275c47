# Imitates vllm-project/vllm examples/offline_inference/basic/generate.py: engine options from
# argparse, the mode left at the parser's default.
import argparse

from vllm import LLM

parser = argparse.ArgumentParser()
parser.add_argument("--logprobs-mode", default="raw_logprobs")  # expect: RPL003 "logprobs_mode comes from --logprobs-mode, default 'raw_logprobs' (serve.py:8)"
parser.add_argument("--model", default="Qwen/Qwen3-8B")
args = parser.parse_args()
llm = LLM(args.model, return_sampling_mask=True, logprobs_mode=args.logprobs_mode)
