# Imitates the attrs frozen configs of a rollout library: only the evolved variant reaches the engine
import attrs
from vllm import LLM, SamplingParams

from specs import REPLAY

llm = LLM(**attrs.asdict(REPLAY))
llm.generate(["Hi"], SamplingParams(temperature=1.0, top_k=40, max_tokens=16))
