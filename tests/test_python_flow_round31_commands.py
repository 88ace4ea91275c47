"""What held-out rounds 31 and 32 (tests/data/python_flow/h31_instructlab_*, h32_llamacookbook_start_vllm_*)
made the value flow follow in command lines a Python program builds and runs:
- instructlab's `build_vllm_cmd`: a word list grown under tests the reader decides, `if not
  contains_argument("--port", vllm_args):` of a helper returning `any(s == prefix or s.startswith(prefix
  + "=") for s in arg)` over the words the caller passes (also `"--port" not in vllm_args`), the item
  `os.fspath(model_path)` one word whose text is not known, the list handed to `Popen(args=...)` in both
  arms of `if background:`; the words stored by `self.vllm_args: list[str]` (an annotation alone, which
  sets nothing) then `self.vllm_args = list(vllm_args)`; the class made as `vllm.Server(...)` in
  another module (`from .backends import vllm`), which names the flags while the module that runs them
  does not.
- llama-cookbook's `start_vllm.py`: a `vllm serve` f-string of its function's parameters, run with
  `shell=True`, read with the call's arguments; the model's name `sys.argv[2]` as the tree's shell
  script gives it (`python start_vllm.py 0 vllm_llama_8b`), choosing the entry of a config dict.
Each stop stays silent: scale-out given among the caller's words, a test not decided (the words
not known), a model name no script gives (an unquoted piece not known may be any words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# instructlab's backends/vllm.py, shortened

BACKEND = (
    "import os\n"
    "import subprocess\n"
    "import sys\n"
    "\n"
    "\n"
    "class Server:\n"
    "    def __init__(self, host, port, model_path, background=False, vllm_args=()):\n"
    "        self.host = host\n"
    "        self.port = port\n"
    "        self.model_path = model_path\n"
    "        self.background = background\n"
    "        self.vllm_args: list[str]\n"
    "        self.vllm_args = list(vllm_args) if vllm_args is not None else []\n"
    "\n"
    "    def run(self):\n"
    "        return run_vllm(self.host, self.port, self.model_path, self.vllm_args, self.background)\n"
    "\n"
    "\n"
    "def contains_argument(prefix, arg):\n"
    "    return any(s == prefix or s.startswith(prefix + '=') for s in arg)\n"
    "\n"
    "\n"
    "def run_vllm(host, port, model_path, vllm_args, background):\n"
    "    vllm_cmd = build_vllm_cmd(host, port, model_path, vllm_args)\n"
    "    if background:\n"
    "        return subprocess.Popen(args=vllm_cmd, stdout=subprocess.DEVNULL)\n"
    "    else:\n"
    "        return subprocess.Popen(args=vllm_cmd)\n"
    "\n"
    "\n"
    "def build_vllm_cmd(host, port, model_path, vllm_args):\n"
    "    vllm_cmd = [sys.executable, '-m', 'vllm.entrypoints.openai.api_server']\n"
    "    if {host_test}:\n"
    "        vllm_cmd.extend(['--host', host])\n"
    "    if not contains_argument('--port', vllm_args):\n"
    "        vllm_cmd.extend(['--port', str(port)])\n"
    "    if not contains_argument('--model', vllm_args):\n"
    "        vllm_cmd.extend(['--model', os.fspath(model_path)])\n"
    "    vllm_cmd.extend(vllm_args)\n"
    "    return vllm_cmd\n"
)
SERVE = (
    "import pathlib\n"
    "\n"
    "from .backends import vllm\n"
    "\n"
    "\n"
    "def serve_backend(model_path, host='127.0.0.1', port=8000):\n"
    "    backend = vllm.Server(host=host, port=port, model_path=model_path, vllm_args=[\n"
    "        '--max-model-len', '2048',\n"
    "{words}"
    "    ])\n"
    "    backend.run()\n"
    "\n"
    "\n"
    "serve_backend(pathlib.Path('models/granite-7b-lab'))\n"
)
HOST_TESTS = ["not contains_argument('--host', vllm_args)", "'--host' not in vllm_args"]


def _instructlab(words: str, host_test: str = HOST_TESTS[0]) -> dict[str, str]:
    return {
        "src/ilab/__init__.py": "",
        "src/ilab/model/__init__.py": "",
        "src/ilab/model/backends/__init__.py": "",
        "src/ilab/model/backends/vllm.py": BACKEND.format(host_test=host_test),
        "src/ilab/model/serve.py": SERVE.format(words=words),
    }


@pytest.mark.parametrize("host_test", HOST_TESTS)
def test_words_a_class_of_another_module_runs_after_flags_it_adds_are_judged(tmp_path: Path, host_test: str) -> None:
    words = "        '--return-sampling-mask',\n        '--logprobs-mode', 'processed_logprobs',\n"
    assert check(tmp_path, _instructlab(words, host_test)) == [("serve.py", 9, "RPL301")]


def test_the_mask_without_the_mode_among_the_words_is_rpl003(tmp_path: Path) -> None:
    words = "        '--enable-scale-out',\n        '--return-sampling-mask',\n"
    assert check(tmp_path, _instructlab(words)) == [("serve.py", 10, "RPL003")]


def test_scale_out_among_the_words_is_clean(tmp_path: Path) -> None:
    words = "        '--enable-scale-out', '--return-sampling-mask=true',\n        '--logprobs-mode=processed_logprobs',\n"
    assert check(tmp_path, _instructlab(words)) == []


def test_a_test_the_reader_cannot_decide_leaves_the_words_open(tmp_path: Path) -> None:
    """`if os.environ.get("ILAB_SCALE_OUT"):` may add `--enable-scale-out`: no absence is judged."""
    files = _instructlab("        '--return-sampling-mask',\n        '--logprobs-mode', 'processed_logprobs',\n")
    backend = files["src/ilab/model/backends/vllm.py"]
    files["src/ilab/model/backends/vllm.py"] = backend.replace(
        "    vllm_cmd.extend(vllm_args)\n",
        "    if os.environ.get('ILAB_SCALE_OUT'):\n        vllm_cmd.append('--enable-scale-out')\n    vllm_cmd.extend(vllm_args)\n",
    )
    assert check(tmp_path, files) == []


# llama-cookbook's prompt-migration start_vllm.py, with config.py and the notebook's start script

START = (
    "import subprocess\n"
    "import sys\n"
    "\n"
    "from config import MODEL_CONFIGS\n"
    "\n"
    "\n"
    "def start_vllm(cuda_devices, model_name):\n"
    "    if model_name not in MODEL_CONFIGS:\n"
    "        sys.exit(1)\n"
    "    settings = MODEL_CONFIGS[model_name]\n"
    "    model_path = settings['model'].replace('hosted_vllm/', '')\n"
    "    chat_template = settings.get('chat_template', None)\n"
    "    vllm_command = (\n"
    "        f'vllm serve {{model_path}} '\n"
    "        f'--port {{settings[\"port\"]}} '\n"
    "        f'{flags} '\n"
    "    )\n"
    "    if chat_template:\n"
    "        vllm_command += f'--chat-template {{chat_template}} '\n"
    "    subprocess.run(vllm_command, shell=True)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    start_vllm(sys.argv[1], sys.argv[2])\n"
)
CONFIG = "MODEL_CONFIGS = {\n    'llama_8b': {'model': 'hosted_vllm/meta-llama/Llama-3.1-8B-Instruct', 'port': 8001},\n}\n"
SCRIPT = "#!/bin/bash\nCUDA_VISIBLE_DEVICES=0 python start_vllm.py 0 llama_8b\n"


def _cookbook(flags: str, script: str | None = SCRIPT) -> dict[str, str]:
    files = {"start_vllm.py": START.format(flags=flags), "config.py": CONFIG}
    return files | ({"start_server.sh": script} if script is not None else {})


def test_a_command_string_of_the_callers_values_is_judged(tmp_path: Path) -> None:
    assert check(tmp_path, _cookbook("--return-sampling-mask --logprobs-mode processed_logprobs")) == [("start_vllm.py", 16, "RPL301")]


def test_scale_out_in_the_command_string_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _cookbook("--return-sampling-mask --enable-scale-out --logprobs-mode processed_logprobs")) == []


@pytest.mark.parametrize(
    "script",
    [
        None,  # no run in the tree: the model's name is the run's
        '#!/bin/bash\npython start_vllm.py 0 "$1"\n',  # a word not known
        "#!/bin/bash\npython start_vllm.py 0 llama_8b\npython start_vllm.py 0 other\n",  # runs that disagree
    ],
)
def test_a_model_name_no_script_settles_leaves_the_command_open(tmp_path: Path, script: str | None) -> None:
    assert check(tmp_path, _cookbook("--return-sampling-mask --logprobs-mode processed_logprobs", script)) == []
