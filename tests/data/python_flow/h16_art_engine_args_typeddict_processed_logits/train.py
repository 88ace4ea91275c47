# Imitates OpenPipe/ART examples (TrainableModel with _internal_config=art.dev.InternalModelConfig(engine_args=...)).
import asyncio
import uuid

from vllm import SamplingParams

from art.dev.engine import EngineArgs, InternalModelConfig, get_model_config
from art.vllm.engine import get_llm


async def main():
    config = get_model_config(
        "Qwen/Qwen2.5-7B-Instruct",
        InternalModelConfig(
            engine_args=EngineArgs(
                return_sampling_mask=True,
                logprobs_mode="processed_logits",  # expect: RPL003
            ),
        ),
    )
    llm = await get_llm(config["engine_args"])
    params = SamplingParams(temperature=1.0, top_k=64, max_tokens=256)
    async for output in llm.generate("Play tic-tac-toe.", params, request_id=str(uuid.uuid4())):
        print(output.outputs[0].text)


if __name__ == "__main__":
    asyncio.run(main())
