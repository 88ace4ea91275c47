# Imitates PrimeIntellect-ai/prime-rl src/zeroband/inference/server.py (as in its forks, e.g.
# faustomilletari/prime-rl @ a1a1c43): the same in-process server asking for replay as vLLM
# wants it; a second one parses into a namespace the config fills (`namespace=config.to_vllm()`),
# which may hold any setting: open-ended, nothing rests on what its words leave out.
import uvloop
from vllm.entrypoints.openai.api_server import build_async_engine_client, run_server
from vllm.entrypoints.openai.cli_args import make_arg_parser
from vllm.utils.argparse_utils import FlexibleArgumentParser


def server():
    parser = FlexibleArgumentParser(description="vLLM OpenAI-Compatible RESTful API server.")
    parser = make_arg_parser(parser)
    args = parser.parse_args(
        ["--model", "Qwen/Qwen3-0.6B", "--return-sampling-mask", "--enable-scale-out", "--logprobs-mode", "processed_logprobs"]
    )
    uvloop.run(run_server(args))


async def engine_client(config):
    parser = make_arg_parser(FlexibleArgumentParser())
    args = parser.parse_args(["--return-sampling-mask", "--enable-scale-out"], namespace=config.to_vllm())
    async with build_async_engine_client(args) as client:
        return client


def unserved():
    # Parsed and never served: no engine starts.
    return make_arg_parser(FlexibleArgumentParser()).parse_args(["--return-sampling-mask", "--logprobs-mode", "raw_logprobs"])


if __name__ == "__main__":
    server()
