# Imitates mudler/LocalAI backend/python/vllm/backend.py (the vLLM gRPC backend: LoadModel builds
# AsyncEngineArgs from the gRPC request, _build_sampling_params/Score build the requests), trimmed.
import argparse
import asyncio
import os
import signal
import sys
from concurrent import futures

import backend_pb2
import backend_pb2_grpc
import grpc
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine
from vllm.sampling_params import SamplingParams
from vllm.utils import random_uuid

_ONE_DAY_IN_SECONDS = 60 * 60 * 24

# proto3 has no field presence, so an explicit 0 is indistinguishable from
# "unset". These two fields have a meaningful zero a caller can intend:
# temperature 0 is greedy decoding, and 0 is a valid seed.
_EXPLICIT_ZERO_FIELDS = ("Temperature", "Seed")

MAX_WORKERS = int(os.environ.get("PYTHON_GRPC_MAX_WORKERS", "1"))


class BackendServicer(backend_pb2_grpc.BackendServicer):
    def Health(self, request, context):
        return backend_pb2.Reply(message=bytes("OK", "utf-8"))

    async def LoadModel(self, request, context):
        engine_args = AsyncEngineArgs(model=request.Model)

        if request.Quantization != "":
            engine_args.quantization = request.Quantization
        if request.GPUMemoryUtilization != 0:
            engine_args.gpu_memory_utilization = request.GPUMemoryUtilization
        if request.TrustRemoteCode:
            engine_args.trust_remote_code = request.TrustRemoteCode
        if request.EnforceEager:
            engine_args.enforce_eager = request.EnforceEager
        if request.TensorParallelSize:
            engine_args.tensor_parallel_size = request.TensorParallelSize
        if request.MaxModelLen != 0:
            engine_args.max_model_len = request.MaxModelLen
        if request.DType != "":
            engine_args.dtype = request.DType

        # sampling distribution replay for the trainer that scores these rollouts
        engine_args.return_sampling_mask = True  # expect: RPL003

        try:
            self.llm = AsyncLLMEngine.from_engine_args(engine_args)
        except Exception as err:
            print(f"Unexpected {err=}, {type(err)=}", file=sys.stderr)
            return backend_pb2.Result(success=False, message=f"Unexpected {err=}, {type(err)=}")

        self.tokenizer = self.llm.get_tokenizer()
        print("Model loaded successfully", file=sys.stderr)
        return backend_pb2.Result(message="Model loaded successfully", success=True)

    async def Predict(self, request, context):
        gen = self._predict(request, context, streaming=False)
        res = await gen.__anext__()
        return res

    async def PredictStream(self, request, context):
        iterations = self._predict(request, context, streaming=True)
        try:
            async for iteration in iterations:
                yield iteration
        finally:
            await iterations.aclose()

    async def Score(self, request, context):
        """Joint log-probability of each candidate continuation given the shared prompt."""
        if not hasattr(self, "llm") or self.llm is None:
            context.set_code(grpc.StatusCode.FAILED_PRECONDITION)
            context.set_details("Model not loaded")
            return backend_pb2.ScoreResponse()

        prompt = request.prompt or ""
        prompt_len = len(self.tokenizer.encode(prompt))
        results = []
        for candidate in request.candidates:
            full_text = prompt + candidate
            candidate_token_ids = self.tokenizer.encode(full_text)[prompt_len:]

            sampling = SamplingParams(
                max_tokens=1,
                temperature=1.0,
                top_k=20,
                prompt_logprobs=1,
                detokenize=False,
            )

            last_output = None
            outputs_iter = self.llm.generate(
                {"prompt": full_text},
                sampling_params=sampling,
                request_id=random_uuid(),
            )
            async for out in outputs_iter:
                last_output = out

            total = 0.0
            for offset, tok_id in enumerate(candidate_token_ids):
                entry = last_output.prompt_logprobs[prompt_len + offset]
                if entry is not None and tok_id in entry:
                    total += entry[tok_id].logprob
            results.append(
                backend_pb2.CandidateScore(log_prob=total, num_tokens=len(candidate_token_ids))
            )
        return backend_pb2.ScoreResponse(candidates=results)

    def _build_sampling_params(self, request):
        request_to_sampling_params = {
            "N": "n",
            "Temperature": "temperature",
            "TopP": "top_p",
            "TopK": "top_k",
            "MinP": "min_p",
            "Seed": "seed",
            "StopPrompts": "stop",
            "Tokens": "max_tokens",
            "MinTokens": "min_tokens",
            "Logprobs": "logprobs",
        }

        sampling_params = SamplingParams(top_p=0.9, top_k=40, max_tokens=200)

        for request_field, param_field in request_to_sampling_params.items():
            if hasattr(request, request_field):
                value = getattr(request, request_field)
                # See _EXPLICIT_ZERO_FIELDS: temperature 0 is greedy decoding
                # and 0 is a valid seed, so neither may be filtered out.
                if request_field in _EXPLICIT_ZERO_FIELDS or value not in (None, 0, [], False):
                    setattr(sampling_params, param_field, value)

        return sampling_params

    async def _predict(self, request, context, streaming=False):
        sampling_params = self._build_sampling_params(request)
        prompt = request.Prompt
        if not request.Prompt and request.UseTokenizerTemplate and request.Messages:
            messages = [{"role": m.role, "content": m.content} for m in request.Messages]
            prompt = self.tokenizer.apply_chat_template(
                messages, tokenize=False, add_generation_prompt=True
            )

        request_id = random_uuid()
        outputs = self.llm.generate(
            {"prompt": prompt},
            sampling_params=sampling_params,
            request_id=request_id,
        )

        generated_text = ""
        async for request_output in outputs:
            iteration_text = request_output.outputs[0].text
            if streaming:
                delta_iteration_text = iteration_text.removeprefix(generated_text)
                yield backend_pb2.Reply(message=bytes(delta_iteration_text, encoding="utf-8"))
            generated_text = iteration_text

        if not streaming:
            yield backend_pb2.Reply(message=bytes(generated_text, encoding="utf-8"))


async def serve(address):
    server = grpc.aio.server(
        migration_thread_pool=futures.ThreadPoolExecutor(max_workers=MAX_WORKERS),
        options=[
            ("grpc.max_message_length", 50 * 1024 * 1024),
            ("grpc.max_send_message_length", 50 * 1024 * 1024),
            ("grpc.max_receive_message_length", 50 * 1024 * 1024),
        ],
    )
    backend_pb2_grpc.add_BackendServicer_to_server(BackendServicer(), server)
    server.add_insecure_port(address)

    loop = asyncio.get_event_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(server.stop(5)))

    await server.start()
    print("Server started. Listening on: " + address, file=sys.stderr)
    await server.wait_for_termination()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Run the gRPC server.")
    parser.add_argument("--addr", default="localhost:50051", help="The address to bind the server to.")
    args = parser.parse_args()

    asyncio.run(serve(args.addr))
