# Imitates shawnghu/small-rl vllm_async_server.py (argparse server script that awaits create_async_engine).
import argparse
import asyncio

from vllm import SamplingParams

from vllm_mlp_adapter import create_async_engine


def parse_args():
    parser = argparse.ArgumentParser(description="Async vLLM generation server")
    parser.add_argument("--model", default="HuggingFaceTB/SmolLM2-135M-Instruct")
    parser.add_argument("--max_experiments", type=int, default=10)
    return parser.parse_args()


async def serve(args):
    engine, mgr = await create_async_engine(model_name=args.model, max_experiments=args.max_experiments)
    sp = SamplingParams(n=4, temperature=1.0, top_k=50, max_tokens=128)
    out = await mgr.generate_one("Once upon a time", "warmup-0", sp)
    print(out.outputs[0].text)


def main():
    asyncio.run(serve(parse_args()))


if __name__ == "__main__":
    main()
