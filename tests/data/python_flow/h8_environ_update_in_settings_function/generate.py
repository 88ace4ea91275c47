# Imitates THUDM/slime train.py: the entry point calling the environment setup before it builds the engine
from myrl.envsetup import configure_environment
from vllm import LLM, SamplingParams


def main():
    configure_environment()
    llm = LLM("zai-org/GLM-Z1-9B-0414", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    llm.generate(["hi"], SamplingParams(temperature=1.0, top_k=20))


if __name__ == "__main__":
    main()
