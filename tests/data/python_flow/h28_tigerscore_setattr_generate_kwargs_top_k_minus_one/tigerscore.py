# Imitates TIGER-AI-Lab/TIGERScore tigerscore/scorer/tigerscore.py (TIGERScorer.score's vLLM branch: a
# SamplingParams made once, then `setattr(sampling_params, key, value)` for each generate kwarg it has).
import vllm


class TIGERScorer(object):
    def __init__(self, model_name, use_vllm=True):
        self.use_vllm = use_vllm
        self.model = vllm.LLM(
            model_name,
            dtype="bfloat16",
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

    def score(self, insts, hypo_outputs, **generate_kwargs):
        prompts = [f"{inst}\n\nModel-generated Output:\n{hypo}" for inst, hypo in zip(insts, hypo_outputs)]
        sampling_params = vllm.SamplingParams(
            max_tokens=1024,
            top_p=1.0,
            top_k=40,
            temperature=0.7,
            n=1,
        )
        for key, value in generate_kwargs.items():
            if hasattr(sampling_params, key):
                setattr(sampling_params, key, value)
        vllm_outputs = self.model.generate(prompts, sampling_params=sampling_params)
        return [output.outputs[0].text for output in vllm_outputs]


if __name__ == "__main__":
    scorer = TIGERScorer("TIGER-Lab/TIGERScore-13B")
    scorer.score(
        ["Translate the following text from German to English."],
        ["The cat sat on the mat."],
        temperature=0.9,
        top_k=-1,  # expect: RPL102
    )
