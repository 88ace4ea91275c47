# Imitates hkust-nlp/deita src/deita/selection/scorer/base.py (Scorer: is_vllm -> LLM + SamplingParams(max_tokens=2, logprobs=...));
# the user's edit forwards **kwargs into LLM(...).
import numpy as np
from scipy.special import softmax


class Scorer(object):
    def __init__(self, model_name_or_path: str, is_vllm: bool = False, **kwargs):
        self.is_vllm = is_vllm
        if not is_vllm:
            raise NotImplementedError("this case keeps only the vLLM path")
        from vllm import LLM, SamplingParams

        self.llm = LLM(model_name_or_path, **kwargs)
        self.sampling_params = SamplingParams(max_tokens=2, logprobs=20, top_k=20)

    def infer_score(self, user_input: str):
        outputs = self.llm.generate(user_input, self.sampling_params)
        try:
            logprobs_list = outputs[0].outputs[0].logprobs[0]
        except IndexError:
            return 3.0
        score_logits = []
        score_template = np.array([1, 2, 3, 4, 5, 6])
        for k in self.id2score:
            try:
                score_logits.append(logprobs_list[k].logprob)
            except KeyError:
                return 3.0
        score_npy = softmax(np.array(score_logits), axis=0) * score_template
        return np.sum(score_npy, axis=0)

    def infer_quality(self, input_text: str, resp_text: str):
        return self.infer_score(self.quality_template.format(instruction=input_text, output=resp_text))

    @property
    def id2score(self):
        raise NotImplementedError

    @property
    def quality_template(self):
        raise NotImplementedError
