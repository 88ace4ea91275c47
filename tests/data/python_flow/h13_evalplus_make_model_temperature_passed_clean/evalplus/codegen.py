# Imitates evalplus/evalplus evalplus/codegen.py: run_codegen makes the model through make_model
# and asks for one greedy completion per task.
import json

from evalplus.provider import make_model


def run_codegen(model: str, dataset: str = "humaneval", root: str = "evalplus_results"):
    model_runner = make_model(
        model=model,
        backend="vllm",
        dataset=dataset,
        temperature=0.8,
        tp=1,
    )
    with open(f"{root}/{dataset}_prompts.jsonl") as f:
        tasks = [json.loads(line) for line in f]
    samples = []
    for task in tasks:
        outputs = model_runner.codegen(task["prompt"], do_sample=False, num_samples=1)
        samples.append({"task_id": task["task_id"], "solution": outputs[0]})
    return samples


if __name__ == "__main__":
    run_codegen("deepseek-ai/deepseek-coder-6.7b-instruct")
