# Imitates zgq1879/EGM (verl-internvl/scripts/vllm_infer.py): an AsyncOpenAI grounding client of the server that
# scripts/vllm_infer.sh starts.
import argparse
import asyncio
import base64
import json
import os
from typing import Any, Dict

from datasets import load_dataset
from openai import AsyncOpenAI

PROMPT_TEMPLATE = "Locate {sent}, output its bbox coordinates using JSON format"


def to_data_url(image_path: str) -> str:
    with open(image_path, "rb") as f:
        b64 = base64.b64encode(f.read()).decode("utf-8")
    return f"data:image/jpeg;base64,{b64}"


async def call_one(client: AsyncOpenAI, model: str, rec: Dict[str, Any], max_tokens: int) -> Dict[str, Any]:
    path = os.path.join(os.getenv("BASE_IMAGE_DIR"), rec["image"].lstrip("/"))
    content = [
        {"type": "image_url", "image_url": {"url": to_data_url(path), "detail": "high"}},
        {"type": "text", "text": PROMPT_TEMPLATE.format(sent=rec["sent"])},
    ]
    resp = await client.chat.completions.create(
        model=model,
        messages=[{"role": "user", "content": content}],
        temperature=0.0,
        top_p=1.0,
        presence_penalty=0.0,
        max_tokens=max_tokens,
        extra_body={
            "top_k": 20,
            "repetition_penalty": 1.0,
        },
    )
    return {"generation": resp.choices[0].message.content}


async def bounded_call(idx, rec, sem, client, model, max_tokens):
    async with sem:
        return idx, await call_one(client, model, rec, max_tokens)


async def main_async(args):
    ds = load_dataset("json", split='train', data_files=args.data_json)
    os.makedirs(args.output_dir, exist_ok=True)
    client = AsyncOpenAI(base_url=args.endpoint.rstrip("/") + "/v1", api_key="none")
    sem = asyncio.Semaphore(args.concurrency)
    tasks = [asyncio.create_task(bounded_call(i, ds[i], sem, client, args.model, args.max_tokens)) for i in range(len(ds))]
    generations = [None] * len(ds)
    for coro in asyncio.as_completed(tasks):
        idx, out = await coro
        generations[idx] = out["generation"]
    with open(os.path.join(args.output_dir, "generations.json"), "w", encoding="utf-8") as f:
        json.dump(generations, f, ensure_ascii=False, indent=2)


def parse_args():
    ap = argparse.ArgumentParser("Async concurrent VLM inference via vLLM (OpenAI-compatible)")
    ap.add_argument("--data_json", required=True)
    ap.add_argument("--endpoint", default="http://127.0.0.1:8000")
    ap.add_argument("--model", required=True)
    ap.add_argument("--output_dir", required=True)
    ap.add_argument("--max_tokens", type=int, default=1024)
    ap.add_argument("--concurrency", type=int, default=128)
    ap.add_argument("--prompt_template", type=str, required=True)
    ap.add_argument("--box_remap", type=str, required=True)
    return ap.parse_args()


if __name__ == "__main__":
    asyncio.run(main_async(parse_args()))
