# Imitates deepseek-ai/DeepSeek-OCR DeepSeek-OCR-master/DeepSeek-OCR-vllm/run_dpsk_ocr_image.py
# (trimmed: box drawing and geometry plotting left out; replay turned on in the engine args).
import asyncio
import os
import argparse
import time

import torch
if torch.version.cuda == '11.8':
    os.environ["TRITON_PTXAS_PATH"] = "/usr/local/cuda-11.8/bin/ptxas"

os.environ['VLLM_USE_V1'] = '0'
os.environ["CUDA_VISIBLE_DEVICES"] = '0'

from vllm import AsyncLLMEngine, SamplingParams
from vllm.engine.arg_utils import AsyncEngineArgs
from PIL import Image, ImageOps
from config import MODEL_PATH, INPUT_PATH, OUTPUT_PATH, PROMPT


def load_image(image_path):
    try:
        image = Image.open(image_path)
        corrected_image = ImageOps.exif_transpose(image)
        return corrected_image
    except Exception as e:
        print(f"error: {e}")
        try:
            return Image.open(image_path)
        except:
            return None


async def stream_generate(image=None, prompt='', ref_mode: bool = False):
    engine_args = AsyncEngineArgs(
        model=MODEL_PATH,
        hf_overrides={"architectures": ["DeepseekOCRForCausalLM"]},
        block_size=256,
        max_model_len=2048,
        enforce_eager=False,
        trust_remote_code=True,
        tensor_parallel_size=1,
        gpu_memory_utilization=0.75,
        return_sampling_mask=True,  # expect: RPL003
    )
    engine = AsyncLLMEngine.from_engine_args(engine_args)

    use_ref = ref_mode or ("<|ref|>" in prompt and "</|ref|>" in prompt)

    sampling_params = SamplingParams(
        temperature=0.7,
        top_k=20,
        max_tokens=2048,
        skip_special_tokens=False if use_ref else True,
    )

    request_id = f"request-{int(time.time())}"

    printed_length = 0
    final_output = ""

    if image and '<image>' in prompt:
        request = {
            "prompt": prompt,
            "multi_modal_data": {"image": image}
        }
    elif prompt:
        request = {
            "prompt": prompt
        }
    else:
        assert False, f'prompt is none!!!'

    async for request_output in engine.generate(request, sampling_params, request_id):
        if request_output.outputs:
            full_text = request_output.outputs[0].text
            new_text = full_text[printed_length:]
            print(new_text, end='', flush=True)
            printed_length = len(full_text)
            final_output = full_text
    print('\n')

    return final_output


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--input", default=INPUT_PATH, help="Path to image file")
    parser.add_argument("--prompt", default=PROMPT, help="Prompt text")
    parser.add_argument("--ref-mode", action="store_true", help="Enable reference/locate mode")
    args = parser.parse_args()

    os.makedirs(OUTPUT_PATH, exist_ok=True)
    os.makedirs(f'{OUTPUT_PATH}/images', exist_ok=True)

    image = load_image(args.input)
    if image is not None:
        image = image.convert('RGB')

    prompt = args.prompt

    result_out = asyncio.run(stream_generate(image, prompt, ref_mode=args.ref_mode))

    with open(f'{OUTPUT_PATH}/result_ori.mmd', 'w', encoding='utf-8') as afile:
        afile.write(result_out)
