# Imitates OptimalScale/LMFlow src/lmflow/models/hf_decoder_model.py (its vLLM inference path)
import logging

from vllm import LLM, SamplingParams

logger = logging.getLogger(__name__)


class HFDecoderModel:
    def __init__(self, model_args):
        self.model_args = model_args
        self._activated = False
        self.backend_model_for_inference = None

    def prepare_inputs_for_inference(self, dataset, apply_chat_template=True, inference_engine="vllm", sampling_params=None):
        prompts = [instance["text"] for instance in dataset]
        return {"prompts": prompts, "sampling_params": sampling_params}

    def inference(
        self,
        inputs,
        release_gpu=False,
        inference_engine="vllm",
        gpu_memory_utilization=0.95,
        tensor_parallel_size=1,
        max_model_len=None,
    ):
        if inference_engine == "vllm":
            if not self._activated:
                self.__prepare_model_for_vllm_inference(
                    model_args=self.model_args,
                    gpu_memory_utilization=gpu_memory_utilization,
                    tensor_parallel_size=tensor_parallel_size,
                    max_model_len=max_model_len,
                )
                self._activated = True
            return self.__vllm_inference(inputs)
        raise NotImplementedError(f"Inference engine {inference_engine} is not supported.")

    def __vllm_inference(self, inputs):
        sampling_params = dict(inputs["sampling_params"])
        sampling_params["max_tokens"] = sampling_params.pop("max_new_tokens")
        vllm_outputs = self.backend_model_for_inference.generate(
            inputs["prompts"],
            sampling_params=SamplingParams(**sampling_params),
            use_tqdm=True,
        )
        return [output.outputs[0].text for output in vllm_outputs]

    def __prepare_model_for_vllm_inference(
        self,
        model_args,
        gpu_memory_utilization: float,
        tensor_parallel_size: int,
        max_model_len=None,
    ):
        self.backend_model_for_inference = LLM(
            model=model_args.model_name_or_path,
            tokenizer=model_args.model_name_or_path,
            dtype=model_args.torch_dtype if model_args.torch_dtype else "auto",
            load_format="auto",
            gpu_memory_utilization=gpu_memory_utilization,
            tensor_parallel_size=tensor_parallel_size,
            max_model_len=max_model_len,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
