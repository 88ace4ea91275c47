"""What held-out round 20 (tests/data/python_flow/h20_*) made the value flow follow:
a wrapper's `completions(prompts, **kwargs)` building `SamplingParams(**kwargs)` read with the
call of an object bound to the wrapper's construction on every branch (prometheus-eval's
`if model_name.endswith("AWQ"): model = VLLM(...)` / `else: model = VLLM(...)`, then
`model.completions(inputs, **params)`), and its `**kwargs` left open where a module near calls
a method of that name with keywords on an object the reader cannot tell apart
(`batch_completions_with_retries(model, ...)` calling `model.completions(inputs, **params)`);
and a YAML file read by `open(args.config)` whose argparse default names it from the module's
own place (WildBench's `os.path.join(os.path.dirname(__file__), "..", "configs", "x.yaml")`) or
from the folder the program runs from; and a class a YAML names by its dotted path, made by an
importlib factory with the YAML's parameters (AgentBench's `InstanceFactory(**yaml.safe_load(f)).create()`:
`getattr(importlib.import_module(path), name)(**self.parameters)`, an `HTTPAgent` posting to a replay
server's chat route). Each stays silent where the value is not the program's, and a method whose callers pass
nothing more is still judged as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# prometheus-eval: the wrapper whose `**kwargs` become the request

WRAPPER = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "class VLLM:\n"
    "    def __init__(self, name, **vllm_kwargs):\n"
    "        self.model = LLM(model=name, **vllm_kwargs)\n"
    "\n"
    "    def completions(self, prompts, use_tqdm=True, **kwargs):\n"
    "        params = SamplingParams(**kwargs)\n"  # line 9
    "        return self.model.generate(prompts, params, use_tqdm=use_tqdm)\n"
)
MASK = "return_sampling_mask=True, logprobs_mode='processed_logprobs'"
BRANCHED = (
    "import sys\n"
    "\n"
    "from pe.vllm import VLLM\n"
    "\n"
    "params = {{\n"
    "    'repetition_penalty': 1.03,\n"  # line 6
    "    'temperature': 1.0,\n"
    "    {top_k}\n"
    "}}\n"
    "{binding}"
    "model.completions(['hi'], **params)\n"
)
BINDINGS = [
    # prometheus-eval's: the same class on both branches
    "if sys.argv[1].endswith('AWQ'):\n"
    f"    model = VLLM(sys.argv[1], quantization='AWQ', {MASK})\n"
    "else:\n"
    f"    model = VLLM(sys.argv[1], {MASK})\n",
    # a `try` that falls back to another construction
    f"try:\n    model = VLLM(sys.argv[1], tensor_parallel_size=2, {MASK})\nexcept RuntimeError:\n    model = VLLM(sys.argv[1], {MASK})\n",
    # three branches
    "if sys.argv[1] == 'a':\n"
    f"    model = VLLM('a', {MASK})\n"
    "elif sys.argv[1] == 'b':\n"
    f"    model = VLLM('b', {MASK})\n"
    "else:\n"
    f"    model = VLLM('c', {MASK})\n",
]


def _branched(binding: str, top_k: str = "'top_k': 40,", wrapper: str = WRAPPER) -> dict[str, str]:
    return {"pe/__init__.py": "", "pe/vllm.py": wrapper, "run.py": BRANCHED.format(binding=binding, top_k=top_k)}


@pytest.mark.parametrize("binding", BINDINGS)
def test_the_call_on_an_object_made_on_every_branch_gives_the_wrapper_its_keywords(tmp_path: Path, binding: str) -> None:
    assert check(tmp_path, _branched(binding)) == [("run.py", 6, "RPL302")]


def test_the_callers_keywords_without_top_k_are_reported(tmp_path: Path) -> None:
    found = check(tmp_path, _branched(BINDINGS[0], top_k=""))
    assert ("run.py", 6, "RPL302") in found and any(code == "RPL102" for _, _, code in found)


def test_an_engine_without_the_mask_on_every_branch_is_silent(tmp_path: Path) -> None:
    binding = BINDINGS[0].replace(MASK, "logprobs_mode='processed_logprobs'")
    assert check(tmp_path, _branched(binding)) == []


def test_a_branch_binding_another_object_leaves_the_request_open(tmp_path: Path) -> None:
    """One branch makes a client of another library: what the call passes is not known to reach the wrapper."""
    binding = (
        "if sys.argv[1] == 'remote':\n"
        "    from remote import Client\n"
        "    model = Client(sys.argv[1])\n"
        "else:\n"
        f"    model = VLLM(sys.argv[1], {MASK})\n"
    )
    assert check(tmp_path, _branched(binding, top_k="")) == []


# prometheus-eval: the wrapper handed to a helper that calls it on a parameter

HELPER = "def batch_completions_with_retries(model, inputs, mode, params):\n    return {call}\n"
HELPER_CALLS = [
    "model.completions(inputs, use_tqdm=True, **params)",  # prometheus-eval's
    "model.completions(inputs, **params)",
    "model.completions(inputs, temperature=params['temperature'], top_k=params['top_k'])",
]
JUDGE_SCRIPT = (
    "from pe.utils import batch_completions_with_retries\n"
    "from pe.vllm import VLLM\n"
    "\n"
    f"model = VLLM('prometheus-eval/prometheus-7b-v2.0', {MASK})\n"
    "params = {'temperature': 1.0, 'top_p': 0.9, 'top_k': 40, 'max_tokens': 1024}\n"
    "batch_completions_with_retries(model, ['hi'], 'absolute', params)\n"
)


def _handed(call: str) -> dict[str, str]:
    return {"pe/__init__.py": "", "pe/vllm.py": WRAPPER, "pe/utils.py": HELPER.format(call=call), "run_judge.py": JUDGE_SCRIPT}


@pytest.mark.parametrize("call", HELPER_CALLS)
def test_keywords_passed_on_an_object_the_reader_cannot_type_keep_the_request_open(tmp_path: Path, call: str) -> None:
    assert check(tmp_path, _handed(call)) == []


@pytest.mark.parametrize("call", ["model.completions(inputs)", "model.completions(inputs, use_tqdm=False)"])
def test_a_call_that_passes_nothing_more_leaves_the_keywords_judged_as_written(tmp_path: Path, call: str) -> None:
    assert check(tmp_path, _handed(call)) == [("vllm.py", 9, "RPL102")]


def test_keywords_passed_on_an_object_of_another_class_leave_the_keywords_judged_as_written(tmp_path: Path) -> None:
    files = _handed("model.completions(inputs)")
    files["pe/other.py"] = (
        "class Remote:\n"
        "    def completions(self, prompts, **kwargs):\n"
        "        return prompts\n"
        "\n"
        "\n"
        "client = Remote()\n"
        "client.completions(['hi'], top_k=40)\n"
    )
    assert check(tmp_path, files) == [("vllm.py", 9, "RPL102")]


# WildBench: the speculative config read from the file an argparse default names

SPEC_YAML = "speculative_config:\n  method: ngram\n  num_speculative_tokens: 4\n  prompt_lookup_max: 4\n{adaptive}"
INFER = (
    "import argparse\n"
    "import json\n"
    "import os\n"
    "from pathlib import Path\n"
    "\n"
    "import yaml\n"
    "from vllm import LLM\n"
    "\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('--speculative_config_file', type=str, default={default})\n"
    "args = parser.parse_args()\n"
    "{load}\n"
    f"llm = LLM(model='m', {MASK}, speculative_config=speculative_config)\n"
)
WITH_OPEN = "with open(args.speculative_config_file) as f:\n    speculative_config = yaml.safe_load(f)['speculative_config']"
LOADS = [
    (WITH_OPEN, 'os.path.join(os.path.dirname(__file__), "..", "configs", "speculative.yaml")', "configs/speculative.yaml"),
    (
        "speculative_config = yaml.safe_load(Path(args.speculative_config_file).read_text())['speculative_config']",
        'Path(__file__).parent / "speculative.yaml"',
        "src/speculative.yaml",
    ),
    (
        "speculative_config = json.load(open(args.speculative_config_file))['speculative_config']",
        'os.path.join(os.path.dirname(os.path.abspath(__file__)), "spec.json")',
        "src/spec.json",
    ),
]


def _infer(load: str, default: str, path: str, adaptive: str = "  enable_adaptive_verification: true\n") -> dict[str, str]:
    text = SPEC_YAML.format(adaptive=adaptive)
    if path.endswith(".json"):
        text = '{"speculative_config": {"method": "ngram", "num_speculative_tokens": 4,\n' + (
            '"enable_adaptive_verification": true}}\n' if adaptive else '"prompt_lookup_max": 4}}\n'
        )
    return {"src/unified_infer.py": INFER.format(default=default, load=load), path: text}


@pytest.mark.parametrize(("load", "default", "path"), LOADS)
def test_the_file_an_argparse_default_names_from_the_modules_place_is_read(tmp_path: Path, load: str, default: str, path: str) -> None:
    line = 2 if path.endswith(".json") else 5
    assert check(tmp_path, _infer(load, default, path)) == [(Path(path).name, line, "RPL002")]


@pytest.mark.parametrize(("load", "default", "path"), LOADS)
def test_the_file_without_adaptive_verification_is_clean(tmp_path: Path, load: str, default: str, path: str) -> None:
    assert check(tmp_path, _infer(load, default, path, adaptive="")) == []


@pytest.mark.parametrize("default", ["None", "os.environ['SPEC_CONFIG']", "os.path.join(os.path.dirname(__file__), 'absent.yaml')"])
def test_a_path_the_program_does_not_name_leaves_the_config_open(tmp_path: Path, default: str) -> None:
    assert check(tmp_path, _infer(WITH_OPEN, default, "configs/speculative.yaml")) == []


def test_an_engine_without_the_mask_is_silent(tmp_path: Path) -> None:
    files = _infer(WITH_OPEN, LOADS[0][1], "configs/speculative.yaml")
    files["src/unified_infer.py"] = files["src/unified_infer.py"].replace("return_sampling_mask=True, ", "")
    assert check(tmp_path, files) == []


# AgentBench: the agent a YAML names by its dotted path, made by an importlib factory

AGENT = (
    "import requests\n"
    "\n"
    "\n"
    "class HTTPAgent:\n"
    "    def __init__(self, url, body=None, headers=None, **kwargs):\n"
    "        self.url = url\n"
    "        self.body = body or {}\n"
    "        self.headers = headers or {}\n"
    "\n"
    "    def inference(self, history):\n"
    "        body = self.body.copy()\n"
    "        body.update({'messages': history})\n"
    "        resp = requests.post(self.url, json=body, headers=self.headers, timeout=120)\n"  # line 13
    "        return resp.json()\n"
)
AGENT_YAML = (
    "module: {module}\n"
    "parameters:\n"
    "  url: http://localhost:8000/v1/chat/completions\n"
    "  body:\n"
    "    model: THUDM/glm-4-9b-chat\n"
    "    temperature: 0.7\n"
    "    top_k: 20\n"
)
SERVE = "#!/bin/bash\nvllm serve THUDM/glm-4-9b-chat {mask}--logprobs-mode processed_logprobs --enable-scale-out\n"
FACTORIES = [
    # AgentBench's: a pydantic record whose method imports the class its dotted text names
    (
        "import importlib\n"
        "from typing import Any, Dict\n"
        "\n"
        "from pydantic import BaseModel\n"
        "\n"
        "\n"
        "class InstanceFactory(BaseModel):\n"
        "    module: str\n"
        "    parameters: Dict[str, Any] = {}\n"
        "\n"
        "    def create(self):\n"
        "        path, name = self.module.rsplit('.', 1)\n"
        "        cls = getattr(importlib.import_module(path), name)\n"
        "        return cls(**self.parameters)\n",
        "agent = InstanceFactory(**yaml.safe_load(f)).create()",
    ),
    # a function of the config, `import_module` imported by name
    (
        "from importlib import import_module\n"
        "\n"
        "\n"
        "def create(config):\n"
        "    module_name, class_name = config['module'].rsplit('.', 1)\n"
        "    agent_class = getattr(import_module(module_name), class_name)\n"
        "    return agent_class(**config['parameters'])\n",
        "agent = create(yaml.safe_load(f))",
    ),
]
RUNNER = (
    "import argparse\n"
    "\n"
    "import yaml\n"
    "\n"
    "from src.typings.config import {names}\n"
    "\n"
    "\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--config', type=str, default={default})\n"
    "    args = parser.parse_args()\n"
    "    with open(args.config) as f:\n"
    "        {made}\n"
    "    print(agent.inference([{{'role': 'user', 'content': 'hi'}}]))\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)


def _agentbench(
    factory: str, made: str, module: str = "src.client.agents.HTTPAgent", default: str = "'configs/agents/glm.yaml'", mask: str = "True"
) -> dict[str, str]:
    names = "InstanceFactory" if "InstanceFactory" in made else "create"
    return {
        "src/__init__.py": "",
        "src/client/__init__.py": "",
        "src/client/agents/__init__.py": "from .http_agent import HTTPAgent\n",
        "src/client/agents/http_agent.py": AGENT,
        "src/typings/__init__.py": "",
        "src/typings/config.py": factory,
        "src/agent_test.py": RUNNER.format(names=names, default=default, made=made),
        "configs/agents/glm.yaml": AGENT_YAML.format(module=module),
        "scripts/serve.sh": SERVE.format(mask="--return-sampling-mask " if mask == "True" else ""),
    }


@pytest.mark.parametrize(("factory", "made"), FACTORIES)
def test_the_class_a_yaml_names_by_its_dotted_path_is_made_with_its_parameters(tmp_path: Path, factory: str, made: str) -> None:
    assert check(tmp_path, _agentbench(factory, made)) == [("http_agent.py", 13, "RPL301")]


@pytest.mark.parametrize(("factory", "made"), FACTORIES)
def test_a_dotted_path_naming_another_class_makes_no_client(tmp_path: Path, factory: str, made: str) -> None:
    assert check(tmp_path, _agentbench(factory, made, module="src.client.agents.OtherAgent")) == []


@pytest.mark.parametrize(("factory", "made"), FACTORIES)
def test_a_config_path_the_command_line_must_give_leaves_the_client_open(tmp_path: Path, factory: str, made: str) -> None:
    assert check(tmp_path, _agentbench(factory, made, default="None")) == []


def test_a_server_without_the_mask_has_no_client_to_report(tmp_path: Path) -> None:
    assert check(tmp_path, _agentbench(*FACTORIES[0], mask="False")) == []


def test_a_relative_argparse_default_names_the_config_from_the_import_root(tmp_path: Path) -> None:
    """The agent made from the file directly: the path is read where `python -m src.agent_test` runs."""
    files = _agentbench(*FACTORIES[0])
    files["src/agent_test.py"] = (
        files["src/agent_test.py"]
        .replace("from src.typings.config import InstanceFactory", "from src.client.agents import HTTPAgent")
        .replace("agent = InstanceFactory(**yaml.safe_load(f)).create()", "agent = HTTPAgent(**yaml.safe_load(f)['parameters'])")
    )
    assert check(tmp_path, files) == [("http_agent.py", 13, "RPL301")]
