# Imitates prometheus-eval/prometheus-eval libs/prometheus-eval/prometheus_eval/utils.py (batch_completions_with_retries).
def batch_completions_with_retries(model, inputs, mode, params, max_retries=5):
    batched_outputs = model.completions(inputs, use_tqdm=True, **params)
    feedbacks, scores = [], []
    for output in batched_outputs:
        feedback, _, score = output.partition("[RESULT]")
        feedbacks.append(feedback.strip())
        scores.append(int(score.strip()[:1]) if score.strip()[:1].isdigit() else None)
    return feedbacks, scores
