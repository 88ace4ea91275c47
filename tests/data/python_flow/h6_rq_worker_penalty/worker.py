# Imitates an RQ (python-rq) generation worker (rq's Queue.enqueue of a job function; the engine built
# lazily once per worker process behind a module global)
from redis import Redis
from rq import Queue
from vllm import LLM, SamplingParams

from settings import ENGINE_KWARGS, GENERATION_KWARGS

_llm = None


def get_llm() -> LLM:
    global _llm
    if _llm is None:
        _llm = LLM(**ENGINE_KWARGS)
    return _llm


def generate_job(prompt: str) -> str:
    outputs = get_llm().generate([prompt], SamplingParams(**GENERATION_KWARGS))
    return outputs[0].outputs[0].text


if __name__ == "__main__":
    Queue("rollouts", connection=Redis()).enqueue(generate_job, "Write a limerick about GPUs.")
