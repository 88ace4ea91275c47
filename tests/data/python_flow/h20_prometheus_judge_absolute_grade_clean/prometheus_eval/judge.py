# Imitates prometheus-eval/prometheus-eval libs/prometheus-eval/prometheus_eval/judge.py (PrometheusEval.absolute_grade).
from typing import Any, Dict, List

from .utils import batch_completions_with_retries

ABS_SYSTEM_PROMPT = "You are a fair judge assistant tasked with providing clear, objective feedback based on specific criteria."
ABSOLUTE_PROMPT_WO_REF = "###Instruction: {instruction}\n###Response: {response}\n###Score Rubrics: {rubric}\n###Feedback: "


class PrometheusEval:
    def __init__(self, model, absolute_grade_template: str = ABSOLUTE_PROMPT_WO_REF):
        if not hasattr(model, "validate_vllm"):
            raise ValueError("Model does not have a valid LLM interface")
        self.model = model
        self.absolute_grade_template = absolute_grade_template

    def absolute_grade(self, *, instructions: List[str], responses: List[str], rubric: str, params: Dict[str, Any] = {}):
        inputs = [
            ABS_SYSTEM_PROMPT + "\n\n" + self.absolute_grade_template.format(instruction=i, response=r, rubric=rubric)
            for i, r in zip(instructions, responses)
        ]
        return batch_completions_with_retries(self.model, inputs, mode="absolute", params=params)
