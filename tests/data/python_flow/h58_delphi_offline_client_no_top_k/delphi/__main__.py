# Imitates EleutherAI/delphi delphi/__main__.py and delphi/config.py (RunConfig parsed by simple_parsing, the Offline explainer client)
import asyncio
from dataclasses import dataclass

from simple_parsing import ArgumentParser

from delphi.clients import Offline


@dataclass
class RunConfig:
    model: str = "EleutherAI/pythia-70m"
    explainer_model: str = "Qwen/Qwen2.5-0.5B-Instruct"
    explainer_model_max_len: int = 2048
    explainer_provider: str = "offline"
    num_gpus: int = 1
    verbose: bool = True


async def explain(llm_client, latents):
    explanations = []
    for latent in latents:
        messages = [{"role": "user", "content": f"Explain the latent: {latent}"}]
        explanations.append(await llm_client.generate(messages))
    return explanations


def run(run_cfg: RunConfig):
    if run_cfg.explainer_provider == "offline":
        llm_client = Offline(
            run_cfg.explainer_model,
            max_memory=0.7,
            max_model_len=run_cfg.explainer_model_max_len,
            num_gpus=run_cfg.num_gpus,
            statistics=run_cfg.verbose,
        )
    else:
        raise ValueError(f"Explainer provider {run_cfg.explainer_provider} not supported")
    return asyncio.run(explain(llm_client, ["layers.6.mlp/0", "layers.6.mlp/1"]))


if __name__ == "__main__":
    parser = ArgumentParser()
    parser.add_arguments(RunConfig, dest="run_cfg")
    args = parser.parse_args()
    run(args.run_cfg)
