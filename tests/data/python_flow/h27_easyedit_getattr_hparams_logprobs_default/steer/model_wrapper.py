# Imitates zjunlp/EasyEdit steer/models/model_wrapper.py (llm_kwargs = dict(...) of
# getattr(hparams, 'vllm_*', default) -> LLM(**llm_kwargs)); the user's edit adds the replay options.
import os

from vllm import LLM, SamplingParams

from hparams import SteerHyperParams

HERE = os.path.dirname(os.path.abspath(__file__))


class BaseModelWrapper:
    def __init__(self, model_name_or_path: str, hparams: SteerHyperParams):
        self.hparams = hparams
        self.model_name_or_path = model_name_or_path
        if hparams.vllm_enable:
            llm_kwargs = dict(
                model=self.model_name_or_path,
                enforce_eager=getattr(hparams, "vllm_enforce_eager", True),
                tensor_parallel_size=getattr(hparams, "vllm_tensor_parallel_size", 1),
                dtype=hparams.torch_dtype,
                gpu_memory_utilization=getattr(hparams, "vllm_gpu_memory_utilization", 0.9),
                return_sampling_mask=getattr(hparams, "vllm_return_sampling_mask", False),
                logprobs_mode=getattr(hparams, "vllm_logprobs_mode", "raw_logprobs"),  # expect: RPL003
            )
            _max_len = getattr(hparams, "vllm_max_model_len", None)
            if _max_len:
                llm_kwargs["max_model_len"] = _max_len
            self.VLLM_model = LLM(**llm_kwargs)

    def generate(self, prompts):
        params = SamplingParams(temperature=0.9, top_k=40, max_tokens=128)
        return self.VLLM_model.generate(prompts, params)


if __name__ == "__main__":
    hp = SteerHyperParams.from_hparams(os.path.join(HERE, "hparams", "llama2-7b.yaml"))
    wrapper = BaseModelWrapper(hp.model_name_or_path, hp)
    print(wrapper.generate(["The Eiffel Tower is in"]))
