# Imitates Xwin-LM/Xwin-LM Xwin-Math/eval/generate.py
import json
import os
from typing import Optional, Tuple

import fire
from vllm import LLM, SamplingParams

def generate(model_path: str, dataset_path: str, prompt_path: str = "prompt/xwin-math.json", output_path: Optional[str] = None, tensor_parallel_size: int = 1, test_part: Optional[Tuple[int, int]] = None)-> None:

    """
    Generate model's response using vLLM.
    """

    # Load test data
    with open(dataset_path, 'r') as f:
        test_dataset_list = json.load(f)

    # Load prompt
    with open(prompt_path, 'r') as f:
        prompt_dict = json.load(f)

    if test_part is not None:
        test_dataset_list = test_dataset_list[test_part[0]:test_part[1]]
    batch_size = len(test_dataset_list)

    for items in test_dataset_list:
        items["completion"] = ["" for _ in range(len(prompt_dict))]

    llm = LLM(model=model_path,tensor_parallel_size=tensor_parallel_size, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    stop_tokens = ["</s>", "Question:", "Question", "USER:", "USER", "ASSISTANT:", "ASSISTANT", "Instruction:", "Instruction", "Response:", "Response"]
    sampling_params = SamplingParams(temperature=0, top_p=1, top_k=20, max_tokens=2048, stop=stop_tokens)  # expect: RPL101

    for index, (_, prompt) in enumerate(prompt_dict.items()):
        for index_global in range(len(test_dataset_list) // batch_size):
            # Batch Construct
            if batch_size *(index_global+2) > len(test_dataset_list):
                curr_data_list = test_dataset_list[batch_size * index_global:]
            else:
                curr_data_list = test_dataset_list[batch_size * index_global:batch_size * (index_global+1)]

            # Inference
            prompt = [prompt.format(instruction = item["question"], ANSWER = "{ANSWER}", NUMBER = "{NUMBER}") for item in curr_data_list]
            print(prompt[0])
            completions = llm.generate(prompt, sampling_params)

            # Save
            for index_in_curr_batch, output in enumerate(completions):
                generated_text = output.outputs[0].text
                index_in_data_list = index_global * batch_size + index_in_curr_batch
                item = test_dataset_list[index_in_data_list]
                item["completion"][index] = generated_text

    if output_path is None:
        output_path = os.path.join("response", f"{os.path.split(model_path)[-1]}_{os.path.split(dataset_path)[-1]}")
        if not os.path.exists("response"):
            os.makedirs("response")

    with open(output_path, 'w') as f:
        json.dump(test_dataset_list, f, indent=4)

if __name__ == "__main__":
    fire.Fire(generate)
