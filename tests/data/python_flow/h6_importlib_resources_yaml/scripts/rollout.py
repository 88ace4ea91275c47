# Imitates NVIDIA-NeMo/Skills' scripts: the engine built by the package from its packaged config
from vllm import SamplingParams

from rlkit.engine import build_engine

if __name__ == "__main__":
    llm = build_engine()
    llm.generate(["What is 3 * 7?"], SamplingParams(temperature=1.0, top_k=30, max_tokens=64))
