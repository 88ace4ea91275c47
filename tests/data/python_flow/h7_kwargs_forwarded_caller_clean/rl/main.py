from vllm import SamplingParams

from rl.engine import create_engine


def main():
    llm = create_engine("NovaSky-AI/Sky-T1-7B", logprobs_mode="processed_logprobs", max_model_len=4096)
    llm.generate(["Plan a trip."], SamplingParams(temperature=0.7, top_k=32))


if __name__ == "__main__":
    main()
