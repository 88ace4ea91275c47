# Trimmed from kserve/kserve python/huggingfaceserver/huggingfaceserver/vllm/utils.py.
from argparse import ArgumentParser
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

try:
    from vllm.engine.arg_utils import AsyncEngineArgs
    from vllm.entrypoints.openai.cli_args import make_arg_parser
    from vllm.usage.usage_lib import UsageContext
    from vllm.v1.engine.async_llm import AsyncLLM

    _vllm = True
except ImportError:
    AsyncEngineArgs = Any
    _vllm = False


def vllm_available() -> bool:
    return _vllm


def maybe_add_vllm_cli_parser(parser: ArgumentParser) -> ArgumentParser:
    if not _vllm:
        return parser
    return make_arg_parser(parser)


def build_vllm_engine_args(args) -> "AsyncEngineArgs":
    if not _vllm:
        return None
    return AsyncEngineArgs.from_cli_args(args)


@asynccontextmanager
async def build_async_engine_client_from_engine_args(
    engine_args: AsyncEngineArgs,
) -> AsyncIterator[AsyncLLM]:
    usage_context = UsageContext.OPENAI_API_SERVER
    vllm_config = engine_args.create_engine_config(usage_context=usage_context)
    async_llm = AsyncLLM.from_vllm_config(
        vllm_config=vllm_config,
        usage_context=usage_context,
    )
    try:
        yield async_llm
    finally:
        async_llm.shutdown()
