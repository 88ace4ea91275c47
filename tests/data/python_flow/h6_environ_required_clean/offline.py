# Imitates vllm-project/vllm/examples/offline_inference/rlhf.py with python-dotenv's load_dotenv():
# the logprobs mode read from a variable without a default (the run's environment decides)
import os

from dotenv import load_dotenv
from vllm import LLM, SamplingParams

load_dotenv()

llm = LLM(
    model=os.environ.get("MODEL", "Qwen/Qwen2.5-0.5B-Instruct"),
    return_sampling_mask=True,
    logprobs_mode=os.environ["ROLLOUT_LOGPROBS_MODE"],
)
params = SamplingParams(
    temperature=float(os.environ.get("TEMPERATURE", "1.0")),
    top_k=int(os.environ.get("TOP_K", "50")),
    max_tokens=256,
)
print(llm.generate(["The sky is"], params)[0].outputs[0].text)
