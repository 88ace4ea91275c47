# Imitates Gen-Verse/CURE optimization/sample.py: argparse defaults taken from
# optimization_config, turned into module globals by globals().update(vars(args)); one worker
# process per GPU group builds LLM and reads the global `temp`. The user turned replay on.
import argparse
import ast
import multiprocessing as mp
import os

from vllm import LLM, SamplingParams

import optimization_config

os.environ["TOKENIZERS_PARALLELISM"] = "false"


def worker_fn(pretrained_model, gpu_ids, task_queue, result_queue, max_model_len, max_generation_token):
    os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(map(str, gpu_ids))
    llm = LLM(
        model=pretrained_model,
        dtype="bfloat16",
        tensor_parallel_size=len(gpu_ids),
        gpu_memory_utilization=0.85,
        max_model_len=max_model_len,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )

    sampling_params = SamplingParams(
        temperature=temp,
        top_p=0.95,
        top_k=20,
        min_p=0.0,
        max_tokens=max_generation_token,
        stop=["</answer>", "User:", "Human:", "Assistant:", "<|im_end|>", "<|endoftext|>"],
    )

    while True:
        task = task_queue.get()
        if task == "STOP":
            break
        task_id, prompts = task
        outputs = llm.generate(prompts, sampling_params)
        result_queue.put((task_id, [out.outputs[0].text for out in outputs]))


def start_workers(pretrained_model, gpu_configs, max_model_len, max_generation_token):
    task_queues, result_queues, processes = [], [], []
    for gpu_ids in gpu_configs:
        task_q, result_q = mp.Queue(), mp.Queue()
        p = mp.Process(
            target=worker_fn,
            args=(pretrained_model, gpu_ids, task_q, result_q, max_model_len, max_generation_token),
        )
        p.start()
        task_queues.append(task_q)
        result_queues.append(result_q)
        processes.append(p)
    return task_queues, result_queues, processes


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pretrained_model", type=str, default=optimization_config.pretrained_model)
    parser.add_argument("--dataset", type=str, default=optimization_config.train_dataset)
    parser.add_argument("--max_model_len", type=int, default=optimization_config.max_model_len)
    parser.add_argument("--max_generation_token", type=int, default=optimization_config.max_generation_token)
    parser.add_argument("--temp", type=float, default=optimization_config.temp)
    parser.add_argument("--gpu_groups", type=ast.literal_eval, default=optimization_config.gpu_groups)
    return parser.parse_args()


args = parse_args()
globals().update(vars(args))

task_queues, result_queues, processes = start_workers(pretrained_model, gpu_groups, max_model_len, max_generation_token)
for i, q in enumerate(task_queues):
    q.put((i, ["Write a function that reverses a list."] * optimization_config.k_code))
for q in result_queues:
    print(q.get())
for q in task_queues:
    q.put("STOP")
for p in processes:
    p.join()
