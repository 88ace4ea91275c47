# Imitates PrimeIntellect-ai/prime-rl src/zeroband/inference/server.py (as in its forks, e.g.
# faustomilletari/prime-rl @ a1a1c43): vLLM's OpenAI server started in process, its parser made
# by vLLM's `make_arg_parser` and given the words of a `vllm serve` command line.
import uvloop
from vllm.entrypoints.openai.api_server import run_server
from vllm.entrypoints.openai.cli_args import make_arg_parser
from vllm.utils.argparse_utils import FlexibleArgumentParser

VLLM_ARGS = [
    "--model",
    "Qwen/Qwen3-0.6B",
    "--return-sampling-mask",
    "--enable-scale-out",
    "--logprobs-mode",
    "raw_logprobs",  # expect: RPL003 "sampling distribution replay requires logprobs_mode='processed_logprobs'"
]


def server():
    parser = make_arg_parser(FlexibleArgumentParser(description="vLLM OpenAI-Compatible RESTful API server."))
    args = parser.parse_args(VLLM_ARGS)
    uvloop.run(run_server(args))


if __name__ == "__main__":
    server()
