"""Ray Serve deployment of the rollout policy: `serve run serve_policy:app`."""

from pathlib import Path

import yaml
from ray import serve
from starlette.requests import Request
from vllm import LLM, SamplingParams

CONFIG = yaml.safe_load((Path(__file__).parent / "configs" / "policy.yaml").read_text())


@serve.deployment(ray_actor_options={"num_gpus": 1})
class PolicyEngine:
    def __init__(self, cfg: dict):
        self.llm = LLM(**cfg["engine"])
        self.params = SamplingParams(**cfg["sampling"])

    async def __call__(self, request: Request) -> dict:
        prompts = (await request.json())["prompts"]
        outputs = self.llm.generate(prompts, self.params)
        return {
            "samples": [
                {"token_ids": list(o.outputs[0].token_ids), "sampling_mask": o.outputs[0].sampling_mask}
                for o in outputs
            ]
        }


app = PolicyEngine.bind(CONFIG)
