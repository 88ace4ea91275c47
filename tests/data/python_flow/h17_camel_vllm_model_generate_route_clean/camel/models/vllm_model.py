# Imitates camel-ai/camel camel/models/vllm_model.py (VLLMModel: starts `vllm serve` when no url is given)
import subprocess

import requests

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
        self._timeout = timeout

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
        self._url = "http://localhost:8000"

    def run(self, prompt_token_ids):
        body = {
            "model": self.model_type,
            "token_ids": prompt_token_ids,
            "sampling_params": {**self.model_config_dict, "top_k": 20},
        }
        response = requests.post(f"{self._url}/inference/v1/generate", json=body, timeout=self._timeout)
        return response.json()
