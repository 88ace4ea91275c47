"""What held-out round 30 made the Python frontend read in a Modal app (modal-labs/modal-examples
`vllm_inference.py`): the image a function runs in gives its environment. `modal.Image....env({...})`
(also rebound: `image = image.env({...})`), given to `@app.function(image=...)`, `@app.cls(image=...)`
or `modal.App(image=...)`, and `modal.Secret.from_dict({...})` in the function's `secrets`, are what
the container's process starts with; the code's own writes come after. An image not given to the
decorator of the code that starts vLLM, a module that does not use Modal, and a child process given an
environment of its own are not touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

SERVE = (
    "    cmd = ['vllm', 'serve', 'm', '--return-sampling-mask', '--logprobs-mode', 'processed_logprobs',\n"
    "           '--enable-scale-out']\n"
    "    subprocess.Popen(' '.join(cmd), shell=True{env})\n"
)


def app_module(image: str = "", decorator: str = "@app.function(image=image)", app: str = "modal.App('vllm')", body: str = "") -> str:
    return (
        "import os\n"  # 1
        "import subprocess\n"  # 2
        "\n"  # 3
        "import modal\n"  # 4
        "\n"  # 5
        "image = modal.Image.debian_slim().pip_install('vllm==0.34.0').env({'HF_HUB_ENABLE_HF_TRANSFER': '1'})\n"  # 6
        + (image or "\n")  # 7
        + f"app = {app}\n"  # 8
        "\n"  # 9
        "\n"  # 10
        f"{decorator}\n"  # 11
        "@modal.web_server(port=8000)\n"  # 12
        "def serve():\n"  # 13
         + body + SERVE.replace("{env}", "")
    )


RUNNER_ZERO = "image = image.env({'VLLM_USE_V2_MODEL_RUNNER': '0'})\n"


def test_the_runner_variable_of_the_image_given_to_the_function_is_its_environment(tmp_path: Path) -> None:
    assert check(tmp_path, {"serve.py": app_module(RUNNER_ZERO)}) == [("serve.py", 7, "RPL206")]


def test_the_apps_image_is_a_functions_without_one(tmp_path: Path) -> None:
    files = {"serve.py": app_module(RUNNER_ZERO, decorator="@app.function()", app="modal.App('vllm', image=image)")}
    assert check(tmp_path, files) == [("serve.py", 7, "RPL206")]


def test_an_image_chained_in_one_expression_and_a_class_of_the_app(tmp_path: Path) -> None:
    module = (
        "import modal\n"
        "from vllm import LLM\n"
        "\n"
        "image = (\n"
        "    modal.Image.debian_slim()\n"
        "    .env({'VLLM_USE_V2_MODEL_RUNNER': 'true'})\n"
        "    .pip_install('vllm==0.34.0')\n"
        ")\n"
        "app = modal.App('vllm')\n"
        "\n"
        "\n"
        "@app.cls(image=image, gpu='H100')\n"
        "class Model:\n"
        "    @modal.enter()\n"
        "    def load(self):\n"
        "        self.llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    )
    assert check(tmp_path, {"model.py": module}) == [("model.py", 6, "RPL206")]


def test_a_secret_from_a_dict_is_in_the_environment_too(tmp_path: Path) -> None:
    decorator = "@app.function(image=image, secrets=[modal.Secret.from_dict({'VLLM_USE_V2_MODEL_RUNNER': '0'})])"
    assert check(tmp_path, {"serve.py": app_module(decorator=decorator)}) == [("serve.py", 11, "RPL206")]


@pytest.mark.parametrize(
    "files",
    [
        # the image says nothing of the runner
        {"serve.py": app_module()},
        # the function's own code removes it before the server starts
        {"serve.py": app_module(RUNNER_ZERO, body="    os.environ.pop('VLLM_USE_V2_MODEL_RUNNER', None)\n")},
        # another image runs the function
        {"serve.py": app_module(RUNNER_ZERO, decorator="@app.function(image=modal.Image.debian_slim())")},
        # a function Modal does not run in the image
        {"serve.py": app_module(RUNNER_ZERO, decorator="@staticmethod")},
        # not Modal's App
        {"serve.py": app_module(RUNNER_ZERO, app="object()")},
    ],
    ids=["no-runner", "popped", "other-image", "not-a-modal-function", "not-modal-app"],
)
def test_the_image_env_is_only_the_environment_of_the_code_it_runs(tmp_path: Path, files: dict[str, str]) -> None:
    assert check(tmp_path, files) == []


def test_a_child_given_its_own_environment_does_not_inherit_the_images(tmp_path: Path) -> None:
    module = app_module(RUNNER_ZERO).replace("shell=True)", "shell=True, env={'PATH': '/usr/bin'})")
    assert check(tmp_path, {"serve.py": module}) == []


def test_a_module_that_does_not_use_modal_is_not_read_so(tmp_path: Path) -> None:
    module = app_module(RUNNER_ZERO).replace("import modal\n", "from builders import modal\n")
    assert check(tmp_path, {"serve.py": module}) == []
