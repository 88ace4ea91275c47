# Imitates TIGER-AI-Lab/EvolveCoder acecoderv3/step2.1_vllm_gen.py (fire.Fire(main) with **vllm_kwargs
# handed to load_vllm_model, started per GPU group by acecoderv3/step2.1_gen.sh).
import hashlib
import json
import os
from pathlib import Path
from typing import List, Optional

import fire
import torch
from tqdm import tqdm
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams


def load_vllm_model(
    model_name_or_path: str,
    torch_dtype: Optional[torch.dtype] = torch.bfloat16,
    tensor_parallel_size: int = 1,
    **kwargs,
):
    print("load model from %s" % model_name_or_path)
    print("kwargs:", kwargs)
    model_vllm = LLM(model_name_or_path, dtype=torch_dtype, tensor_parallel_size=tensor_parallel_size, **kwargs)
    return model_vllm


def hash_messages(text: str) -> str:
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def preprocess_prompts(data: List[dict], tokenizer: AutoTokenizer) -> List[str]:
    prompts = []
    for item in data:
        messages = [{"role": "user", "content": item["synthesis_result"]["problem"]}]
        prompts.append(tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True))
    return prompts


FILE_NAME = "step2.1_gen"


def main(
    file_path: str,
    output_dir: str = None,
    start_idx=None,
    end_idx: Optional[int] = None,
    save_batch_size: int = 16,
    model_name_or_path: str = "meta-llama/Llama-2-7b-chat-hf",
    torch_dtype: Optional[str] = "bfloat16",
    tensor_parallel_size: int = 1,
    seed: int = 42,
    top_p: float = 0.95,
    top_k: int = 1,
    n=1,
    temperature: float = 0.6,
    max_tokens: int = 1024,
    overwrite: bool = False,
    device_id: str = None,
    **vllm_kwargs
):
    if device_id is not None:
        os.environ["CUDA_VISIBLE_DEVICES"] = str(device_id)

    output_dir = Path(output_dir) if output_dir else Path(file_path).parent
    output_dir.mkdir(parents=True, exist_ok=True)
    output_file = output_dir / f"{FILE_NAME}_seed{seed}_{start_idx}_{end_idx}.jsonl"
    if output_file.exists() and output_file.stat().st_size != 0 and not overwrite:
        print(f"Output file {output_file} already exists. Use --overwrite to overwrite.")
        return

    with open(file_path, "r") as f:
        data = [json.loads(line) for line in f.readlines()]
    if start_idx is not None and end_idx is not None:
        data = data[start_idx:end_idx]

    torch_dtype = getattr(torch, torch_dtype, torch.bfloat16)
    model_vllm = load_vllm_model(
        model_name_or_path=model_name_or_path,
        torch_dtype=torch_dtype,
        tensor_parallel_size=tensor_parallel_size,
        **vllm_kwargs
    )
    tokenizer = AutoTokenizer.from_pretrained(model_name_or_path)
    prompts = preprocess_prompts(data, tokenizer)

    # Set up sampling parameters
    sampling_params = SamplingParams(
        temperature=temperature,
        top_p=top_p,
        top_k=top_k,
        max_tokens=max_tokens,
        seed=seed,
        n=n
    )

    final_results = []
    for i in tqdm(range(0, len(prompts), save_batch_size), desc="Generating responses"):
        batch_prompts = prompts[i:i + save_batch_size]
        batch_items = data[i:i + save_batch_size]
        outputs = model_vllm.generate(batch_prompts, sampling_params=sampling_params)
        for item, output in zip(batch_items, outputs):
            item["gen_result"] = {
                "qid": hash_messages(item["synthesis_result"]["problem"]),
                "outputs": [o.text.strip() for o in output.outputs],
            }
            final_results.append(item)

    with open(output_file, "w") as f:
        for item in final_results:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    fire.Fire(main)
