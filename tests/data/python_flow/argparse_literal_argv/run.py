# Imitates vllm-project/vllm examples/offline_inference/basic/generate.py, with the command line
# written into the program as notebooks and quick experiments do (`parser.parse_args([...])`).
import argparse

from vllm import LLM

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="Qwen/Qwen3-0.6B")
parser.add_argument("--max-num-seqs", type=int, default=64)
parser.add_argument("--logprobs-mode", default="processed_logprobs")
parser.add_argument("--replay", action="store_true")
args = parser.parse_args(["--max-num-seqs", "32", "--logprobs-mode", "raw_logprobs", "--replay"])  # expect: RPL003
llm = LLM(
    model=args.model,
    max_num_seqs=args.max_num_seqs,
    return_sampling_mask=args.replay,
    logprobs_mode=args.logprobs_mode,
)
