# Imitates inclusionAI/AReaL examples/ entry scripts: build the config object, spread it into the
# engine (attrs.asdict), sample.
import attrs
from vllm import LLM, SamplingParams

from evalcfg.engine import DebugEngineConfig


def main():
    cfg = DebugEngineConfig()
    llm = LLM(**attrs.asdict(cfg))
    params = SamplingParams(temperature=0.6, top_p=0.95, top_k=20, max_tokens=2048)
    for out in llm.generate(["Solve: 3x + 5 = 20."], params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
