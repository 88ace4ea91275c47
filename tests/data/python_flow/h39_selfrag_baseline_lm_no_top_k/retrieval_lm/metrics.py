# Imitates AkariAsai/self-rag retrieval_lm/metrics.py (the answer metrics run_baseline_lm.py imports), trimmed.
import re
import string


def normalize_answer(s):
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


def exact_match_score(prediction, ground_truth):
    return normalize_answer(prediction) == normalize_answer(ground_truth)


def metric_max_over_ground_truths(metric_fn, prediction, ground_truths):
    return max(metric_fn(prediction, gt) for gt in ground_truths)


def match(prediction, ground_truth):
    return 1 if any(gt in prediction for gt in ground_truth) else 0
