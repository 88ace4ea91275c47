"""Send every task's prompts to the replay server, each task's sampling over the base one."""

import requests

URL = "http://localhost:8000/inference/v1/generate"
BASE_SAMPLING = {"temperature": 1.0, "top_k": 64, "max_tokens": 1024}
TASK_OVERRIDES = {
    "math": {"max_tokens": 4096, "stop": ["</answer>"]},
    "creative": {"temperature": 1.2, "presence_penalty": 0.4},
    "code": {"temperature": 0.8},
}
PROMPTS = {"math": [[151644, 8504]], "creative": [[151644, 7985]], "code": [[151644, 1474]]}


def run(task: str) -> list[dict]:
    sampling_params = BASE_SAMPLING | TASK_OVERRIDES[task]
    results = []
    for token_ids in PROMPTS[task]:
        response = requests.post(URL, json={"token_ids": token_ids, "sampling_params": sampling_params}, timeout=300)
        response.raise_for_status()
        results.append(response.json())
    return results


if __name__ == "__main__":
    for task in TASK_OVERRIDES:
        run(task)
