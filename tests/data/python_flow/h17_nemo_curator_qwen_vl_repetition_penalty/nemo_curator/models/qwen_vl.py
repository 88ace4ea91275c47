# Imitates NVIDIA/NeMo-Curator nemo_curator/models/qwen_vl.py (QwenVL.setup)
from pathlib import Path

from vllm import LLM, SamplingParams

_QWEN_VARIANTS_INFO = {"qwen": "Qwen/Qwen2.5-VL-7B-Instruct"}


class QwenVL:
    def __init__(self, model_dir, model_variant="qwen", caption_batch_size=16, fp8=True, max_output_tokens=512, model_does_preprocess=False):
        self.model_dir = model_dir
        self.model_variant = model_variant
        self.caption_batch_size = caption_batch_size
        self.fp8 = fp8
        self.max_output_tokens = max_output_tokens
        self.model_does_preprocess = model_does_preprocess

    def setup(self):
        self.weight_file = str(Path(self.model_dir) / _QWEN_VARIANTS_INFO[self.model_variant])
        mm_processor_kwargs = {
            "do_resize": self.model_does_preprocess,
            "do_rescale": self.model_does_preprocess,
            "do_normalize": self.model_does_preprocess,
        }
        self.model = LLM(
            model=self.weight_file,
            limit_mm_per_prompt={"image": 0, "video": 1},
            quantization="fp8" if self.fp8 else None,
            max_model_len=32768,
            gpu_memory_utilization=0.85,
            mm_processor_kwargs=mm_processor_kwargs,
            max_num_batched_tokens=32768,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.sampling_params = SamplingParams(
            temperature=0.1,
            top_p=0.001,
            top_k=20,
            repetition_penalty=1.05,  # expect: RPL302
            max_tokens=self.max_output_tokens,
            stop_token_ids=[],
        )

    def generate(self, videos):
        return self.model.generate(videos, sampling_params=self.sampling_params, use_tqdm=False)
