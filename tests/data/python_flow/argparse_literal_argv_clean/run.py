# Imitates vllm-project/vllm examples/offline_inference/basic/generate.py, with the command line
# written into the program: the default `raw_logprobs` is overridden by the list, `--replay=...`
# is not how a store_true flag is given (argparse refuses it), so nothing is read from that one.
import argparse

from vllm import LLM

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="Qwen/Qwen3-0.6B")
parser.add_argument("--logprobs-mode", default="raw_logprobs")
parser.add_argument("--replay", action="store_true")
args = parser.parse_args(["--logprobs-mode=processed_logprobs", "--replay"])
llm = LLM(model=args.model, return_sampling_mask=args.replay, logprobs_mode=args.logprobs_mode)

unread = parser.parse_args(["--replay=yes"])
LLM(model=unread.model, return_sampling_mask=unread.replay, logprobs_mode=unread.logprobs_mode)
