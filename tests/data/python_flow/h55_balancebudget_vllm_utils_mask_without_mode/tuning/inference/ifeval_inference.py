# Imitates mohit-raghavendra/balance-budget tuning/inference/ifeval_inference.py
import json
import os

from datasets import load_dataset

from tuning.config import IFEVAL_OUTPUTS_DIR, RESPONSES_FILENAME
from tuning.inference.vllm_utils import generate_responses_vllm, load_vlm_model


def get_ifeval_test_dataset():
    dataset = load_dataset("google/IFEval", split="train")
    return dataset.map(lambda row: {"messages": [{"role": "user", "content": row["prompt"]}]})


def save_responses(save_path, filename, responses):
    os.makedirs(save_path, exist_ok=True)
    with open(os.path.join(save_path, filename), "w") as f:
        for response in responses:
            f.write(json.dumps(response) + "\n")


def run_inference_ifeval(model_name: str):
    test_dataset = get_ifeval_test_dataset()

    llm, sampling_params = load_vlm_model(model_name)
    responses = generate_responses_vllm(llm = llm,
                                        sampling_params = sampling_params,
                                        prompts = test_dataset["prompt"],
                                        dataset = test_dataset["messages"]
                                        )
    
    save_path = f"{IFEVAL_OUTPUTS_DIR}/{model_name}/"
    save_responses(save_path, RESPONSES_FILENAME, responses)

if __name__ == "__main__":

    run_inference_ifeval("llama3-8B_pt-tuluif-10000")
