# Imitates EleutherAI/lm-evaluation-harness lm_eval/models/vllm_causallms.py: evaluation driver of a checkpoint
from evalkit.engine import load_policy
from evalkit.params import GREEDY


def evaluate(path, prompts):
    llm = load_policy(path)
    return llm.generate(prompts, GREEDY)


if __name__ == "__main__":
    evaluate("checkpoints/step_100", ["2+2="])
