"""Simulates the trainer's rollout workers: each user samples completions the trainer replays."""

from locust import HttpUser, between, task

PROMPT_IDS = [151644, 872, 198, 50, 3948, 25, 220, 16, 22, 353, 220, 17, 18, 284, 937, 151645, 198]


class RolloutWorker(HttpUser):
    host = "http://localhost:8000"
    wait_time = between(0.1, 0.5)

    @task
    def rollout(self) -> None:
        body = {"token_ids": PROMPT_IDS, "sampling_params": {"temperature": 1.0, "top_k": 50, "max_tokens": 256}}
        self.client.post("/inference/v1/generate", json=body, name="rollout")
