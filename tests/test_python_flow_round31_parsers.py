"""What held-out round 31 made replaylint follow: programs of the tree built on vLLM's own parser,
run as modules by the tree's shell scripts with vLLM's flags (three missed findings, RPL003 twice
and RPL002, and a missed RPL206).

Dynasor's `dynasor/cli/vllm_server.py` (`python -m dynasor.cli.vllm_server ...`) grows its parser
with `make_arg_parser(parser)` and hands the namespace to `api_server.run_server(args)`; kserve's
`huggingfaceserver` (`python -m huggingfaceserver --backend=vllm ...`, its `__main__.py`) grows a
parser of its own through `maybe_add_vllm_cli_parser` of its package, parses it with
`parse_known_args()`, and builds `AsyncEngineArgs.from_cli_args(args)` (through
`build_vllm_engine_args`) into an engine only on the branch its `--backend` chooses. A backend the
words choose otherwise, a program that parses but builds nothing, and a module the tree does not
hold leave nothing to report."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

DYNASOR_SERVER = (
    "import uvloop\n"
    "from vllm.entrypoints.openai import api_server\n"
    "from vllm.entrypoints.openai.cli_args import (make_arg_parser,\n"
    "                                              validate_parsed_serve_args)\n"
    "from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
    "\n"
    "def main():\n"
    "    parser = FlexibleArgumentParser(description='vLLM OpenAI-Compatible RESTful API server.')\n"
    "    parser = make_arg_parser(parser)\n"
    "    args = parser.parse_args()\n"
    "    validate_parsed_serve_args(args)\n"
    "    {serve}\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)


def dynasor(words: str, serve: str = "uvloop.run(api_server.run_server(args))") -> dict[str, str]:
    script = f"#!/bin/bash\nMODEL=deepseek-ai/DeepSeek-R1-Distill-Qwen-7B\npython -m dynasor.cli.vllm_server --model $MODEL \\\n{words}\n"
    return {
        "scripts/serve.sh": script,
        "dynasor/__init__.py": "",
        "dynasor/cli/__init__.py": "",
        "dynasor/cli/vllm_server.py": DYNASOR_SERVER.replace("{serve}", serve),
    }


def test_dynasor_server_with_the_mask_alone(tmp_path: Path) -> None:
    assert check(tmp_path, dynasor("    --enable-scale-out --return-sampling-mask")) == [("serve.sh", 4, "RPL003")]


def test_dynasor_server_with_adaptive_verification(tmp_path: Path) -> None:
    words = (
        "    --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs \\\n"
        '    --speculative-config \'{"method": "ngram", "num_speculative_tokens": 4, "enable_adaptive_verification": true}\''
    )
    assert check(tmp_path, dynasor(words)) == [("serve.sh", 5, "RPL002")]


def test_dynasor_server_with_processed_logprobs_is_clean(tmp_path: Path) -> None:
    words = "    --enable-scale-out --return-sampling-mask --logprobs-mode processed_logprobs"
    assert check(tmp_path, dynasor(words)) == []


def test_a_program_that_parses_vllm_words_but_serves_nothing_is_clean(tmp_path: Path) -> None:
    files = dynasor("    --enable-scale-out --return-sampling-mask", serve="print(vars(args))")
    assert check(tmp_path, files) == []


def test_a_module_the_tree_does_not_hold_is_clean(tmp_path: Path) -> None:
    files = dynasor("    --enable-scale-out --return-sampling-mask")
    del files["dynasor/cli/vllm_server.py"]
    assert check(tmp_path, files) == []


def test_a_package_run_by_its_main_module(tmp_path: Path) -> None:
    files = {
        "serve.sh": "#!/bin/bash\npython3 -u -m myserver --model m --enable-scale-out --return-sampling-mask &\n",
        "myserver/__init__.py": "",
        "myserver/__main__.py": DYNASOR_SERVER.replace("{serve}", "uvloop.run(api_server.run_server(args))"),
    }
    assert check(tmp_path, files) == [("serve.sh", 2, "RPL003")]


KSERVE_MAIN = (
    "from enum import Enum, auto\n"
    "from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
    "from .vllm.utils import build_vllm_engine_args, maybe_add_vllm_cli_parser, vllm_available\n"
    "from .vllm.vllm_model import VLLMModel\n"
    "\n"
    "class Backend(str, Enum):\n"
    "    auto = auto()\n"
    "    huggingface = auto()\n"
    "    vllm = auto()\n"
    "\n"
    "parser = FlexibleArgumentParser('huggingfaceserver')\n"
    "parser.add_argument('--model_name', default='model')\n"
    "parser.add_argument('--model_id', required=False, default=None)\n"
    "parser.add_argument('--backend', default='auto', type=lambda t: Backend[t])\n"
    "parser = maybe_add_vllm_cli_parser(parser)\n"
    "args, _ = parser.parse_known_args()\n"
    "\n"
    "def load_model():\n"
    "    if (args.backend == Backend.vllm or args.backend == Backend.auto) and vllm_available():\n"
    "        args.model = args.model_id\n"
    "        {write}\n"
    "        engine_args = build_vllm_engine_args(args)\n"
    "        return VLLMModel(args.model_name, engine_args)\n"
    "    return None\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    load_model()\n"
)
KSERVE_UTILS = (
    "try:\n"
    "    from vllm.engine.arg_utils import AsyncEngineArgs\n"
    "    from vllm.entrypoints.openai.cli_args import make_arg_parser\n"
    "    _vllm = True\n"
    "except ImportError:\n"
    "    _vllm = False\n"
    "\n"
    "def vllm_available():\n"
    "    return _vllm\n"
    "\n"
    "def maybe_add_vllm_cli_parser(parser):\n"
    "    if not _vllm:\n"
    "        return parser\n"
    "    return make_arg_parser(parser)\n"
    "\n"
    "def build_vllm_engine_args(args):\n"
    "    return AsyncEngineArgs.from_cli_args(args)\n"
)
KSERVE_MODEL = (
    "from vllm.v1.engine.async_llm import AsyncLLM\n"
    "\n"
    "class VLLMModel:\n"
    "    def __init__(self, name, engine_args):\n"
    "        self.engine_args = engine_args\n"
    "\n"
    "    def start(self):\n"
    "        config = self.engine_args.create_engine_config()\n"
    "        return AsyncLLM.from_vllm_config(vllm_config=config)\n"
)


def kserve(words: str, write: str = "pass", before: str = "") -> dict[str, str]:
    script = f'#!/bin/bash\n{before}cd "$(dirname "$0")"\npython -m huggingfaceserver --model_name=qwen --model_id=Qwen/Qwen2.5-0.5B \\\n{words}\n'
    package = "python/huggingfaceserver/huggingfaceserver"
    return {
        "python/huggingfaceserver/run_local.sh": script,
        f"{package}/__init__.py": "",
        f"{package}/__main__.py": KSERVE_MAIN.replace("{write}", write),
        f"{package}/vllm/__init__.py": "",
        f"{package}/vllm/utils.py": KSERVE_UTILS,
        f"{package}/vllm/vllm_model.py": KSERVE_MODEL,
    }


@pytest.mark.parametrize("backend", ["--backend=vllm ", "--backend vllm ", "--backend=huggingface --backend=vllm ", ""])
def test_kserve_server_with_the_mask_alone(tmp_path: Path, backend: str) -> None:
    files = kserve(f"    {backend}--max-model-len 2048 --return-sampling-mask")
    assert check(tmp_path, files) == [("run_local.sh", 4, "RPL003")]


def test_kserve_server_with_the_runner_variable_zero(tmp_path: Path) -> None:
    words = "    --backend=vllm --return-sampling-mask --logprobs-mode processed_logprobs"
    files = kserve(words, before="export VLLM_USE_V2_MODEL_RUNNER=0\n")
    assert check(tmp_path, files) == [("run_local.sh", 2, "RPL206")]


@pytest.mark.parametrize("backend", ["--backend=huggingface", "--backend huggingface", "--backend=vllm --backend=huggingface"])
def test_kserve_backend_the_words_turn_away_is_clean(tmp_path: Path, backend: str) -> None:
    assert check(tmp_path, kserve(f"    {backend} --return-sampling-mask")) == []


def test_kserve_with_processed_logprobs_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, kserve("    --backend=vllm --return-sampling-mask --logprobs-mode processed_logprobs")) == []


def test_a_mode_the_program_writes_itself_is_not_the_words(tmp_path: Path) -> None:
    files = kserve("    --backend=vllm --return-sampling-mask", write="args.logprobs_mode = 'processed_logprobs'")
    assert check(tmp_path, files) == []


def test_a_helper_module_that_builds_no_engine_is_clean(tmp_path: Path) -> None:
    files = kserve("    --backend=vllm --return-sampling-mask")
    files["python/huggingfaceserver/huggingfaceserver/vllm/vllm_model.py"] = (
        "class VLLMModel:\n    def __init__(self, name, engine_args):\n        self.engine_args = engine_args\n"
    )
    assert check(tmp_path, files) == []
