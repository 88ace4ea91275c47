# Imitates THUDM/GLM-4 basic_demo/vllm_cli_demo.py (AsyncEngineArgs, AsyncLLMEngine.from_engine_args, params_dict)
import asyncio
import time
from typing import Dict, List

from transformers import AutoTokenizer
from vllm import AsyncEngineArgs, AsyncLLMEngine, SamplingParams

MODEL_PATH = "THUDM/glm-4-9b-chat-hf"


def load_model_and_tokenizer(model_dir: str, enable_lora: bool):
    tokenizer = AutoTokenizer.from_pretrained(model_dir, trust_remote_code=True)
    engine_args = AsyncEngineArgs(
        model=model_dir,
        tokenizer=model_dir,
        enable_lora=enable_lora,
        tensor_parallel_size=1,
        dtype="bfloat16",
        trust_remote_code=True,
        gpu_memory_utilization=0.9,
        enforce_eager=True,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    engine = AsyncLLMEngine.from_engine_args(engine_args)
    return engine, tokenizer


async def vllm_gen(engine, tokenizer, messages: List[Dict[str, str]], top_p: float, temperature: float, max_dec_len: int):
    inputs = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    params_dict = {
        "n": 1,
        "presence_penalty": 0.0,
        "frequency_penalty": 0.0,
        "temperature": temperature,
        "top_p": top_p,
        "top_k": 50,
        "repetition_penalty": 1.0,
        "max_tokens": max_dec_len,
        "skip_special_tokens": True,
    }
    sampling_params = SamplingParams(**params_dict)
    async for output in engine.generate(prompt=inputs, sampling_params=sampling_params, request_id=f"{time.time()}"):
        yield output.outputs[0].text


async def chat():
    engine, tokenizer = load_model_and_tokenizer(MODEL_PATH, enable_lora=False)
    history = [{"role": "user", "content": "你好"}]
    async for text in vllm_gen(engine, tokenizer, history, top_p=0.8, temperature=0.6, max_dec_len=8192):
        print(text, end="", flush=True)


if __name__ == "__main__":
    asyncio.run(chat())
