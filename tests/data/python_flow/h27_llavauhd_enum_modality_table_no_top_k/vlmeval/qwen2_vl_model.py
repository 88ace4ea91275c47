# Imitates thunlp/LLaVA-UHD VLMEvalKit/vlmeval/vlm/qwen2_vl/model.py (generate_inner_vllm branching on
# DATASET_MODALITY(dataset) == 'VIDEO'); the user's edit samples with replay and keeps the request
# options in a module-level Enum keyed by modality.
from enum import Enum

from vllm import LLM, SamplingParams


class GenerationPreset(Enum):
    IMAGE = {"temperature": 0.7, "top_p": 0.9, "top_k": 20}
    VIDEO = {"temperature": 0.7, "top_p": 0.8}


def DATASET_MODALITY(dataset):
    return "VIDEO" if dataset in ("MVBench", "Video-MME") else "IMAGE"


class Qwen2VLChat:
    def __init__(self, model_path, max_new_tokens=512):
        self.max_new_tokens = max_new_tokens
        self.llm = LLM(
            model=model_path,
            max_num_seqs=5,
            max_model_len=2048,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

    def generate_inner_vllm(self, text, dataset=None):
        preset = GenerationPreset[DATASET_MODALITY(dataset)]
        sampling_params = SamplingParams(max_tokens=self.max_new_tokens, **preset.value)  # expect: RPL102
        outputs = self.llm.generate({"prompt": text}, sampling_params=sampling_params)
        return outputs[0].outputs[0].text


if __name__ == "__main__":
    model = Qwen2VLChat("Qwen/Qwen2-VL-7B-Instruct")
    print(model.generate_inner_vllm("What happens in the video?", dataset="MVBench"))
