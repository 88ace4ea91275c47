# Imitates NovaSky-AI/SkyRL examples: the caller turns replay on and samples without top_k
from rl.factory import make_llm
from vllm import SamplingParams

llm = make_llm("NovaSky-AI/Sky-T1-7B", return_sampling_mask=True)
outputs = llm.generate(["Solve: x^2=4"], SamplingParams(temperature=0.7, max_tokens=128))  # expect: RPL102 "top_k > 0"
