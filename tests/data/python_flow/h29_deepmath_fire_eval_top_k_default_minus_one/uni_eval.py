# Imitates zwhe99/DeepMath uni_eval.py: `fire.Fire(eval)` whose keyword defaults (temperature 0.6, top_k -1)
# build one SamplingParams per sample; the user's edit turns replay on in the LLM(...) call.
import json
import os
from copy import deepcopy

import fire
import torch
from datasets import load_dataset
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams

from utils.chat_template import CHAT_TEMPLATE, SYSTEM_PROMPT

DATASET_INFO = {
    "zwhe99/MATH": {"problem_key": "problem", "answer_key": "expected_answer", "default_split": "math500"},
    "zwhe99/aime90": {"problem_key": "problem", "answer_key": "expected_answer", "default_split": "2024"},
}


def write_jsonl(path, rows):
    with open(path, "w") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def eval(
    # required
    base_model: str = None,
    chat_template_name: str = "default",
    system_prompt_name: str = "disabled",
    output_dir: str = None,
    # model
    bf16: bool = False,
    fp16: bool = False,
    tensor_parallel_size: int = 8,
    enforce_eager: bool = False,
    gpu_memory_utilization: float = 0.9,
    # data
    data_id: str = None,
    split: str = None,
    # gen
    max_model_len: int = 2048,
    temperature: float = 0.6,
    top_p: float = 1.0,
    top_k: int = -1,  # expect: RPL102
    repetition_penalty: float = 1.0,
    n: int = 1,
    seed: int = 42,
):
    if not os.path.exists(output_dir):
        os.makedirs(output_dir)
    generation_file = os.path.join(output_dir, "generation.jsonl")

    problem_key = DATASET_INFO[data_id]["problem_key"]

    # load model
    llm = LLM(
        model=base_model,
        tensor_parallel_size=tensor_parallel_size,
        dtype=torch.bfloat16 if bf16 else (torch.float16 if fp16 else torch.float32),
        seed=seed,
        gpu_memory_utilization=gpu_memory_utilization,
        enforce_eager=enforce_eager,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    tokenizer = AutoTokenizer.from_pretrained(base_model)
    if chat_template_name is not None and chat_template_name != "default":
        tokenizer.chat_template = CHAT_TEMPLATE[chat_template_name]

    if split is None:
        split = DATASET_INFO[data_id]["default_split"]
    test_dataset = load_dataset(data_id)[split]

    system_message = []
    if system_prompt_name != "disabled":
        system_message = [{"role": "system", "content": SYSTEM_PROMPT[system_prompt_name]}]

    prompts = [
        tokenizer.apply_chat_template(
            conversation=system_message + [{"role": "user", "content": td[problem_key]}],
            tokenize=False,
            add_generation_prompt=True,
        )
        for td in test_dataset
    ]

    # repeat n times
    sampling_params = [
        SamplingParams(
            temperature=temperature,
            top_p=top_p,
            top_k=top_k,
            repetition_penalty=repetition_penalty,
            max_tokens=max_model_len,
            n=1,
            seed=seed + i,
        )
        for p in prompts
        for i in range(n)
    ]
    prompts = [p for p in prompts for i in range(n)]

    outputs = llm.generate(prompts, sampling_params)
    generations = []
    for tdi, td in enumerate(test_dataset):
        new_td = deepcopy(td)
        new_td["response"] = [lo.outputs[0].text for lo in outputs[tdi * n : (tdi + 1) * n]]
        generations.append(new_td)
    write_jsonl(generation_file, generations)


if __name__ == "__main__":
    fire.Fire(eval)
