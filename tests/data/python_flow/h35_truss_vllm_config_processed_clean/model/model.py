# Imitates basetenlabs/truss-examples vllm/model/model.py (Truss Model building AsyncLLMEngine from config.yaml's vllm_config)
import logging
import os
import uuid

from transformers import AutoTokenizer
from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

from vllm import SamplingParams

os.environ["TOKENIZERS_PARALLELISM"] = "true"

logger = logging.getLogger(__name__)


class Model:
    def __init__(self, **kwargs):
        self._config = kwargs["config"]
        self.model = None
        self.llm_engine = None
        self.model_args = None
        self.hf_secret_token = kwargs["secrets"]["hf_access_token"]
        os.environ["HF_TOKEN"] = self.hf_secret_token

    def load(self):
        model_metadata = self._config["model_metadata"]
        model_repo_id = model_metadata["repo_id"]
        self._vllm_config = model_metadata["vllm_config"]
        logger.info(f"main model: {model_repo_id}")
        logger.info(f"vllm config: {self._vllm_config}")

        self.model_args = AsyncEngineArgs(model=model_repo_id, **self._vllm_config)
        self.llm_engine = AsyncLLMEngine.from_engine_args(self.model_args)
        self.tokenizer = AutoTokenizer.from_pretrained(model_repo_id)

    async def predict(self, model_input):
        prompt = model_input.pop("prompt")
        stream = model_input.pop("stream", True)

        sampling_params = SamplingParams(**model_input)
        idx = str(uuid.uuid4().hex)
        chat = [
            {"role": "user", "content": prompt},
        ]
        # templatize the input to the model
        input = self.tokenizer.apply_chat_template(
            chat, tokenize=False, add_generation_prompt=True
        )
        # since we accept any valid vllm sampling parameters, we can just pass it through

        vllm_generator = self.llm_engine.generate(input, sampling_params, idx)

        async def generator():
            full_text = ""
            async for output in vllm_generator:
                text = output.outputs[0].text
                delta = text[len(full_text) :]
                full_text = text
                yield delta

        if stream:
            return generator()
        else:
            full_text = ""
            async for delta in generator():
                full_text += delta
            return {"text": full_text}
