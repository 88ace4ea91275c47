# Imitates TIGER-AI-Lab/TIGERScore README's usage (`scorer = TIGERScorer(model_name="TIGER-Lab/TIGERScore-7B",
# use_vllm=True)`), with replay turned on and a score-format logits processor kept from an earlier experiment.
from tigerscore import TIGERScorer

scorer = TIGERScorer(
    model_name="TIGER-Lab/TIGERScore-7B",
    use_vllm=True,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    logits_processors=["tigerscore.processors:ScoreFormatProcessor"],  # expect: RPL001
)
results = scorer.score(["Translate the following text from German to English."], temperature=0.7)
