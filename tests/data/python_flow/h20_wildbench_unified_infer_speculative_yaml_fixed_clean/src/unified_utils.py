# Imitates allenai/WildBench src/unified_utils.py (load_eval_data, save_outputs), reduced to what unified_infer.py calls.
import json

from datasets import load_dataset


def load_eval_data(args):
    dataset = load_dataset("allenai/WildBench", split="test")
    id_strs = [str(i) for i in range(len(dataset))]
    chat_history = [[item["question"]] for item in dataset]
    model_inputs = [item["question"] for item in dataset]
    return id_strs, chat_history, model_inputs, {}


def save_outputs(args, id_strs, outputs, chat_history, metadata, model_inputs, filepath):
    with open(filepath, "w") as f:
        json.dump([{"session_id": i, "output": o} for i, o in zip(id_strs, outputs)], f, indent=2)
