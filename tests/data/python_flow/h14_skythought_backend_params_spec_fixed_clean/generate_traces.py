# Imitates NovaSky-AI/SkyThought skythought/evals/cli.py (evaluate: backend args and sampling params collected, then inference())
from skythought.evals.entities import Backend, BackendParameters, SamplingParameters
from skythought.evals.inference_and_check import inference

backend_params = BackendParameters(
    tensor_parallel_size=1,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
    speculative_config={
        "method": "ngram",
        "num_speculative_tokens": 4,
        "prompt_lookup_max": 4,
    },
)
sampling = SamplingParameters(params={"temperature": 0.7, "top_p": 0.95, "top_k": 32, "max_tokens": 8192})
outputs = inference("NovaSky-AI/Sky-T1-7B", Backend.VLLM, backend_params, sampling, ["Solve: 2 + 2"])
