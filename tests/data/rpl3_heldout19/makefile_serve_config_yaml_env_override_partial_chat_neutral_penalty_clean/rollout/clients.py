from openai import OpenAI


def make_client() -> OpenAI:
    base = OpenAI(base_url="http://localhost:8000/v1", api_key="EMPTY")
    return base.with_options(timeout=120.0, max_retries=3)
