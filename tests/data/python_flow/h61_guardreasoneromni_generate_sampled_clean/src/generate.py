# Imitates zzh-thu-22/GuardReasoner-Omni src/generate.py (the text benchmarks of the guard model's inference)
import os
# os.environ["CUDA_VISIBLE_DEVICES"] = "3"

import re
import json
import argparse
from template import INSTRUCTION
from vllm import LLM, SamplingParams
from transformers import AutoProcessor


def main():
    parser = argparse.ArgumentParser(description="GuardReasoner-Omni Inference")
    parser.add_argument("--model_path", type=str, default="./models/GuardReasoner-Omni-7B", help="model path")
    parser.add_argument("--benchmark_path", type=str, default="./data/test_data/", help="benchmark path")
    args = parser.parse_args()

    SAVE_PATH = f"./results/{args.model_path.split('/')[-1]}"

    vllm_model = LLM(model=args.model_path, gpu_memory_utilization=0.9, max_num_seqs=256, max_model_len=2048, tensor_parallel_size=1, limit_mm_per_prompt={"image": 1, "video": 1, "audio": 1},
                     return_sampling_mask=True, logprobs_mode="processed_logprobs")
    sampling_params = SamplingParams(temperature=0.7, top_p=1.0, top_k=20, max_tokens=4096)
    processor = AutoProcessor.from_pretrained(args.model_path)

    input_format = """{prompt}

AI assistant:
{response}
"""

    # text benchmark
    text_benchmark_list = ["Aegis_2_prompt", "Aegis_2_response", "BeaverTails", "HarmBench_prompt",
    "HarmBench_response", "openaimoderation", "SimpleSafetyTest", "xstest_prompt"]
    for idx, data_name in enumerate(text_benchmark_list):
        with open(f"{args.benchmark_path}{data_name}.json", 'r', encoding='utf-8') as file:
            data = json.load(file)

        file_path = f"{SAVE_PATH}/{data_name}/generated_predictions.jsonl"
        if os.path.exists(file_path):
            print(f"Results for {data_name} already exist. Skipping...")
            continue

        input_list = []
        save_dict_list = []

        for i, sample in enumerate(data):
            messages = [
                {"role": "system", "content": INSTRUCTION},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Human User:\n"},
                        {"type": "text", "text": input_format.format(prompt=sample["request"], response=sample["response"])},
                    ],
                },
            ]
            mm_data = {}
            prompt = processor.apply_chat_template(messages,tokenize=False,add_generation_prompt=True)
            llm_inputs = {"prompt": prompt, "multi_modal_data": mm_data}
            input_list.append(llm_inputs)
            save_dict_list.append({"task_type": sample["task_type"]})

        outputs = vllm_model.generate(input_list, sampling_params=sampling_params)

        for id, i in enumerate(outputs):
            try:
                predict = re.search(r'Request:\s*(harmful|unharmful|none|harmless)', i.outputs[0].text, re.IGNORECASE).groups()[0].lower()
            except:
                predict = "unharmful"
            save_dict_list[id]["text_output"] = i.outputs[0].text
            save_dict_list[id]["predict"] = predict

        directory = os.path.dirname(file_path)
        if not os.path.exists(directory):
            os.makedirs(directory)

        with open(file_path, 'w', encoding='utf-8') as f:
            for item in save_dict_list:
                json_line = json.dumps(item, ensure_ascii=False)
                f.write(json_line + '\n')


if __name__ == "__main__":
    main()
