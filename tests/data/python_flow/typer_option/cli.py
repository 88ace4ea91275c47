# Imitates a typer command line around an engine (prime-rl's older `typer` entry points).
import typer
from vllm import LLM

app = typer.Typer()


@app.command()
def main(model: str = "Qwen/Qwen3-8B", logprobs_mode: str = typer.Option("raw_logprobs")):  # expect: RPL003
    LLM(model, return_sampling_mask=True, logprobs_mode=logprobs_mode)
