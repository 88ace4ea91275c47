# Imitates ShishirPatil/gorilla berkeley-function-call-leaderboard/bfcl_eval/model_handler/local_inference/base_oss_handler.py
# (the server command, here one f-string split with shlex; a model handler subclass overrides dtype).
import shlex
import subprocess


class OSSHandler:
    dtype = "bfloat16"
    local_server_port = 1053

    def __init__(self, model_name, temperature) -> None:
        self.model_name_huggingface = model_name
        self.temperature = temperature

    def server_command(self, num_gpus: int) -> list[str]:
        return shlex.split(
            f"vllm serve {self.model_name_huggingface} --port {self.local_server_port} "
            f"--dtype {self.dtype} --tensor-parallel-size {num_gpus} --trust-remote-code "
            "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
        )

    def spin_up_local_server(self, num_gpus: int = 1):
        self._server_process = subprocess.Popen(self.server_command(num_gpus), text=True)
