# Imitates snowflakedb/ArcticTraining arctic_training/arctic_rl_client/client.py (ArcticRLClient.launch_server).
import subprocess

from .config import ArcticRLClientConfig


class ArcticRLClient:
    def __init__(self, config: ArcticRLClientConfig | None = None):
        self.config = config or ArcticRLClientConfig()
        self._server = None

    def launch_server(self):
        if not self.config.server.enabled:
            return
        inf = self.config.inference
        cmd = ["vllm", "serve", inf.model_id, "--host", inf.host, "--port", str(inf.port)]
        cmd.extend(self.config.server.extra_args)
        self._server = subprocess.Popen(cmd)

    def shutdown(self):
        if self._server is not None:
            self._server.terminate()


if __name__ == "__main__":
    client = ArcticRLClient()
    client.launch_server()
