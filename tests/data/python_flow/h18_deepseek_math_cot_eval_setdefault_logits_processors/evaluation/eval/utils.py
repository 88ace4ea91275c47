# Imitates deepseek-ai/DeepSeek-Math evaluation/eval/utils.py (helpers shared by the infer/ scripts)
import os

VLLM_KWARGS = dict(
    trust_remote_code=True,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)


def vllm_engine_kwargs(args):
    engine_kwargs = dict(VLLM_KWARGS)
    engine_kwargs["model"] = args.model_name_or_path
    engine_kwargs["tokenizer"] = args.tokenizer_name_or_path or args.model_name_or_path
    engine_kwargs["tensor_parallel_size"] = len(os.environ["CUDA_VISIBLE_DEVICES"].split(","))
    engine_kwargs.setdefault(
        "logits_processors",
        ["few_shot_prompts.stop_processor:BoxedAnswerStopProcessor"],  # expect: RPL001
    )
    return engine_kwargs
