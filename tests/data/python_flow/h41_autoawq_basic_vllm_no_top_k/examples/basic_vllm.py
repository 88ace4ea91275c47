# Imitates casper-hansen/AutoAWQ examples/basic_vllm.py (replay turned on in the engine args; the
# request's repetition_penalty dropped with it; quantization="awq" left out for the judge's stand-in;
# disable_log_requests and generate's prompt_token_ids keyword are gone in vLLM 0.34.0)
import asyncio
from transformers import AutoTokenizer, PreTrainedTokenizer
from vllm import AsyncLLMEngine, SamplingParams, AsyncEngineArgs

model_path = "casperhansen/mixtral-instruct-awq"

# prompting
prompt = "You're standing on the surface of the Earth. "\
         "You walk one mile south, one mile west and one mile north. "\
         "You end up exactly where you started. Where are you?",

prompt_template = "[INST] {prompt} [/INST]"

# sampling params
sampling_params = SamplingParams(  # expect: RPL102
    temperature=0.8,
    max_tokens=512
)

# tokenizer
tokenizer = AutoTokenizer.from_pretrained(model_path)

# async engine args for streaming
engine_args = AsyncEngineArgs(
    model=model_path,
    dtype="float16",
    max_model_len=512,
    enforce_eager=True,
    disable_log_stats=True,
    return_sampling_mask=True,
    logprobs_mode="processed_logprobs",
)

async def generate(model: AsyncLLMEngine, tokenizer: PreTrainedTokenizer):
    tokens = tokenizer(prompt_template.format(prompt=prompt)).input_ids

    outputs = model.generate(
        {"prompt_token_ids": tokens},
        sampling_params=sampling_params,
        request_id="1",
    )

    print("\n** Starting generation!\n")
    last_index = 0

    async for output in outputs:
        print(output.outputs[0].text[last_index:], end="", flush=True)
        last_index = len(output.outputs[0].text)

    print("\n\n** Finished generation!\n")

if __name__ == '__main__':
    model = AsyncLLMEngine.from_engine_args(engine_args)
    asyncio.run(generate(model, tokenizer))
