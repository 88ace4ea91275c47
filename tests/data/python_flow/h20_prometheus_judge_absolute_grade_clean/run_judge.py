# Imitates prometheus-eval/prometheus-eval scripts/example_absolute.py (VLLM judge model, params to absolute_grade).
from prometheus_eval.judge import PrometheusEval
from prometheus_eval.vllm import VLLM

model = VLLM(
    "prometheus-eval/prometheus-7b-v2.0",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)
judge = PrometheusEval(model=model)

params = {"temperature": 1.0, "top_p": 0.9, "top_k": 40, "max_tokens": 1024, "repetition_penalty": 1.0}
feedbacks, scores = judge.absolute_grade(
    instructions=["Explain why the sky is blue."],
    responses=["Rayleigh scattering favours short wavelengths."],
    rubric="Is the explanation scientifically accurate?",
    params=params,
)
print(feedbacks, scores)
