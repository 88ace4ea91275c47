# Imitates OptimalScale/LMFlow examples/vllm_inference.py with src/lmflow/pipeline/vllm_inferencer.py,
# src/lmflow/models/hf_decoder_model.py, src/lmflow/args.py and scripts/run_vllm_inference.sh
import logging

from transformers import HfArgumentParser

from lmflow.args import DatasetArguments, InferencerArguments, ModelArguments
from lmflow.models.hf_decoder_model import HFDecoderModel
from lmflow.pipeline.vllm_inferencer import VLLMInferencer

logger = logging.getLogger(__name__)


def main():
    parser = HfArgumentParser((ModelArguments, DatasetArguments, InferencerArguments))
    model_args, data_args, inferencer_args = parser.parse_args_into_dataclasses()

    dataset = [{"text": "Give three tips for staying healthy."}, {"text": "What is 17 * 23?"}]
    model = HFDecoderModel(model_args)
    inferencer = VLLMInferencer(model_args, data_args, inferencer_args)

    res = inferencer.inference(model, dataset, release_gpu=False)
    logger.info(res)


if __name__ == "__main__":
    main()
