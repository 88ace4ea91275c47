# Imitates TIGER-AI-Lab/TheoremQA utils.py: answer extraction and comparison.
def answer_clean(direct_answer_trigger_for_fewshot: list, pred: str):
    for trigger in direct_answer_trigger_for_fewshot:
        if trigger in pred:
            pred = pred.split(trigger)[-1]
    return pred.strip().rstrip(".")


def compare_answer_with_groundtruth(answer: str, groundtruth_str: str, groundtruth_num=None):
    return answer.strip().lower() == str(groundtruth_str).strip().lower()
