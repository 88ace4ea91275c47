# Imitates yale-nlp/Physics offline_inference/evaluate_llama_vision.py (a module-level vLLM engine sized by
# torch.cuda.device_count(), requests built inside a retry helper and sent with engine.chat).
import json
import os

import torch
from dotenv import load_dotenv
from vllm import LLM, SamplingParams

# 加载环境变量
load_dotenv()

available_gpus = torch.cuda.device_count()
if available_gpus == 0:
    raise RuntimeError("No GPUs found! Please ensure CUDA is properly configured.")

torch.cuda.empty_cache()

# 初始化 vLLM 引擎（使用 Llama 模型）
engine = LLM(
    model="meta-llama/Llama-3.2-11B-Vision-Instruct",  # 替换为本地 Llama 模型路径
    tensor_parallel_size= available_gpus,  # 根据硬件支持设置并行度
    dtype="half",
    kv_cache_dtype="auto",
    max_model_len=2048,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

print('engine loaded')


def ask_llm_with_retries(llm_messages, max_retries=3, delay=2):
    """同步运行 vLLM 模型推理，支持多次重试"""
    for attempt in range(max_retries):
        try:
            # 提取用户消息
            sampling_params = SamplingParams(temperature=0, max_tokens=1024, top_k=20)  # expect: RPL101

            outputs = engine.chat(llm_messages, sampling_params)
            response = ""
            for output in outputs:
                response += output.outputs[0].text + "\n"
            return response
        except Exception as e:
            print(f"Attempt {attempt + 1} failed: {e}")
            if attempt < max_retries - 1:
                torch.cuda.empty_cache()
    return None


def process_entry(entry, max_retries=3):
    questions = entry.get("questions", "")
    graphs = entry.get("graphs", [])
    llm_messages = []
    if questions:
        llm_messages.append({"type": "text", "text": questions})
    if graphs:
        llm_messages.extend(graphs)
    if not llm_messages:
        return None
    messages = [
        {
            "role": "system",
            "content": "You are an AI expert specializing in answering advanced physics questions. "
            "Provide the final answer at the end in Latex boxed format.",
        },
        {"role": "user", "content": llm_messages},
    ]
    answers = ask_llm_with_retries(messages, max_retries=max_retries)
    return {"id": entry.get("id"), "solution": answers}


def process_jsonl_and_generate_answers(input_jsonl, output_dir, max_lines=30):
    os.makedirs(output_dir, exist_ok=True)
    output_jsonl = os.path.join(output_dir, "response.jsonl")
    with open(input_jsonl, "r") as file:
        lines = file.readlines()
    results = []
    for idx, line in enumerate(lines):
        if idx >= max_lines:
            break
        entry_result = process_entry(json.loads(line.strip()))
        if entry_result:
            results.append(entry_result)
        torch.cuda.empty_cache()
    with open(output_jsonl, "w") as outfile:
        for result in results:
            json.dump(result, outfile, ensure_ascii=False)
            outfile.write("\n")


# Example Usage
if __name__ == "__main__":
    input_jsonl = "PHYSICS/mechanics_dataset.jsonl"
    output_dir = "PHYSICS/llama_vision_vllm_output"
    print(f"Detected {available_gpus} GPUs. Using tensor_parallel_size = {available_gpus}.")
    process_jsonl_and_generate_answers(input_jsonl, output_dir, max_lines=3)
