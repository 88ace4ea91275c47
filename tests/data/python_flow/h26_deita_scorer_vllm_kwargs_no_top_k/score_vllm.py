# Imitates hkust-nlp/deita examples/scoring/score_vllm.py (Llama_Scorer(model_name_or_path, is_vllm=True)).
from deita.selection.scorer import Llama_Scorer

model_name_or_path = "hkust-nlp/deita-quality-scorer"

scorer = Llama_Scorer(
    model_name_or_path,
    is_vllm=True,
    max_logprobs=1000,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

input_text = "word to describe UI with helpful tooltips"
output_text = "User-friendly or intuitive UI"
print(scorer.infer_quality(input_text, output_text))
