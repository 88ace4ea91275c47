# Imitates princeton-pli/LongProc example_usage.py (load a task, query the model with batch_query).
from llm_utils import batch_query

if __name__ == "__main__":
    prompts = [[{"role": "user", "content": "Convert the HTML table to TSV."}]]
    outputs = batch_query(prompts, "vllm/Qwen/Qwen2.5-7B-Instruct", gen_max_tokens=1024, temperature=0.6,
                          top_p=0.95, max_model_len=2048)
