# Imitates hao-ai-lab/Consistency_LLM data/generate_trajectory.py's CLI (model path, max new tokens), as a typer
# app that samples with the engine of engine.py.
import asyncio

import typer
from vllm import SamplingParams

from engine import build_engine

app = typer.Typer()


@app.command()
def main(
    model: str = "cllm/consistency-llm-7b-gsm8k",
    temperature: float = typer.Option(0.7),
    top_k: int = typer.Option(0),  # expect: RPL102
    max_new_tokens: int = 256,
):
    engine = build_engine(model, max_model_len=2048)
    params = SamplingParams(temperature=temperature, top_k=top_k, max_tokens=max_new_tokens)

    async def run():
        async for out in engine.generate("Q: 12 * 7 = ?", params, request_id="0"):
            last = out
        print(last.outputs[0].text)

    asyncio.run(run())


if __name__ == "__main__":
    app()
