# Imitates instructlab/instructlab src/instructlab/model/backends/vllm.py (Server, run_vllm, build_vllm_cmd),
# trimmed; src/instructlab/model/serve.py beside it starts the server.
# SPDX-License-Identifier: Apache-2.0

# Standard
import logging
import os
import pathlib
import subprocess
import sys
import time
import typing

logger = logging.getLogger(__name__)

CHAT_TEMPLATE_AUTO = "auto"
CHAT_TEMPLATE_TOKENIZER = "tokenizer"


class Server:
    def __init__(
        self,
        api_base: str,
        model_family: str,
        model_path: pathlib.Path,
        chat_template: str,
        host: str,
        port: int,
        background: bool = False,
        vllm_args: typing.Iterable[str] | None = (),
    ):
        self.api_base = api_base
        self.model_family = model_family
        self.model_path = model_path
        self.chat_template = chat_template
        self.host = host
        self.port = port
        self.background = background
        self.vllm_args: list[str]
        self.vllm_args = list(vllm_args) if vllm_args is not None else []
        self.process: subprocess.Popen | None = None

    def run(self):
        self.process = run_vllm(
            self.host,
            self.port,
            self.model_family,
            self.model_path,
            self.chat_template,
            self.vllm_args,
            self.background,
        )
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            logger.info("vLLM server terminated by keyboard")
        finally:
            self.shutdown()

    def shutdown(self):
        if self.process is not None:
            self.process.terminate()


def contains_argument(prefix: str, arg: typing.Iterable[str]) -> bool:
    # Either --foo value or --foo=value
    return any(s == prefix or s.startswith(prefix + "=") for s in arg)


def run_vllm(
    host: str,
    port: int,
    model_family: str,
    model_path: pathlib.Path,
    chat_template: str,
    vllm_args: list[str],
    background: bool,
) -> subprocess.Popen:
    vllm_cmd = build_vllm_cmd(host, port, model_family, model_path, chat_template, vllm_args)

    logger.debug(f"vLLM serving command is: {vllm_cmd}")

    if background:
        vllm_process = subprocess.Popen(
            args=vllm_cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    else:
        # pylint: disable=consider-using-with
        vllm_process = subprocess.Popen(args=vllm_cmd)

    logger.info("vLLM starting up on pid %s at %s:%s", vllm_process.pid, host, port)
    return vllm_process


def build_vllm_cmd(
    host: str,
    port: int,
    model_family: str,
    model_path: pathlib.Path,
    chat_template: str,
    vllm_args: list[str],
) -> list[str]:
    vllm_cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server"]

    if not contains_argument("--host", vllm_args):
        vllm_cmd.extend(["--host", host])

    if not contains_argument("--port", vllm_args):
        vllm_cmd.extend(["--port", str(port)])

    if not contains_argument("--model", vllm_args):
        vllm_cmd.extend(["--model", os.fspath(model_path)])

    if not contains_argument("--chat-template", vllm_args):
        if chat_template != CHAT_TEMPLATE_TOKENIZER and chat_template != CHAT_TEMPLATE_AUTO:
            vllm_cmd.extend(["--chat-template", chat_template])

    # Force multiprocessing for distributed serving, vLLM will try "ray" if it's installed but we do
    # not support it (yet?).
    if not contains_argument("--distributed-executor-backend", vllm_args):
        vllm_cmd.extend(["--distributed-executor-backend", "mp"])

    vllm_cmd.extend(vllm_args)

    return vllm_cmd
