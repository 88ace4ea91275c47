# Imitates OptimalScale/LMFlow src/lmflow/pipeline/vllm_inferencer.py
import logging
import os

os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"

logger = logging.getLogger(__name__)


class VLLMInferencer:
    def __init__(self, model_args, data_args, inferencer_args):
        assert inferencer_args.inference_engine == "vllm"
        self.model_args = model_args
        self.data_args = data_args
        self.inferencer_args = inferencer_args
        self.sampling_params = self._parse_args_to_sampling_params(inferencer_args)

    def _parse_args_to_sampling_params(self, inference_args) -> dict:
        if inference_args.use_beam_search:
            logger.warning("`use_beam_search` is ignored, as vLLM V1 engine no longer supports beam search.")

        sampling_params = {
            "n": inference_args.num_output_sequences,
            "temperature": inference_args.temperature + 1e-6,
            "max_new_tokens": inference_args.max_new_tokens,
            "seed": inference_args.random_seed,
            "top_p": inference_args.top_p,
            "top_k": inference_args.top_k,
        }

        return sampling_params

    def inference(self, model, dataset, release_gpu: bool = False, inference_args=None):
        if inference_args:
            logger.warning("Overriding the default inference arguments with the provided arguments in .inference()")
            sampling_params = self._parse_args_to_sampling_params(inference_args)
        else:
            sampling_params = self.sampling_params

        model_input = model.prepare_inputs_for_inference(
            dataset=dataset,
            apply_chat_template=self.inferencer_args.apply_chat_template,
            inference_engine="vllm",
            sampling_params=sampling_params,
        )

        outputs = model.inference(
            inputs=model_input,
            release_gpu=release_gpu,
            inference_engine="vllm",
            gpu_memory_utilization=self.inferencer_args.inference_gpu_memory_utilization,
            tensor_parallel_size=self.inferencer_args.inference_tensor_parallel_size,
            max_model_len=self.inferencer_args.inference_max_model_len,
        )

        return outputs
