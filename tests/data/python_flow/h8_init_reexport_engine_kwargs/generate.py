# Imitates hiyouga/EasyR1 scripts: a generation script importing the defaults through the package
from myrl import ENGINE_KWARGS
from vllm import LLM, SamplingParams

llm = LLM("Qwen/Qwen2.5-VL-7B-Instruct", **ENGINE_KWARGS)
llm.generate(["Describe the image."], SamplingParams(temperature=1.0, top_k=50))
