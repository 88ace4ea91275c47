# Imitates sbintuitions/flexeval's VllmModel as a Python-API user builds it (model_kwargs forwarded to vLLM);
# the user's edit turns replay on and calls batch_complete_text without a temperature.
from flexeval.core.language_model import VllmModel

lm = VllmModel(
    "sbintuitions/sarashina2.2-3b-instruct-v0.1",
    model_kwargs={"return_sampling_mask": True, "logprobs_mode": "processed_logprobs", "max_model_len": 2048},
)
print(lm.batch_complete_text(["富士山の高さは"], max_new_tokens=32, top_k=20))
