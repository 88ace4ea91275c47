import asyncio

from agent.llm import PolicyLLM


async def main() -> None:
    llm = PolicyLLM()
    print(await llm.act([{"role": "user", "content": "Solve 12 * 7."}]))


if __name__ == "__main__":
    asyncio.run(main())
