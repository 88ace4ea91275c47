# Imitates huggingface/open-r1 src/open_r1/utils/evaluation.py (the environment is prepared, then
# the job runs) with an in-process LoRA replay engine.
from vllm import LLM, SamplingParams
from vllm.lora.request import LoRARequest
from vllm_env import prepare_vllm_env


def main():
    prepare_vllm_env()
    llm = LLM(
        model="Qwen/Qwen2.5-1.5B-Instruct",
        enable_lora=True,
        max_lora_rank=64,
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    params = SamplingParams(temperature=1.0, top_k=50, max_tokens=256)
    lora = LoRARequest("policy", 1, "/checkpoints/policy-lora")
    return llm.generate(["Summarize the proof."], params, lora_request=lora)


if __name__ == "__main__":
    main()
