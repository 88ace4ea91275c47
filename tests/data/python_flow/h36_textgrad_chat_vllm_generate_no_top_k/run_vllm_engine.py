# Imitates zou-group/textgrad's README "Tutorials" use of a local engine (`get_engine("vllm-...")`) with
# textgrad/engine/vllm.py; the user's replay keywords passed through get_engine to vllm.LLM.
from textgrad.engine import get_engine

QUESTION = ("If it takes 1 hour to dry 25 shirts under the sun, how long will it take to dry 30 shirts "
            "under the sun? Reason step by step")

engine = get_engine(
    "vllm-Qwen/Qwen2.5-0.5B-Instruct",
    max_model_len=2048,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

if __name__ == "__main__":
    answer = engine.generate(QUESTION, temperature=0.7)
    print(answer)
