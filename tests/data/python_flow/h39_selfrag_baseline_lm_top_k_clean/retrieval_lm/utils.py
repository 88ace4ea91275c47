import json

PROMPT_DICT = {
    "prompt_input": (
        "### Instruction:\n{instruction}\n\n### Input:\n{input}\n\n### Response:\n"
    ),
    "prompt_no_input": (
        "### Instruction:\n{instruction}\n\n### Response:\n"
    ),
}

TASK_INST = {"fever": "Is the following statement correct or not? Say true if it's correct; otherwise say false.",
             "arc_c": "Given four answer candidates, A, B, C and D, choose the best answer choice."}


def load_file(input_fp):
    if input_fp.endswith(".json"):
        return json.load(open(input_fp))
    with open(input_fp) as f:
        return [json.loads(line) for line in f]


def save_file_jsonl(data, fp):
    with open(fp, "w") as f:
        for item in data:
            f.write(json.dumps(item) + "\n")


def postprocess_answers_closed(output, task, choices=None):
    if choices is not None:
        for c in choices.split(" "):
            if c in output:
                return c
    if task == "fever" and output in ["REFUTES", "SUPPORTS"]:
        return "true" if output == "SUPPORTS" else "false"
    return output
