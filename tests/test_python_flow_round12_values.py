"""What held-out round 12 (tests/data/python_flow/h12_*) made the value flow follow, and where
each construct stops: `os.putenv` (the C environment a child inherits, not the `os.environ` vLLM
reads in the process that builds the engine). Each stop keeps the launch open (no finding rests
on an absent or unknown setting)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main as cli_main
from tests.test_python_flow_round10 import check

ENGINE = "LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
SERVE = "['vllm', 'serve', 'm', '--return-sampling-mask', '--logprobs-mode', 'processed_logprobs', '--enable-scale-out']"

# `os.putenv`: not in `os.environ`, so not in this process's engine; in a child that inherits


@pytest.mark.parametrize(
    "head, write",
    [
        ("import os\n", "os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')"),
        ("from os import putenv\n", "putenv('VLLM_USE_V2_MODEL_RUNNER', '0')"),
        ("import os as _os\n", "_os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')"),
    ],
)
def test_putenv_before_an_engine_in_the_same_process_is_clean(tmp_path: Path, head: str, write: str) -> None:
    module_level = f"{head}from vllm import LLM\n{write}\n{ENGINE}"
    in_function = f"{head}from vllm import LLM\ndef main():\n    {write}\n    {ENGINE}"
    assert check(tmp_path, {"top.py": module_level, "func.py": in_function}) == []


def test_putenv_in_a_setup_helper_of_another_module_is_clean(tmp_path: Path) -> None:
    helper = (
        "import os\ndef prepare():\n    os.environ['TOKENIZERS_PARALLELISM'] = 'false'\n    os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')\n"
    )
    run = f"from vllm import LLM\nfrom env_setup import prepare\ndef main():\n    prepare()\n    {ENGINE}"
    assert check(tmp_path, {"env_setup.py": helper, "run.py": run}) == []


def test_os_environ_written_in_a_setup_helper_is_still_found(tmp_path: Path) -> None:
    helper = "import os\ndef prepare():\n    os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
    run = f"from vllm import LLM\nfrom env_setup import prepare\ndef main():\n    prepare()\n    {ENGINE}"
    assert check(tmp_path, {"env_setup.py": helper, "run.py": run}) == [("env_setup.py", 3, "RPL206")]


def test_the_engine_reads_os_environ_not_a_later_putenv(tmp_path: Path) -> None:
    # os.environ holds "0" (its write calls putenv too); putenv's "1" reaches only a child
    source = f"import os\nfrom vllm import LLM\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\nos.putenv('VLLM_USE_V2_MODEL_RUNNER', '1')\n{ENGINE}"
    assert check(tmp_path, {"run.py": source}) == [("run.py", 3, "RPL206")]


def test_setdefault_after_putenv_writes_os_environ(tmp_path: Path) -> None:
    # os.environ has no entry after putenv, so setdefault's "0" is the engine's
    source = (
        "import os\nfrom vllm import LLM\nos.putenv('VLLM_USE_V2_MODEL_RUNNER', '1')\n"
        f"os.environ.setdefault('VLLM_USE_V2_MODEL_RUNNER', '0')\n{ENGINE}"
    )
    assert check(tmp_path, {"run.py": source}) == [("run.py", 4, "RPL206")]


@pytest.mark.parametrize("start", ["subprocess.Popen({argv})", "subprocess.run({argv}, check=True)"])
def test_putenv_before_a_child_that_inherits_the_environment_is_found(tmp_path: Path, start: str) -> None:
    source = f"import os\nimport subprocess\ndef main():\n    os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')\n    {start.format(argv=SERVE)}\n"
    assert check(tmp_path, {"run.py": source}) == [("run.py", 4, "RPL206")]


@pytest.mark.parametrize(
    "env", ["os.environ.copy()", "{**os.environ, 'CUDA_VISIBLE_DEVICES': '0'}", "dict(os.environ, CUDA_VISIBLE_DEVICES='0')"]
)
def test_putenv_before_a_child_given_a_copy_of_os_environ_is_clean(tmp_path: Path, env: str) -> None:
    source = f"import os\nimport subprocess\ndef main():\n    os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')\n    env = {env}\n    subprocess.run({SERVE}, env=env)\n"
    assert check(tmp_path, {"run.py": source}) == []


# a request in a function handed the engine and the options by the function that builds the engine

HANDED = (
    "import argparse\n"
    "from vllm import LLM, SamplingParams\n"
    "def parse_args():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--temperature', default=TEMPERATURE, type=float)\n"
    "    return parser.parse_args()\n"
    "def setup(args):\n"
    "    llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    for name in ['gsm8k', 'math']:\n"
    "        CALL\n"
    "def evaluate(llm, name, args):\n"
    "    return llm.generate([name], SamplingParams(temperature=args.temperature, top_k=20))\n"
    "if __name__ == '__main__':\n"
    "    setup(parse_args())\n"
)


@pytest.mark.parametrize("call", ["evaluate(llm, name, args)", "evaluate(llm=llm, name=name, args=args)", "evaluate(llm, name, args=args)"])
def test_a_request_in_a_function_the_engine_is_handed_to_reads_the_callers_options(tmp_path: Path, call: str) -> None:
    source = HANDED.replace("TEMPERATURE", "0").replace("CALL", call)
    assert check(tmp_path, {"math_eval.py": source}) == [("math_eval.py", 5, "RPL101")]


def test_a_sampled_default_handed_on_is_clean(tmp_path: Path) -> None:
    source = HANDED.replace("TEMPERATURE", "0.6").replace("CALL", "evaluate(llm, name, args)")
    assert check(tmp_path, {"math_eval.py": source}) == []


TWO_LEVELS = (
    "from vllm import LLM, SamplingParams\n"
    "def setup(t):\n"
    "    llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    run(llm, t)\n"
    "def run(llm, t):\n"
    "    llm.generate(['x'], SamplingParams(temperature=t, top_k=20))\n"
)


def test_a_value_handed_through_two_functions_is_read_at_the_outer_call(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": TWO_LEVELS + "setup(0.0)\n"}) == [("run.py", 7, "RPL101")]


def test_an_outer_function_called_with_sampled_values_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": TWO_LEVELS + "setup(0.7)\nsetup(1.0)\n"}) == []


# a base class that builds the engine, made only through a subclass of another module

BASE = (
    "from vllm import LLM\n"
    "class VLLMSampler:\n"
    "    def __init__(self, model, logprobs_mode='processed_logprobs', **engine_kwargs):\n"
    "        self.llm = LLM(model=model, return_sampling_mask=True, logprobs_mode=logprobs_mode, **engine_kwargs)\n"
)
RUN = "from samplers.replay import ReplayRolloutSampler\nsampler = ReplayRolloutSampler('m')\n"


def _samplers(replay: str) -> dict[str, str]:
    return {"samplers/__init__.py": "", "samplers/base.py": BASE, "samplers/replay.py": replay, "run.py": RUN}


@pytest.mark.parametrize(
    "head, base, call",
    [
        ("from samplers.base import VLLMSampler\n", "VLLMSampler", "super().__init__"),
        ("from samplers import base\n", "base.VLLMSampler", "super().__init__"),
        ("from .base import VLLMSampler as Sampler\n", "Sampler", "super(ReplayRolloutSampler, self).__init__"),
    ],
)
def test_a_subclass_of_another_module_overrides_the_base_default(tmp_path: Path, head: str, base: str, call: str) -> None:
    replay = (
        f"{head}class ReplayRolloutSampler({base}):\n"
        "    def __init__(self, model, **engine_kwargs):\n"
        f"        {call}(model, logprobs_mode='processed_logits', seed=0, **engine_kwargs)\n"
    )
    assert check(tmp_path, _samplers(replay)) == [("replay.py", 4, "RPL003")]


def test_a_subclass_parameter_default_handed_to_the_base_is_found(tmp_path: Path) -> None:
    replay = (
        "from samplers.base import VLLMSampler\n"
        "class ReplayRolloutSampler(VLLMSampler):\n"
        "    def __init__(self, model, mode='raw_logprobs'):\n"
        "        super().__init__(model, logprobs_mode=mode)\n"
    )
    assert check(tmp_path, _samplers(replay)) == [("replay.py", 3, "RPL003")]


@pytest.mark.parametrize(
    "arguments",
    ["model, logprobs_mode='processed_logprobs'", "model", "model, **engine_kwargs"],
)
def test_a_subclass_keeping_processed_logprobs_is_clean(tmp_path: Path, arguments: str) -> None:
    replay = (
        "from samplers.base import VLLMSampler\n"
        "class ReplayRolloutSampler(VLLMSampler):\n"
        "    def __init__(self, model, **engine_kwargs):\n"
        f"        super().__init__({arguments})\n"
    )
    assert check(tmp_path, _samplers(replay)) == []


def test_a_subclass_made_with_unknown_options_leaves_the_engine_open(tmp_path: Path) -> None:
    replay = (
        "from samplers.base import VLLMSampler\n"
        "class ReplayRolloutSampler(VLLMSampler):\n"
        "    def __init__(self, model, mode):\n"
        "        super().__init__(model, logprobs_mode=mode)\n"
    )
    run = "import sys\nfrom samplers.replay import ReplayRolloutSampler\nsampler = ReplayRolloutSampler('m', sys.argv[1])\n"
    assert check(tmp_path, {**_samplers(replay), "run.py": run}) == []


def test_a_subclass_of_a_same_named_class_elsewhere_does_not_reach_the_engine(tmp_path: Path) -> None:
    replay = (
        "from samplers import base\n"
        "class VLLMSampler:\n    def __init__(self, model, logprobs_mode=None):\n        self.base = base\n"
        "class ReplayRolloutSampler(VLLMSampler):\n"
        "    def __init__(self, model):\n"
        "        super().__init__(model, logprobs_mode='processed_logits')\n"
    )
    assert check(tmp_path, _samplers(replay)) == []


# a nested key of a YAML or JSON config the flow reads: the finding is at that key, once

ENGINE_YAML = (
    "engine:\n"
    "  max_model_len: 16384\n"
    "  MASK\n"
    "  speculative_config:\n"
    "    method: ngram\n"
    "    num_speculative_tokens: 3\n"
    "    enable_adaptive_verification: ADAPTIVE\n"
)
LOADS = {
    "omegaconf": (
        "import os\nfrom omegaconf import OmegaConf\n"
        "CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'config', 'generation.yaml')\n"
        "engine_kwargs = OmegaConf.to_container(OmegaConf.load(CONFIG).engine, resolve=True)\n"
    ),
    "yaml": (
        "from pathlib import Path\nimport yaml\n"
        "with open(Path(__file__).parent / 'config' / 'generation.yaml') as handle:\n"
        "    engine_kwargs = yaml.safe_load(handle)['engine']\n"
    ),
}


def _generation(load: str, mask_in_yaml: bool, adaptive: str = "true") -> dict[str, str]:
    mask = "return_sampling_mask: true" if mask_in_yaml else "logprobs_mode: processed_logprobs"
    yaml_text = ENGINE_YAML.replace("MASK", mask).replace("ADAPTIVE", adaptive)
    extra = "" if mask_in_yaml else ", return_sampling_mask=True"
    engine = f"from vllm import LLM\nllm = LLM(model='m', logprobs_mode='processed_logprobs'{extra}, **engine_kwargs)\n"
    if mask_in_yaml:
        engine = engine.replace("logprobs_mode='processed_logprobs', ", "")
        yaml_text = yaml_text.replace(
            "  return_sampling_mask: true\n", "  return_sampling_mask: true\n  logprobs_mode: processed_logprobs\n"
        )
    return {"config/generation.yaml": yaml_text, "generate.py": LOADS[load] + engine}


@pytest.mark.parametrize("load", sorted(LOADS))
@pytest.mark.parametrize("mask_in_yaml", [True, False])
def test_a_nested_yaml_key_read_by_the_flow_is_reported_at_that_key_once(tmp_path: Path, load: str, mask_in_yaml: bool) -> None:
    found = check(tmp_path, _generation(load, mask_in_yaml))
    line = 8 if mask_in_yaml else 7
    assert found == [("generation.yaml", line, "RPL002")]


@pytest.mark.parametrize("load", sorted(LOADS))
def test_fixed_verification_in_the_yaml_is_clean(tmp_path: Path, load: str) -> None:
    assert check(tmp_path, _generation(load, mask_in_yaml=False, adaptive="false")) == []


def test_the_fix_writes_yaml_false_at_the_nested_key(tmp_path: Path) -> None:
    check(tmp_path, _generation("omegaconf", mask_in_yaml=False))
    _quiet(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--fix", "--unsafe-fixes", "-q", str(tmp_path)])
    text = (tmp_path / "config" / "generation.yaml").read_text()
    assert "    enable_adaptive_verification: false\n" in text
    assert check(tmp_path, {}) == []


def test_the_fix_writes_json_false_in_a_json_config(tmp_path: Path) -> None:
    config = '{"speculative_config": {"method": "ngram", "num_speculative_tokens": 3, "enable_adaptive_verification": true}}\n'
    source = (
        "import json\nimport os\nfrom vllm import LLM\n"
        "with open(os.path.join(os.path.dirname(__file__), 'engine.json')) as handle:\n"
        "    engine_kwargs = json.load(handle)\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs', **engine_kwargs)\n"
    )
    assert check(tmp_path, {"engine.json": config, "run.py": source}) == [("engine.json", 1, "RPL002")]
    _quiet(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--fix", "--unsafe-fixes", "-q", str(tmp_path)])
    assert json.loads((tmp_path / "engine.json").read_text())["speculative_config"]["enable_adaptive_verification"] is False


def _quiet(argv: list[str]) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli_main(argv)
