# Imitates snowflakedb/ArcticTraining's vLLM generation scripts: a pydantic config dumped into LLM and SamplingParams.
from vllm import LLM, SamplingParams

from vllm_config import SynthConfig


def main():
    cfg = SynthConfig()
    llm = LLM(**cfg.engine.model_dump())
    params = SamplingParams(**cfg.generation.model_dump())
    for out in llm.generate(["Write a SQL query that counts rows."], params):
        print(out.outputs[0].text)


if __name__ == "__main__":
    main()
