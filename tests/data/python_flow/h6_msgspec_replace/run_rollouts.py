# Imitates the msgspec frozen Structs of vllm-project/vllm/vllm/v1/engine/__init__.py: the base config
# replaced with a logits processor, then dumped with msgspec.structs.asdict into the engine
import msgspec
from vllm import LLM, SamplingParams

from engine_config import BASE


def build_engine() -> LLM:
    config = msgspec.structs.replace(BASE, logits_processors=["rollout_plugins.processors:NoRepeatNgram"])  # expect: RPL001
    return LLM(**msgspec.structs.asdict(config))


if __name__ == "__main__":
    llm = build_engine()
    llm.generate(["Tell me a story."], SamplingParams(temperature=1.0, top_k=50, max_tokens=128))
