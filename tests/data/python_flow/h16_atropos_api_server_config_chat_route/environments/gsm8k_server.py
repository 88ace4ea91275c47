# Imitates NousResearch/atropos environments/gsm8k_server.py (config_init's APIServerConfig list, chat_completion per group).
import asyncio

from atroposlib.openai_server import APIServerConfig, OpenAIServer


def config_init():
    server_configs = [
        APIServerConfig(
            model_name="Qwen/Qwen2.5-1.5B-Instruct",
            base_url="http://localhost:9001/v1",
            api_key="x",
        ),
    ]
    return server_configs


async def collect_trajectories(server: OpenAIServer, question: str):
    return await server.chat_completion(
        messages=[{"role": "user", "content": question}],
        n=16,
        max_tokens=1024,
        temperature=1.0,
    )


if __name__ == "__main__":
    server = OpenAIServer(config_init()[0])
    asyncio.run(collect_trajectories(server, "What is 7 * 6?"))
