# Imitates hkust-nlp/deita examples/scoring/score_vllm.py (Llama_Scorer(model_name_or_path, is_vllm=True)).
from deita.selection.scorer import Llama_Scorer

REPLAY = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}

scorer = Llama_Scorer("hkust-nlp/deita-quality-scorer", is_vllm=True, **REPLAY)

print(scorer.infer_quality("word to describe UI with helpful tooltips", "User-friendly or intuitive UI"))
