# Imitates vllm-project/vllm examples/offline_inference/basic/generate.py: an option without a
# default and an option whose default is read at run time: nothing is known of them: clean.
import argparse
import os

from vllm import LLM

parser = argparse.ArgumentParser()
parser.add_argument("--logprobs-mode")
parser.add_argument("--spec-config", default=os.environ.get("SPEC_CONFIG"))
args = parser.parse_args()
llm = LLM("Qwen/Qwen3-8B", return_sampling_mask=True, logprobs_mode=args.logprobs_mode, speculative_config=args.spec_config)
