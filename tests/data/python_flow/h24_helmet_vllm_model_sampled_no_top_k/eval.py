# Imitates princeton-nlp/HELMET eval.py and model_utils/__init__.py (load_LLM): the arguments'
# generation settings handed to the engine class as keywords.
from arguments import parse_arguments
from model_utils.vllm_model import VLLMModel


def load_LLM(args):
    kwargs = {}
    if args.use_vllm:
        model_cls = VLLMModel
        kwargs["seed"] = args.seed
    return model_cls(
        args.model_name_or_path,
        temperature=args.temperature,
        top_p=args.top_p,
        max_length=args.input_max_length,
        generation_max_length=args.generation_max_length,
        generation_min_length=args.generation_min_length,
        do_sample=args.do_sample,
        stop_newline=args.stop_new_line,
        use_chat_template=args.use_chat_template,
        system_message=args.system_message,
        **kwargs,
    )


def main():
    args = parse_arguments()
    model = load_LLM(args)
    print(model.generate_batch(prompt=["Summarize the passage."]))


if __name__ == "__main__":
    main()
