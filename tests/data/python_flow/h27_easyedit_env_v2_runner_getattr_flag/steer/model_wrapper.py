# Imitates zjunlp/EasyEdit steer/models/model_wrapper.py (os.environ['VLLM_ENABLE_V1_MULTIPROCESSING']
# written from getattr(hparams, ...) before LLM(**llm_kwargs)); the user's edit adds the replay recipe's
# runner variable the same way, from an hparams attribute that the class does not define.
import os
from types import SimpleNamespace

from vllm import LLM, SamplingParams


class BaseModelWrapper:
    def __init__(self, model_name_or_path, hparams):
        vllm_multiprocessing = getattr(hparams, "vllm_enable_v1_multiprocessing", True)
        if hasattr(hparams, "vllm_enable_v1_multiprocessing"):
            os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "1" if vllm_multiprocessing else "0"
        use_v2 = getattr(hparams, "vllm_use_v2_model_runner", False)
        os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1" if use_v2 else "0"  # expect: RPL206
        llm_kwargs = dict(
            model=model_name_or_path,
            enforce_eager=getattr(hparams, "vllm_enforce_eager", True),
            tensor_parallel_size=getattr(hparams, "vllm_tensor_parallel_size", 1),
            dtype="bfloat16",
            gpu_memory_utilization=getattr(hparams, "vllm_gpu_memory_utilization", 0.9),
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self.VLLM_model = LLM(**llm_kwargs)

    def generate(self, prompts):
        return self.VLLM_model.generate(prompts, SamplingParams(temperature=0.8, top_k=20, max_tokens=64))


if __name__ == "__main__":
    hparams = SimpleNamespace(vllm_enable_v1_multiprocessing=False, vllm_tensor_parallel_size=1)
    print(BaseModelWrapper("meta-llama/Llama-2-7b-chat-hf", hparams).generate(["Paris is"]))
