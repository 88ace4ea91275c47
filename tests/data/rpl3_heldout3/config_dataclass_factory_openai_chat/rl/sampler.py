from openai import OpenAI

from rl.config import SamplerConfig


def make_client(cfg: SamplerConfig) -> OpenAI:
    return OpenAI(base_url=cfg.base_url, api_key="EMPTY")


def rollout(prompt: str, cfg: SamplerConfig = SamplerConfig()) -> str:
    client = make_client(cfg)
    reply = client.chat.completions.create(
        model=cfg.model,
        messages=[{"role": "user", "content": prompt}],
        extra_body={"top_k": cfg.top_k},
    )
    return reply.choices[0].message.content
