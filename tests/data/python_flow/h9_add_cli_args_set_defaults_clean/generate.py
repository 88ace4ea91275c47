# Imitates vllm-project/vllm examples/offline_inference/basic/generate.py (EngineArgs.add_cli_args + set_defaults)
from vllm import LLM, EngineArgs, SamplingParams
from vllm.utils.argparse_utils import FlexibleArgumentParser


def create_parser():
    parser = FlexibleArgumentParser()
    engine_group = parser.add_argument_group("Engine arguments")
    EngineArgs.add_cli_args(engine_group)
    engine_group.set_defaults(
        model="Qwen/Qwen3-0.6B",
        return_sampling_mask=True,
        logprobs_mode="processed_logprobs",
    )
    sampling_group = parser.add_argument_group("Sampling parameters")
    sampling_group.add_argument("--max-tokens", type=int, default=128)
    sampling_group.add_argument("--temperature", type=float, default=1.0)
    sampling_group.add_argument("--top-k", type=int, default=20)
    return parser


def main(args: dict):
    max_tokens = args.pop("max_tokens")
    temperature = args.pop("temperature")
    top_k = args.pop("top_k")

    llm = LLM(**args)

    sampling_params = SamplingParams(max_tokens=max_tokens, temperature=temperature, top_k=top_k)
    prompts = ["Hello, my name is", "The future of AI is"]
    for output in llm.generate(prompts, sampling_params):
        print(output.prompt, output.outputs[0].text)


if __name__ == "__main__":
    parser = create_parser()
    args: dict = vars(parser.parse_args())
    main(args)
