# Imitates 01-ai/Yi demo/text_generation.py / text_generation_tp.py (parse_inputs() with argparse defaults,
# main(args)), moved by the user to vLLM with replay; the user pins the old model runner first.
import argparse
import os


def parse_inputs():
    parser = argparse.ArgumentParser(description="Yi-6B text generation demo")
    parser.add_argument("--model", type=str, default="01-ai/Yi-6B")
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--prompt", type=str, default="Let me tell you an interesting story about cat Tom and mouse Jerry,")
    return parser.parse_args()


def main(args):
    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # expect: RPL206
    from vllm import LLM, SamplingParams

    llm = LLM(args.model, trust_remote_code=True, return_sampling_mask=True, logprobs_mode="processed_logprobs")
    params = SamplingParams(max_tokens=args.max_tokens, temperature=0.7, top_k=40)
    print(llm.generate([args.prompt], params)[0].outputs[0].text)


if __name__ == "__main__":
    main(parse_inputs())
