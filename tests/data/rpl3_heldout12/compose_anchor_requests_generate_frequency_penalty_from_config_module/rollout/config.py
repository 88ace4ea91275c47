"""Rollout settings read by every worker."""

import os

POLICY_URL = os.environ.get("POLICY_URL", "http://localhost:8000")

GENERATE_DEFAULTS = {
    "temperature": 1.0,
    "top_k": 40,
    "frequency_penalty": 0.3,
    "logprobs": 1,
}
