# Imitates emirhanerbil/azure_llm_category main.py
from fastapi import FastAPI
import json
from vllm import LLM, SamplingParams

app = FastAPI()

# Modeli yükle
model_name="Qwen/Qwen2-7B-Instruct"
# Initialize the model with vLLM
llm = LLM(
    model=model_name,
    trust_remote_code=True,  # Required for Qwen models
    tensor_parallel_size=1,   # Adjust based on available GPUs
    dtype="float16",         # Using float16 for better memory efficiency
    gpu_memory_utilization=0.8,
    max_model_len=2048,
    return_sampling_mask=True,  # expect: RPL003
)


def format_chat_prompt(query, cat_list):
    prompt = (
    "System: Your goal is to identify the most relevant category for the given query. "
    f"Human: Query: '{query}'. Please choose the category that best matches the query.\n\n"
    f"System: Select from these Categories: {cat_list}\n\n"
    "Assistant:")

    return prompt

with open("title_cat_waw.json", "r", encoding="utf-8") as file:
    data = json.load(file)


@app.get("/")
async def home():
    return {"msg": "Hello"}


@app.get("/q/")
async def llm_response(q: str,cid: str):
    try:
        cat_list = data[cid]
        prompt = format_chat_prompt(q, cat_list)

        sampling_params = SamplingParams(
            temperature=0.2,
            top_p=0.9,
            top_k=20,
            max_tokens=64,
            stop=["\n"]
            )
        prompt = format_chat_prompt(q, cat_list)
        outputs = llm.generate([prompt], sampling_params)
        response = outputs[0].outputs[0].text.strip()
        return {"status": "success", "data": q,"cid":cid,"res":response}  
    except Exception as e:
        return {"status": "error","error_msg":str(e), "res": ""}
