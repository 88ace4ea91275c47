import asyncio

from litellm import Router

router = Router(
    model_list=[
        {
            "model_name": "policy",
            "litellm_params": {
                "model": "hosted_vllm/Qwen/Qwen3-8B",
                "api_base": "http://localhost:8000/v1",
                "api_key": "EMPTY",
            },
        }
    ],
    num_retries=3,
    timeout=600,
)


async def rollout(messages: list[dict], tools: list[dict]) -> dict:
    response = await router.acompletion(
        model="policy",
        messages=messages,
        tools=tools,
        temperature=1.0,
        max_tokens=4096,
        logprobs=True,
        extra_body={"top_k": 40},
    )
    return response.model_dump()


async def main(tasks: list[list[dict]], tools: list[dict]) -> list[dict]:
    return await asyncio.gather(*(rollout(messages, tools) for messages in tasks))
