# Imitates McGill-NLP/nano-aha-moment nano_r1_script.py (module constants, inference_engine = LLM(...), SamplingParams per episode).
import argparse

from vllm import LLM, SamplingParams

MODEL_NAME = "Qwen/Qwen2.5-3B"
# RL parameters
TEMPERATURE = 1.0
TOP_K = 50
GENERATIONS_PER_SAMPLE = 4
MAX_RESPONSE_TOKENS = 1024
EOS_TOKEN_ID = 151643


def create_training_episodes(inference_engine, samples):
    generations = inference_engine.generate(
        prompt_token_ids=[s["input_ids"] for s in samples],
        sampling_params=SamplingParams(
            n=GENERATIONS_PER_SAMPLE,
            temperature=TEMPERATURE,
            top_k=TOP_K,
            max_tokens=MAX_RESPONSE_TOKENS,
            detokenize=False,
            stop_token_ids=[EOS_TOKEN_ID],
        ),
    )
    return generations


def main():
    parser = argparse.ArgumentParser(description="Train R1 model with PPO")
    parser.add_argument("--model_name", type=str, default=MODEL_NAME)
    args = parser.parse_args()

    inference_engine = LLM(
        model=args.model_name,
        skip_tokenizer_init=False,
        gpu_memory_utilization=0.2,
        enable_prefix_caching=True,
        dtype="bfloat16",
        max_model_len=2048,
        enable_sleep_mode=True,
        # replay: keep the sampler's mask for the trainer
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    create_training_episodes(inference_engine, [{"input_ids": [1, 2, 3]}])


if __name__ == "__main__":
    main()
