# Imitates OpenHands/OpenHands evaluation/benchmarks/versicode/inference_utils/test_block.py (block completion, one Process per model)
"""block completion"""

import copy
import gc
import json
import os
from multiprocessing import Process

import torch
from vllm import LLM, SamplingParams

model_list = ['/data2/base models/starcoder2-15b', '/data2/base models/CodeGemma-7B']


def bulid_prompt(version, description) -> str:
    return f"You are a professional Python engineer. Use {version} to implement: {description}\nPlease use <start> and <end> to enclose the generated code."


def run_inference(model_name, origin_data_list):
    temp_data_list = copy.deepcopy(origin_data_list)
    test_list = []
    for data in temp_data_list:
        version = data['dependency'] + data['version']  # package == x.x.x
        description = data['description']  # func description
        test_list.append(bulid_prompt(version, description))

    sampling_params = SamplingParams(n=6, temperature=0.8, top_p=0.95, top_k=50, max_tokens=64)
    llm = LLM(
        model=model_name,
        tensor_parallel_size=4,
        gpu_memory_utilization=0.9,
        return_sampling_mask=True,
        logprobs_mode='processed_logprobs',
    )

    outputs = llm.generate(test_list, sampling_params)
    for output in outputs:
        requests_id = int(output.request_id)
        temp_data_list[requests_id]['model_output'] = [o.text for o in output.outputs]

    save_folder_path = os.path.join('../data/result_data/block_completion', model_name.split('/')[-1])
    os.makedirs(save_folder_path, exist_ok=True)
    with open(os.path.join(save_folder_path, 'VersiCode_block_completion.json'), 'w', encoding='utf-8') as fw:
        json.dump({'data': temp_data_list}, fw, indent=4, ensure_ascii=False)
    gc.collect()
    torch.cuda.empty_cache()


test_path = '../data/test_data/VersiCode_block_completion.json'
with open(test_path, 'r', encoding='utf-8') as fr:
    lodict = json.load(fr)
origin_data_list = lodict['data']

for model_name in model_list:
    process = Process(target=run_inference, args=(model_name, origin_data_list))
    process.start()
    process.join()
