"""What held-out round 27 made the value flow follow in config objects (three missed findings).

EasyEdit writes the runner variable from `getattr(hparams, "vllm_use_v2_model_runner", False)` of a
`SimpleNamespace` that has no such attribute: the default decides (`"0"`, RPL206). A namespace of
keys the reader does not know whole, or one the module stores that attribute on, stays open.

verl-tool's `ModelService.load_model` turns every `ModelConfig` field but a few into `--field-name`
(and `str(v)` unless the value is a bool) of a `vllm serve` it starts per model: the dataclass's
`__dict__` read as its fields, the word list read after the loop that builds it (also where the
command is put together in a later loop), a bare flag placed at the field that gives it (a bool
field gives its flag True or False), and a JSON text spelt in pieces placed at its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check, run

WRAPPER = (
    "import os\n"
    "from types import SimpleNamespace\n"
    "\n"
    "from vllm import LLM\n"
    "\n"
    "\n"
    "class Wrapper:\n"
    "    def __init__(self, hparams):\n"
    "        use_v2 = getattr(hparams, 'vllm_use_v2_model_runner', False)\n"
    "        os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '1' if use_v2 else '0'\n"
    "        self.llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    Wrapper({hparams})\n"
)


@pytest.mark.parametrize(
    "hparams",
    [
        "SimpleNamespace(vllm_tensor_parallel_size=1)",
        "SimpleNamespace()",
        "SimpleNamespace(vllm_use_v2_model_runner=False)",
        "SimpleNamespace(**{'vllm_tensor_parallel_size': 1})",
    ],
)
def test_getattr_default_of_a_namespace_without_the_attribute(tmp_path: Path, hparams: str) -> None:
    assert check(tmp_path, {"wrapper.py": WRAPPER.replace("{hparams}", hparams)}) == [("wrapper.py", 10, "RPL206")]


def test_the_case_a_hasattr_test_does_not_change_the_namespace(tmp_path: Path) -> None:
    text = WRAPPER.replace(
        "        use_v2 =",
        "        if hasattr(hparams, 'vllm_enable_v1_multiprocessing'):\n            os.environ['VLLM_ENABLE_V1_MULTIPROCESSING'] = '0'\n"
        "        use_v2 =",
    )
    assert check(tmp_path, {"wrapper.py": text.replace("{hparams}", "SimpleNamespace(vllm_enable_v1_multiprocessing=False)")}) == [
        ("wrapper.py", 12, "RPL206")
    ]


@pytest.mark.parametrize(
    "hparams",
    ["SimpleNamespace(**json.load(open('hparams.json')))", "load_hparams()"],
    ids=["keys-from-outside", "unknown-object"],
)
def test_a_namespace_that_may_hold_it_stays_open(tmp_path: Path, hparams: str) -> None:
    text = "import json\n" + WRAPPER.replace("{hparams}", hparams)
    assert check(tmp_path, {"wrapper.py": text}) == []


def test_a_namespace_the_module_may_set_the_attribute_on_stays_open(tmp_path: Path) -> None:
    setter = "\n\ndef enable_v2(ns):\n    ns.vllm_use_v2_model_runner = True\n"
    text = WRAPPER.replace("{hparams}", "SimpleNamespace()").replace("\n\nif __name__", setter + "\n\nif __name__")
    assert check(tmp_path, {"wrapper.py": text}) == []


@pytest.mark.parametrize(
    "main",
    [
        "    Wrapper(SimpleNamespace(vllm_use_v2_model_runner=True))\n",
        "    h = SimpleNamespace()\n    h.vllm_use_v2_model_runner = True\n    Wrapper(h)\n",
    ],
    ids=["given", "set-after"],
)
def test_a_namespace_that_holds_it_gives_its_value(tmp_path: Path, main: str) -> None:
    (tmp_path / "wrapper.py").write_text(WRAPPER.replace("    Wrapper({hparams})\n", main))
    found = run(tmp_path)
    assert [(f["location"]["row"], f["code"]) for f in found] == [(10, "RPL206")]
    assert "VLLM_USE_V2_MODEL_RUNNER=1 is redundant" in found[0]["message"]


# -- verl-tool: a dataclass's fields as a server's flags ----------------------------------------------

CONFIG = (
    "from dataclasses import dataclass\n"
    "\n"
    "\n"
    "@dataclass\n"
    "class ModelConfig:\n"
    "    model: str\n"
    "    num_models: int = 1\n"
    "    max_model_len: int = 2048\n"
    "    return_sampling_mask: bool = True\n"
    "    enable_scale_out: bool = True\n"
)
SERVICE = (
    "import subprocess\n"
    "\n"
    "from config import ModelConfig\n"
    "\n"
    "\n"
    "class ModelService:\n"
    "    def __init__(self, model_config: ModelConfig):\n"
    "        self.model_config = model_config\n"
    "\n"
    "    def load_model(self):\n"
    "        vllm_args = []\n"
    "        for k, v in {fields}:\n"
    "            if k not in ['model', 'num_models']:\n"
    "                vllm_args.append(f\"--{k.replace('_', '-')}\")\n"
    "                if not isinstance(v, bool):\n"
    "                    vllm_args.append(str(v))\n"
    "        for i in range(self.model_config.num_models):\n"
    "            cmd = ['vllm', 'serve', self.model_config.model, '--port', str(8000 + i)] + vllm_args\n"
    "            subprocess.Popen(cmd)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    ModelService(ModelConfig(model='m')).load_model()\n"
)
MASK_LINE = 9


@pytest.mark.parametrize(
    "fields",
    ["self.model_config.__dict__.items()", "vars(self.model_config).items()", "asdict(self.model_config).items()"],
)
def test_the_case_a_bool_field_s_flag_placed_at_the_field(tmp_path: Path, fields: str) -> None:
    service = SERVICE.replace("{fields}", fields).replace("import subprocess\n", "import subprocess\nfrom dataclasses import asdict\n")
    assert check(tmp_path, {"config.py": CONFIG, "service.py": service}) == [("config.py", MASK_LINE, "RPL003")]


def test_the_field_s_logprobs_mode_completes_the_server(tmp_path: Path) -> None:
    config = CONFIG + "    logprobs_mode: str = 'processed_logprobs'\n"
    assert check(tmp_path, {"config.py": config, "service.py": SERVICE.replace("{fields}", "self.model_config.__dict__.items()")}) == []


def test_a_bool_field_false_still_gives_its_flag(tmp_path: Path) -> None:
    config = CONFIG.replace("return_sampling_mask: bool = True", "return_sampling_mask: bool = False")
    service = SERVICE.replace("{fields}", "self.model_config.__dict__.items()")
    assert check(tmp_path, {"config.py": config, "service.py": service}) == [("config.py", MASK_LINE, "RPL003")]


def test_a_launcher_that_skips_false_fields_gives_no_flag(tmp_path: Path) -> None:
    config = CONFIG.replace("return_sampling_mask: bool = True", "return_sampling_mask: bool = False")
    service = SERVICE.replace("{fields}", "self.model_config.__dict__.items()").replace(
        "            if k not in ['model', 'num_models']:\n", "            if k not in ['model', 'num_models'] and v is not False:\n"
    )
    assert check(tmp_path, {"config.py": config, "service.py": service}) == []


def test_a_list_changed_in_the_loop_that_reads_it_stays_unknown(tmp_path: Path) -> None:
    service = SERVICE.replace("{fields}", "self.model_config.__dict__.items()").replace(
        "            subprocess.Popen(cmd)\n", "            subprocess.Popen(cmd)\n            vllm_args.append('--enforce-eager')\n"
    )
    assert check(tmp_path, {"config.py": CONFIG, "service.py": service}) == []


SPECULATIVE = (
    "    logprobs_mode: str = 'processed_logprobs'\n"
    "    speculative_config: str = (\n"
    '        \'{"method": "ngram", "num_speculative_tokens": 3, \'\n'
    "        '\"enable_adaptive_verification\": true}'\n"
    "    )\n"
)


def test_a_json_field_in_pieces_is_placed_at_its_key(tmp_path: Path) -> None:
    service = SERVICE.replace("{fields}", "self.model_config.__dict__.items()")
    found = check(tmp_path, {"config.py": CONFIG + SPECULATIVE, "service.py": service})
    assert found == [("config.py", len(CONFIG.splitlines()) + 4, "RPL002")]


def test_adaptive_verification_off_is_clean(tmp_path: Path) -> None:
    service = SERVICE.replace("{fields}", "self.model_config.__dict__.items()")
    config = CONFIG + SPECULATIVE.replace('"enable_adaptive_verification": true', '"enable_adaptive_verification": false')
    assert check(tmp_path, {"config.py": config, "service.py": service}) == []
