# Imitates volcengine/verl verl/trainer/main_ppo.py (the entry point starts the rollout server)
import asyncio

from rollout.server import AsyncRolloutServer

if __name__ == "__main__":
    asyncio.run(AsyncRolloutServer("Qwen/Qwen2.5-3B-Instruct").launch_server())
