# Imitates hao-ai-lab/Dynasor dynasor/cli/vllm_server.py: vLLM's OpenAI server (api_server.run_server)
# started with vLLM's own parser (make_arg_parser), its completion routes replaced by Dynasor's
# adaptive-compute handlers; the handlers are trimmed to the route swap.
"""
Adopted from vLLM openai server
"""
import uvloop

from vllm.entrypoints.openai import api_server
from vllm.entrypoints.openai.cli_args import (make_arg_parser,
                                              validate_parsed_serve_args)
from vllm.entrypoints.utils import cli_env_setup
from vllm.utils.argparse_utils import FlexibleArgumentParser

from dynasor.cli.handlers import adaptive_create_chat_completion, adaptive_create_completion

#overriding the api_server routers for adaptive decoding
for path in ("/v1/completions", "/v1/chat/completions"):
    api_server.router.routes[:] = [
        r for r in api_server.router.routes
        if not (hasattr(r, "path") and r.path == path)
    ]
api_server.router.post("/v1/completions")(adaptive_create_completion)
api_server.router.post("/v1/chat/completions")(adaptive_create_chat_completion)

def main():
    # This section should be in sync with vllm/entrypoints/cli/main.py for CLI entrypoints.
    cli_env_setup()
    parser = FlexibleArgumentParser(
        description="vLLM OpenAI-Compatible RESTful API server.")
    parser = make_arg_parser(parser)
    args = parser.parse_args()
    validate_parsed_serve_args(args)

    uvloop.run(api_server.run_server(args))

if __name__ == "__main__":
    main()
