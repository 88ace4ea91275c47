# Imitates modelscope/ms-swift swift/pipelines/infer/rollout.py (the rollout CLI: arguments -> get_vllm_engine_kwargs -> VllmEngine)
from transformers import HfArgumentParser

from swift_lite.args_mixin import VllmArguments
from swift_lite.vllm_engine import VllmEngine


def main() -> None:
    (args,) = HfArgumentParser(VllmArguments).parse_args_into_dataclasses()
    engine = VllmEngine("Qwen/Qwen2.5-7B-Instruct", seed=42, **args.get_vllm_engine_kwargs())
    print(engine.engine_args)


if __name__ == "__main__":
    main()
