import openai

BASE_URL = "http://grader.internal:8000/v1"


def make_client(run_id: str) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=BASE_URL,
        api_key="EMPTY",
        default_headers={"X-Run-Id": run_id},
        default_query={"trace": "1"},
    )
