# Imitates an RQ (python-rq) generation worker's settings module: the engine and the request keywords
# as module constants
ENGINE_KWARGS = dict(
    model="mistralai/Mistral-7B-Instruct-v0.3",
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

GENERATION_KWARGS = dict(
    temperature=0.8,
    top_k=40,
    max_tokens=1024,
    presence_penalty=0.5,  # expect: RPL302
)
