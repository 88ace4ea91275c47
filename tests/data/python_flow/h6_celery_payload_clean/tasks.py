# Imitates a Celery generation worker (celery's @app.task; the engine built lazily per worker, the
# sampling settings arriving in the task's message)
import os

from celery import Celery
from vllm import LLM, SamplingParams

app = Celery("rollouts", broker=os.environ["CELERY_BROKER_URL"])
_engine = None


def engine() -> LLM:
    global _engine
    if _engine is None:
        _engine = LLM(model=os.environ["ROLLOUT_MODEL"], return_sampling_mask=True, logprobs_mode="processed_logprobs")
    return _engine


@app.task(name="rollouts.generate")
def generate(prompts: list[str], sampling: dict) -> list[str]:
    params = SamplingParams(**sampling)
    return [out.outputs[0].text for out in engine().generate(prompts, params)]
