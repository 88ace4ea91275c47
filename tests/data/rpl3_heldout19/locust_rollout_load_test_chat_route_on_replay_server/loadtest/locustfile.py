"""Simulates the trainer's rollout workers: each user samples completions the trainer replays."""

from locust import HttpUser, between, task

PROMPT = [{"role": "user", "content": "Solve: 17 * 23 = ?"}]


class RolloutWorker(HttpUser):
    host = "http://localhost:8000"
    wait_time = between(0.1, 0.5)

    @task
    def rollout(self) -> None:
        body = {"model": "Qwen/Qwen3-0.6B", "messages": PROMPT, "temperature": 1.0, "top_k": 50, "max_tokens": 256}
        self.client.post("/v1/chat/completions", json=body, name="rollout")
