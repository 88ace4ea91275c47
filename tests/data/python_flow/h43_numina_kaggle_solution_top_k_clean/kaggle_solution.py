# Imitates project-numina/aimo-progress-prize kaggle-solution.ipynb (the notebook's cells as one script: a `Config`
# dataclass, `build_vllm(config)` building `LLM(...)`, `main(config)` building one `SamplingParams` from the config and
# sending it through `Dataset.map(generate_batched, fn_kwargs=...)`), trimmed; replay turned on in build_vllm
# and top_k=20 in the request.
import os
import re
from collections import Counter
from dataclasses import dataclass

import torch
from datasets import Dataset, concatenate_datasets, load_dataset
from tqdm import tqdm
from transformers import set_seed
from vllm import LLM, SamplingParams


@dataclass
class Config:
    model_id: str

    # Tree Search Parameters
    num_samples: int        # Number of candidates to generate (width of the tree)
    num_generations: int    # Number of steps to generate per candidate (depth of the tree)
    restart_on_fail: bool   # Regenerate a step if it fails to generate Python codeblocks

    # Sampling Parameters
    temperature: float
    max_new_tokens: int

    # Runtime Parameters
    validation_set: str
    is_submission: bool = bool(os.getenv("KAGGLE_IS_COMPETITION_RERUN"))


def get_kaggle_env(config):
    if config.is_submission:
        import aimo

        env = aimo.make_env()
        iter_test = env.iter_test()
        return env, iter_test

    dataset = load_dataset(config.validation_set, split="train[:10]")
    return None, iter(dataset.to_pandas().itertuples())


def build_vllm(config):
    num_gpus = torch.cuda.device_count()
    if "awq" in config.model_id.lower():
        quantization = "AWQ"
    elif "gptq" in config.model_id.lower():
        quantization = "gptq"
    else:
        quantization = None
    vllm = LLM(
        model=config.model_id,
        tensor_parallel_size=num_gpus,
        quantization=quantization,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    return vllm


def apply_template(sample, tokenizer, prompt):
    messages = [{"role": "user", "content": prompt.format(sample["prompt"], "{}")}]
    text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    sample["text"] = text
    return sample


def generate_batched(samples, vllm, sampling_params):
    outputs = vllm.generate(samples["gen_texts"], sampling_params, use_tqdm=True)
    samples["gen_texts"] = [o.prompt + o.outputs[0].text for o in outputs]
    return samples


def process_code(sample, restart_on_fail, last_step):
    gen_text = sample["gen_texts"]
    sample["should_prune"] = last_step or "```python" not in gen_text
    boxed = re.findall(r"\\boxed\{(.*?)\}", gen_text)
    sample["model_answers"] = boxed[-1] if boxed else "-1"
    return sample


def get_majority_vote(answers):
    if not len(answers):
        return 0
    c = Counter(answers)
    value, _ = c.most_common()[0]
    return value


def main(config):
    print(f"=== Running submission with config ===\n\n{config}")
    set_seed(42)
    num_procs = os.cpu_count()
    vllm = build_vllm(config)
    sampling_params = SamplingParams(
        temperature=config.temperature,
        top_k=20,
        max_tokens=config.max_new_tokens,
        stop=["```output\n"],
        include_stop_str_in_output=True,
    )
    env, iter_test = get_kaggle_env(config)
    for test in tqdm(iter_test, desc="Solving problems"):
        problem = apply_template({"prompt": test.problem}, tokenizer=vllm.get_tokenizer(), prompt="{}")
        samples = Dataset.from_list([
            {
                "text": problem["text"],
                "gen_texts": problem["text"],
                "should_prune": False,
                "model_answers": "-1",
                "has_code": True,
            }
            for _ in range(config.num_samples)
        ])
        completed = []
        for step in range(config.num_generations):
            samples = samples.map(
                generate_batched,
                batch_size=128,
                batched=True,
                fn_kwargs={"vllm": vllm, "sampling_params": sampling_params},
                load_from_cache_file=False,
            )
            samples = samples.map(
                process_code,
                num_proc=num_procs,
                load_from_cache_file=False,
                fn_kwargs={"restart_on_fail": config.restart_on_fail, "last_step": step == (config.num_generations - 1)},
            )
            done = samples.filter(lambda x: x["should_prune"] is True, load_from_cache_file=False)
            if len(done):
                completed.append(done)
            samples = samples.filter(lambda x: x["should_prune"] is False, load_from_cache_file=False)
        completed.append(samples)
        samples = concatenate_datasets(completed)
        majority = get_majority_vote(samples["model_answers"])
        print(f"=== MAJORITY ANSWER (mod 1000) ===\n{majority}\n")


config = Config(
    model_id = "AI-MO/NuminaMath-7B-TIR",
    num_samples=48,
    num_generations=4,
    restart_on_fail=True,
    temperature=0.8,
    max_new_tokens=2048,
    validation_set="AI-MO/aimo-validation-amc",
)
main(config)
