"""What held-out round 49's MLPerf DeepSeek-R1 cases (tests/data/python_flow/h49_mlperf_deepseek_r1_registry_*)
taught: params `__init__` only holds a place for (`self.sampling_params = None`) that the engine's method sets
first (`placeholder_params`); a backend class made by a factory through `mod = importlib.import_module(path)`,
`cls = getattr(mod, name)` (two statements) from a registry's dotted text; a registry's config stored into
by `self.config.update(config)` decides the object's construction; and the environment a registry's
`env_vars` writes in a loop of a helper `__init__` reaches (`apply_backend_env_vars("vllm")`), read with
the helper's arguments, the `__init__` run where another module makes the object."""

from __future__ import annotations

from pathlib import Path

from tests.test_python_flow_round10 import check

BACKEND = """import os

from vllm import LLM, SamplingParams


class Backend:
    def __init__(self):
        self.llm = None
        self.sampling_params = None

    def initialize(self):
        {params}
        self.llm = LLM(model="m", return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def generate(self, prompts):
        return self.llm.generate(prompts, self.sampling_params)


def main():
    backend = Backend()
    backend.initialize()
    backend.generate(["hi"])
"""
GREEDY = "self.sampling_params = SamplingParams(temperature=0.0, top_k=20)"


def backend(params: str = GREEDY) -> dict[str, str]:
    return {"backend.py": BACKEND.format(params=params)}


def test_params_set_before_the_engine_over_a_none_placeholder_are_the_requests(tmp_path: Path) -> None:
    assert check(tmp_path, backend()) == [("backend.py", 12, "RPL101")]


def test_sampled_params_over_a_placeholder_are_clean(tmp_path: Path) -> None:
    assert check(tmp_path, backend("self.sampling_params = SamplingParams(temperature=0.6, top_k=20)")) == []


def test_params_set_under_a_branch_or_after_the_engine_stay_open(tmp_path: Path) -> None:
    guarded = "if os.environ.get('GREEDY'):\n            " + GREEDY
    assert check(tmp_path, backend(guarded)) == []
    files = backend("pass")
    files["backend.py"] = files["backend.py"].replace('"processed_logprobs")\n', '"processed_logprobs")\n        ' + GREEDY + "\n")
    assert check(tmp_path, files) == []  # the engine may exist while the params are still None


def test_params_another_method_also_sets_stay_open(tmp_path: Path) -> None:
    files = backend()
    files["backend.py"] = files["backend.py"].replace(
        "    def generate(self, prompts):",
        "    def sampled(self):\n        self.sampling_params = SamplingParams(temperature=0.7, top_k=20)\n\n"
        "    def generate(self, prompts):",
    )
    assert check(tmp_path, files) == []


REGISTRY = """import importlib
import os

REGISTRY = {{
    "vllm": {{
        "class_path": "backends.vllm_backend.VLLMBackend",
        "config": {{"model": "m", "temperature": {temperature}}},
        "env_vars": {{"OMP_NUM_THREADS": "8"{runner}}},
    }},
    "other": {{"class_path": "backends.other.Other", "config": {{}}, "env_vars": {{}}}},
}}


def get_config(name):
    return REGISTRY[name]["config"].copy()


def get_env_vars(name):
    env_vars = REGISTRY[name]["env_vars"].copy()
    env_vars["OMP_NUM_THREADS"] = "1"
    return env_vars


def apply_env_vars(name):
    for key, value in get_env_vars(name).items():
        os.environ[key] = value


def get_instance(name):
    class_path = REGISTRY[name]["class_path"]
    module_path, class_name = class_path.rsplit(".", 1)
    module = importlib.import_module(module_path)
    backend_class = getattr(module, class_name)
    return backend_class()
"""
VLLM_BACKEND = """from vllm import LLM, SamplingParams

from utils.registry import apply_env_vars, get_config


class VLLMBackend:
    def __init__(self, config=None):
        self.config = get_config("vllm")
        if config:
            self.config.update(config)
        self.llm = None
        self.sampling_params = None
        self._setup_environment()

    def _setup_environment(self):
        apply_env_vars("vllm")

    def initialize(self):
        self.sampling_params = SamplingParams(temperature=self.config["temperature"], top_k=20)
        self.llm = LLM(model=self.config["model"], return_sampling_mask=True, logprobs_mode="processed_logprobs")

    def generate(self, prompts):
        return self.llm.generate(prompts, self.sampling_params)
"""
RUN = """from utils.registry import get_instance

backend = get_instance({name!r})
backend.initialize()
backend.generate(["hi"])
"""


def mlperf(temperature: str = "0.6", runner: str | None = None, name: str = "vllm") -> dict[str, str]:
    written = f', "VLLM_USE_V2_MODEL_RUNNER": "{runner}"' if runner is not None else ""
    return {
        "utils/__init__.py": "",
        "utils/registry.py": REGISTRY.format(temperature=temperature, runner=written),
        "backends/__init__.py": "",
        "backends/vllm_backend.py": VLLM_BACKEND,
        "run.py": RUN.format(name=name),
    }


def test_the_registrys_sampled_backend_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, mlperf()) == []


def test_a_greedy_registry_config_is_reported_in_the_registry(tmp_path: Path) -> None:
    assert check(tmp_path, mlperf(temperature="0.0")) == [("registry.py", 7, "RPL101")]


def test_the_runner_variable_a_registry_writes_in_a_loop_is_reported(tmp_path: Path) -> None:
    assert check(tmp_path, mlperf(runner="0")) == [("registry.py", 8, "RPL206")]


def test_a_construction_passing_a_config_leaves_the_registrys_values_open(tmp_path: Path) -> None:
    files = mlperf(temperature="0.0")
    files["backends/vllm_backend.py"] += '\n\nBACKEND = VLLMBackend({"temperature": load_temperature()})\n'
    files["run.py"] = "from backends.vllm_backend import BACKEND\nBACKEND.initialize()\nBACKEND.generate(['hi'])\n"
    assert check(tmp_path, files) == []


def test_a_caller_naming_another_backend_makes_no_vllm_backend(tmp_path: Path) -> None:
    # the factory's dotted text names `backends.other.Other`: its construction is not the vLLM backend's
    assert check(tmp_path, mlperf(temperature="0.0", runner="0", name="other")) == []
