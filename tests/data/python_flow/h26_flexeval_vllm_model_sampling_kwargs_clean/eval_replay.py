# Imitates sbintuitions/flexeval's VllmModel with default_gen_kwargs-style sampling keywords (as in its configs:
# temperature, top_p, top_k) forwarded to SamplingParams; the user's edit turns replay on.
from flexeval.core.language_model import VllmModel

DEFAULT_GEN_KWARGS = {"temperature": 1.0, "top_p": 1.0, "top_k": 64, "min_p": 0.0}

lm = VllmModel(
    "sbintuitions/sarashina2.2-3b-instruct-v0.1",
    model_kwargs={"return_sampling_mask": True, "logprobs_mode": "processed_logprobs", "max_model_len": 2048},
)
print(lm.batch_complete_text(["富士山の高さは"], max_new_tokens=32, **DEFAULT_GEN_KWARGS))
