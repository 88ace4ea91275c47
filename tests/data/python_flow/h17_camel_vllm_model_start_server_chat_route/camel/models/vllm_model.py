# Imitates camel-ai/camel camel/models/vllm_model.py (VLLMModel: starts `vllm serve` when no url is given)
import subprocess

from openai import OpenAI

from camel.configs.vllm_config import VLLMConfig


class VLLMModel:
    def __init__(self, model_type, model_config_dict=None, api_key=None, url=None, timeout=180):
        if model_config_dict is None:
            model_config_dict = VLLMConfig().as_dict()
        self.model_type = model_type
        self.model_config_dict = model_config_dict
        self._url = url
        if not self._url:
            self._start_server()
        self._client = OpenAI(timeout=timeout, max_retries=3, api_key=api_key or "EMPTY", base_url=self._url)

    def _start_server(self):
        subprocess.Popen(
            [
                "vllm",
                "serve",
                self.model_type,
                "--port",
                "8000",
                "--return-sampling-mask",
                "--logprobs-mode",
                "processed_logprobs",
                "--enable-scale-out",
            ]
        )
        self._url = "http://localhost:8000/v1"

    def run(self, messages):
        return self._client.chat.completions.create(  # expect: RPL301
            messages=messages,
            model=self.model_type,
            **self.model_config_dict,
        )
