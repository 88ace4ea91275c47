import pytest

from tests.utils import RemoteReplayServer

MODEL = "Qwen/Qwen3-0.6B"
SERVE_ARGS = [
    "--return-sampling-mask",
    "--logprobs-mode",
    "processed_logprobs",
    "--enable-scale-out",
    "--enable-trace-replay",
]


@pytest.fixture(scope="module")
def server():
    with RemoteReplayServer(MODEL, SERVE_ARGS) as remote:
        yield remote
