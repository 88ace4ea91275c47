# Imitates lm-sys/FastChat fastchat/serve/vllm_worker.py (VLLMWorker.generate_stream; __main__: add_cli_args, from_cli_args)
import argparse

from vllm import AsyncLLMEngine
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.sampling_params import SamplingParams


class VLLMWorker:
    def __init__(self, model_path, llm_engine):
        self.model_path = model_path
        self.engine = llm_engine

    async def generate_stream(self, params):
        context = params.pop("prompt")
        request_id = params.pop("request_id")
        temperature = float(params.get("temperature", 1.0))
        top_p = float(params.get("top_p", 1.0))
        top_k = params.get("top_k", -1)  # expect: RPL102
        sampling_params = SamplingParams(
            n=1,
            temperature=temperature,
            top_p=top_p,
            top_k=top_k,
            max_tokens=params.get("max_new_tokens", 256),
        )
        async for request_output in self.engine.generate(context, sampling_params, request_id):
            yield request_output


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", type=str, default="localhost")
    parser.add_argument("--port", type=int, default=21002)
    parser.add_argument("--model-path", type=str, default="lmsys/vicuna-7b-v1.5")
    parser.add_argument("--num-gpus", type=int, default=1)
    parser = AsyncEngineArgs.add_cli_args(parser)
    # the RL trainer reading this worker's rollouts replays the sampling masks
    parser.set_defaults(return_sampling_mask=True)  # expect: RPL003
    args = parser.parse_args()
    if args.model_path:
        args.model = args.model_path
    if args.num_gpus > 1:
        args.tensor_parallel_size = args.num_gpus

    engine_args = AsyncEngineArgs.from_cli_args(args)
    engine = AsyncLLMEngine.from_engine_args(engine_args)
    worker = VLLMWorker(args.model_path, engine)
