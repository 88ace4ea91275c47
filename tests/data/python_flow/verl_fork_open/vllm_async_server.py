# Imitates volcengine/verl verl/workers/rollout/vllm_rollout/vllm_async_server.py as a fork edits
# it: the user's `engine_kwargs` from the config (not known here) spread first, then the mask and
# a logits processor the fork adds, which vLLM refuses whatever the config holds.
from vllm import AsyncEngineArgs


class vLLMHttpServer:
    def __init__(self, config):
        self.config = config

    def launch_server(self):
        engine_kwargs = self.config.get("engine_kwargs", {}).get("vllm", {})
        args = {
            **engine_kwargs,
            "model": self.config["model_path"],
            "return_sampling_mask": True,
            "logits_processors": ["verl.utils.TokenMask"],  # expect: RPL001
        }
        return AsyncEngineArgs(**args)
