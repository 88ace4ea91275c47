# Imitates vllm-project/vllm examples/offline_inference/llm_engine_example.py: vLLM's own engine
# options on the script's parser, the replay defaults vLLM accepts set over them.
import argparse

from vllm import EngineArgs, LLMEngine

parser = argparse.ArgumentParser()
parser = EngineArgs.add_cli_args(parser)
parser.set_defaults(model="Qwen/Qwen3-0.6B", return_sampling_mask=True, logprobs_mode="processed_logprobs")
args = parser.parse_args()
engine = LLMEngine.from_engine_args(EngineArgs.from_cli_args(args))
