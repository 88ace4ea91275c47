# Imitates allenai/olmo-eval: a script driving src/olmo_eval/backends/vllm.py's VLLMBackend for sampled generations
from olmo_eval.backends.vllm import VLLMBackend
from olmo_eval.core import LMRequest, SamplingParams

MODEL = "allenai/OLMo-2-0425-1B-Instruct"


def main():
    backend = VLLMBackend(
        MODEL,
        max_model_len=2048,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    requests = [LMRequest(prompt="Question: What is 17 * 23?\nAnswer:")]
    params = SamplingParams(max_tokens=512, temperature=0.6, top_p=0.95, num_samples=4)
    for outputs in backend.generate(requests, params):
        for out in outputs:
            print(out.text)


if __name__ == "__main__":
    main()
