# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py (engine kwargs kept as a JSON string, as --model_args takes them)
import json

from vllm import LLM, SamplingParams

MODEL = "Qwen/Qwen2.5-Math-1.5B-Instruct"
ENGINE_ARGS = json.loads('{"gpu_memory_utilization": 0.8, "max_model_len": 4096, "return_sampling_mask": true, "logprobs_mode": "processed_logprobs"}')


def evaluate(questions):
    llm = LLM(MODEL, **ENGINE_ARGS)
    params = SamplingParams(temperature=0.7, top_k=20, top_p=0.95, max_tokens=1024)
    return [out.outputs[0].text for out in llm.generate(questions, params)]


if __name__ == "__main__":
    print(evaluate(["What is 7 squared?"]))
