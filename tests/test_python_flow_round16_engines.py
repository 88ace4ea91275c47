"""What held-out round 16 (tests/data/python_flow/h16_*, engine side and config objects) made the
value flow follow: a record field's default written on a later line than its name (TRL's
`field(\\n default_factory=lambda: [...])`) is reported at the line that writes it; a request built
in the `__init__` of an object a function makes is read with that function's caller's arguments
(VLM-R1's `main(script_args)`); an object made by `BACKEND_MAP[args.backend](...)` of a dict of
classes in another module (ColossalChat); the modules of namespace packages two levels deep
(`coati/distributed/`, `art/vllm/` without `__init__.py`) are near the scripts beside their top;
`OmegaConf.load(args.custom_cfg)` of an argparse default's path, merged over
`OmegaConf.structured(BaseConfig)` (rStar); a request's absent key names the default that kept a
branch setting it from running. Each stop stays silent: a value from outside the tree
or the run, a caller that may pass anything, a class the registry does not hold, a path the tree
does not have."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check, run


def only_message(tmp_path: Path, files: dict[str, str]) -> str:
    """The message of the one finding the tree gets."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (finding,) = run(tmp_path)
    return finding["message"]


# A record field's default, reported at the line that writes it

SERVE = (
    "from dataclasses import dataclass, field\n"
    "from transformers import HfArgumentParser\n"
    "from vllm import LLM\n\n\n"
    "@dataclass\n"
    "class ScriptArguments:\n"
    "    model: str = 'Qwen/Qwen2.5-7B'\n"
    "{field}"
    "\n\n"
    "def main(script_args):\n"
    "    return LLM(model=script_args.model, logits_processors=script_args.logits_processors,\n"
    "               logprobs_mode='processed_logprobs', return_sampling_mask=True)\n\n\n"
    "if __name__ == '__main__':\n"
    "    (script_args,) = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()\n"
    "    main(script_args)\n"
)


@pytest.mark.parametrize(
    ("field", "line"),
    [
        (
            "    logits_processors: list[str] = field(\n"
            "        default_factory=lambda: ['think.procs:Budget'],\n"
            "        metadata={'help': 'Logits processors.'},\n"
            "    )\n",
            10,
        ),
        (
            "    logits_processors: list[str] = field(\n        metadata={'help': 'x'},\n        default=['think.procs:Budget'],\n    )\n",
            11,
        ),
        ("    logits_processors: list[str] = field(default_factory=lambda: ['think.procs:Budget'])\n", 9),
        ("    logits_processors: list = field(default=('think.procs:Budget',))\n", 9),
    ],
)
def test_a_field_default_is_reported_where_it_is_written(tmp_path: Path, field: str, line: int) -> None:
    assert check(tmp_path, {"vllm_serve.py": SERVE.format(field=field)}) == [("vllm_serve.py", line, "RPL001")]


def test_a_pydantic_field_default_on_its_own_line_is_reported_there(tmp_path: Path) -> None:
    source = SERVE.replace("from dataclasses import dataclass, field\n", "from pydantic import BaseModel, Field\n")
    source = source.replace("@dataclass\nclass ScriptArguments:", "class ScriptArguments(BaseModel):")
    source = source.replace(
        "(script_args,) = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()", "script_args = ScriptArguments()"
    )
    field = "    logits_processors: list[str] = Field(\n        ['think.procs:Budget'],\n        description='Logits processors.',\n    )\n"
    assert check(tmp_path, {"vllm_serve.py": source.format(field=field)}) == [("vllm_serve.py", 9, "RPL001")]  # `Field(` at 8


def test_the_message_names_the_option_where_it_is_declared(tmp_path: Path) -> None:
    """As argparse's: the option's line (the field's name), the finding at the default's."""
    field = "    logits_processors: list[str] = field(\n        default_factory=lambda: ['think.procs:Budget'],\n    )\n"
    message = only_message(tmp_path, {"vllm_serve.py": SERVE.format(field=field)})
    assert "logits_processors comes from --logits-processors, default ['think.procs:Budget'] (vllm_serve.py:9)" in message


@pytest.mark.parametrize(
    "field",
    [
        "    logits_processors: list[str] = field(\n        default_factory=list,\n    )\n",
        "    logits_processors: list[str] = field(\n        default_factory=lambda: [],\n    )\n",
        "    logits_processors: list[str] = field(\n        default_factory=load_processors,\n    )\n",  # made at run time
    ],
)
def test_an_empty_or_run_time_default_says_nothing(tmp_path: Path, field: str) -> None:
    source = SERVE.format(field=field).replace("from vllm import LLM\n", "from vllm import LLM\nfrom procs import load_processors\n")
    assert check(tmp_path, {"vllm_serve.py": source}) == []


# A request built in the `__init__` of an object a function makes, read with that function's caller

VLM_SCRIPT = (
    "from dataclasses import dataclass, field\n"
    "from transformers import HfArgumentParser\n"
    "from trainer.vllm_trainer import Trainer\n\n\n"
    "@dataclass\n"
    "class ScriptArguments:\n"
    "    model_name_or_path: str = field(default='Qwen/Qwen2.5-VL-3B-Instruct')\n"
    "    temperature: float = field(default={temperature})\n"
    "    top_k: int = 50\n\n\n"
    "def main(script_args):\n"
    "    trainer = Trainer(model=script_args.model_name_or_path, script_args=script_args)\n"
    "    trainer.rollout(['<image> find the dog'])\n\n\n"
    "if __name__ == '__main__':\n"
    "    {parse}\n"
    "    {call}\n"
)
VLM_TRAINER = (
    "from vllm import LLM, SamplingParams\n\n\n"
    "class Trainer:\n"
    "    def __init__(self, model, script_args, **vllm_kwargs):\n"
    "        vllm_kwargs.setdefault('gpu_memory_utilization', 0.6)\n"
    "        self.llm = LLM(model=model, return_sampling_mask=True, logprobs_mode='processed_logprobs', **vllm_kwargs)\n"
    "        self.sampling_params = SamplingParams(temperature=script_args.temperature, top_k=script_args.top_k)\n\n"
    "    def rollout(self, prompts):\n"
    "        return self.llm.generate(prompts, sampling_params=self.sampling_params)\n"
)
PARSED = "(script_args,) = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()"


def _vlm(temperature: str = "0.0", parse: str = PARSED, call: str = "main(script_args)") -> dict[str, str]:
    return {
        "grpo.py": VLM_SCRIPT.format(temperature=temperature, parse=parse, call=call),
        "trainer/vllm_trainer.py": VLM_TRAINER,
    }


@pytest.mark.parametrize(
    "parse",
    [
        PARSED,
        "script_args, = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()",
        "script_args = HfArgumentParser(ScriptArguments).parse_args_into_dataclasses()[0]",
        "script_args = ScriptArguments()",
    ],
)
def test_a_request_built_in_init_reads_the_callers_arguments_of_the_function_that_makes_it(tmp_path: Path, parse: str) -> None:
    assert check(tmp_path, _vlm(parse=parse)) == [("grpo.py", 9, "RPL101")]


def test_the_finding_says_whose_default_it_is(tmp_path: Path) -> None:
    assert "temperature comes from --temperature, default 0.0 (grpo.py:9)" in only_message(tmp_path, _vlm())


@pytest.mark.parametrize(
    "files",
    [
        _vlm(temperature="0.7"),
        _vlm(parse="script_args = load_args()", call="main(script_args)").copy(),  # a helper of no tree's module
        _vlm(call="main(script_args)\n    main(ScriptArguments(temperature=0.9))"),  # two callers: the function alone
    ],
)
def test_a_positive_temperature_or_arguments_not_known_say_nothing(tmp_path: Path, files: dict[str, str]) -> None:
    assert check(tmp_path, files) == []


# An object made by `BACKEND_MAP[name](...)` of a dict of classes in another module

BACKEND = (
    "from vllm import LLM, SamplingParams\n\n"
    "from .utils import update_by_default\n\n\n"
    "class VLLMInferenceBackend:\n"
    "    DEFAULT_MODEL_CONFIG = dict(return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    FORCE_GENERATE_CONFIG = dict(logprobs=0)\n\n"
    "    def __init__(self, model_config, generate_config, num_generations=8):\n"
    "        model_config = update_by_default(model_config, self.DEFAULT_MODEL_CONFIG)\n"
    "        path = model_config.pop('path')\n"
    "        self.llm = LLM(model=path, **model_config)\n"
    "        generate_config = generate_config.copy()\n"
    "        generate_config.update(self.FORCE_GENERATE_CONFIG)\n"
    "        self.generate_config = SamplingParams(**generate_config)\n\n"
    "    def generate(self, prompt_token_ids):\n"
    "        return self.llm.generate(prompt_token_ids=prompt_token_ids, sampling_params=self.generate_config)\n\n\n"
    "class OtherBackend:\n"
    "    def __init__(self, model_config, generate_config):\n"
    "        self.generate_config = generate_config\n\n"
    "    def generate(self, prompt_token_ids):\n"
    "        return prompt_token_ids\n\n\n"
    "{registry}\n"
)
UTILS = (
    "def update_by_default(data, default):\n"
    "    data = data.copy()\n"
    "    for k, v in default.items():\n"
    "        if k not in data:\n"
    "            data[k] = v\n"
    "    return data\n"
)
EXAMPLE = (
    "import argparse\n\n"
    "from coati.distributed.inference_backend import BACKEND_MAP\n\n"
    "if __name__ == '__main__':\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('-b', '--backend', type=str, default='vllm')\n"
    "    parser.add_argument('-t', '--temperature', type=float, default=1.0)\n"
    "    args = parser.parse_args()\n"
    "    generate_config = {generate}\n"
    "    backend = {made}(dict(path='Qwen/Qwen2.5-7B'), generate_config, num_generations=8)\n"
    "    backend.generate([[1, 2, 3]])\n"
)
REGISTRY = "BACKEND_MAP = {'vllm': VLLMInferenceBackend, 'other': OtherBackend}"


def _colossal(
    generate: str = "dict(temperature=args.temperature)", made: str = "BACKEND_MAP[args.backend]", registry: str = REGISTRY
) -> dict[str, str]:
    return {
        "coati/distributed/inference_backend.py": BACKEND.format(registry=registry),
        "coati/distributed/utils.py": UTILS,
        "rl_example.py": EXAMPLE.format(generate=generate, made=made),
    }


@pytest.mark.parametrize(
    ("made", "registry"),
    [
        ("BACKEND_MAP[args.backend]", REGISTRY),
        ("BACKEND_MAP['vllm']", REGISTRY),
        ("BACKEND_MAP[args.backend]", "BACKEND_MAP = dict(vllm=VLLMInferenceBackend)"),
    ],
)
def test_a_backend_made_through_a_dict_of_classes_in_another_module_gets_its_callers_request(
    tmp_path: Path, made: str, registry: str
) -> None:
    found = check(tmp_path, _colossal(made=made, registry=registry))
    assert found == [("inference_backend.py", 16, "RPL102")]


@pytest.mark.parametrize(
    "files",
    [
        _colossal(generate="dict(temperature=args.temperature, top_k=50)"),
        _colossal(generate="json.load(open(args.generation_config))").copy(),  # read at run time
        _colossal(registry="BACKEND_MAP = {'other': OtherBackend}\nVLLM_ONLY = {'vllm': VLLMInferenceBackend}"),
    ],
)
def test_a_request_with_top_k_unknown_or_another_class_says_nothing(tmp_path: Path, files: dict[str, str]) -> None:
    files["rl_example.py"] = "import json\n" + files["rl_example.py"]
    assert check(tmp_path, files) == []


# A namespace package two levels deep: its module is near the script beside the top folder

ART_ENGINE = (
    "from vllm.engine.arg_utils import AsyncEngineArgs\n"
    "from vllm.v1.engine.async_llm import AsyncLLM\n\n\n"
    "def get_llm(args):\n"
    "    return AsyncLLM.from_engine_args(engine_args=AsyncEngineArgs(**args))\n"
)
ART_DEV = (
    "from typing import TypedDict\n\n\n"
    "class EngineArgs(TypedDict, total=False):\n"
    "    model: str\n"
    "    return_sampling_mask: bool\n"
    "    logprobs_mode: str\n\n\n"
    "class InternalModelConfig(TypedDict, total=False):\n"
    "    engine_args: EngineArgs\n\n\n"
    "def get_model_config(base_model, config=None):\n"
    "    if config is None:\n"
    "        config = InternalModelConfig()\n"
    "    engine_args = EngineArgs(model=base_model, enable_sleep_mode=True)\n"
    "    engine_args.update(config.get('engine_args', {}))\n"
    "    return InternalModelConfig(engine_args=engine_args)\n"
)
ART_TRAIN = (
    "from art.dev.engine import EngineArgs, InternalModelConfig, get_model_config\n"
    "from art.vllm.engine import get_llm\n\n\n"
    "async def main():\n"
    "    config = get_model_config(\n"
    "        'Qwen/Qwen2.5-7B-Instruct',\n"
    "        InternalModelConfig(engine_args=EngineArgs(return_sampling_mask=True, logprobs_mode={mode})),\n"
    "    )\n"
    "    return await get_llm(config['engine_args'])\n"
)


@pytest.mark.parametrize("packages", [(), ("art/__init__.py",), ("art/__init__.py", "art/vllm/__init__.py", "art/dev/__init__.py")])
def test_an_engine_of_a_namespace_package_two_levels_deep_is_read_with_the_script_beside_its_top(
    tmp_path: Path, packages: tuple[str, ...]
) -> None:
    files = {"art/dev/engine.py": ART_DEV, "art/vllm/engine.py": ART_ENGINE, "train.py": ART_TRAIN.format(mode="'processed_logits'")}
    files |= dict.fromkeys(packages, "")
    assert check(tmp_path, files) == [("train.py", 8, "RPL003")]


@pytest.mark.parametrize("mode", ["'processed_logprobs'", "os.environ['MODE']"])
def test_a_namespace_package_engine_given_the_right_or_an_unknown_mode_says_nothing(tmp_path: Path, mode: str) -> None:
    train = "import os\n" + ART_TRAIN.format(mode=mode)
    assert check(tmp_path, {"art/dev/engine.py": ART_DEV, "art/vllm/engine.py": ART_ENGINE, "train.py": train}) == []


# `OmegaConf.load` of the path an argparse default gives, over `OmegaConf.structured(BaseConfig)`

RSTAR_CONFIG = (
    "from dataclasses import dataclass, field\n\n\n"
    "@dataclass\n"
    "class BaseConfig:\n"
    "    model_dir: str = 'm'\n"
    "    return_sampling_mask: bool = field(default=False)\n"
    "    logprobs_mode: str = field(default='raw_logprobs')\n"
    "    temperature: float = 0.7\n"
    "    top_k: int = field(default=40)\n"
)
RSTAR_ENGINE = (
    "from vllm import LLM, SamplingParams\n\n\n"
    "def llm_init(config):\n"
    "    llm = LLM(model=config.model_dir, return_sampling_mask=config.return_sampling_mask, logprobs_mode=config.logprobs_mode)\n"
    "    return llm, SamplingParams(temperature=config.temperature, top_k=config.top_k)\n"
)
RSTAR_MAIN = (
    "import argparse\n"
    "import os\n\n"
    "from omegaconf import OmegaConf\n\n"
    "from rstar.config import BaseConfig\n"
    "from rstar.llms.llm_engine import llm_init\n\n"
    "DEFAULT_CONFIG = 'config/sample_mcts.yaml'\n"
    "if __name__ == '__main__':\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--custom_cfg', type=str{default})\n"
    "    args = parser.parse_args()\n"
    "    config = OmegaConf.merge(OmegaConf.structured(BaseConfig), OmegaConf.load({path}))\n"
    "    llm, sampling_params = llm_init(config)\n"
    "    llm.generate(['Solve: 2x + 3 = 7'], sampling_params)\n"
)
MCTS = "model_dir: microsoft/rStar-Math-7B\nreturn_sampling_mask: true\nlogprobs_mode: processed_logprobs\ntop_k: {top_k}\n"


def _rstar(default: str = ", default='config/sample_mcts.yaml'", path: str = "args.custom_cfg", yaml: str = MCTS) -> dict[str, str]:
    return {
        "rstar/config.py": RSTAR_CONFIG,
        "rstar/llms/llm_engine.py": RSTAR_ENGINE,
        "main.py": RSTAR_MAIN.format(default=default, path=path),
        "config/sample_mcts.yaml": yaml.format(top_k=-1),
    }


@pytest.mark.parametrize(
    ("default", "path"),
    [
        (", default='config/sample_mcts.yaml'", "args.custom_cfg"),
        (", default=DEFAULT_CONFIG", "args.custom_cfg"),
        ("", "os.environ.get('RSTAR_CONFIG', 'config/sample_mcts.yaml')"),
        ("", "'config/sample_mcts.yaml'"),
    ],
)
def test_a_yaml_named_by_a_default_path_decides_over_the_structured_defaults(tmp_path: Path, default: str, path: str) -> None:
    assert check(tmp_path, _rstar(default, path)) == [("sample_mcts.yaml", 4, "RPL102")]


def test_the_finding_rests_on_the_default_path(tmp_path: Path) -> None:
    message = only_message(tmp_path, _rstar())
    assert "custom_cfg comes from --custom_cfg, default 'config/sample_mcts.yaml' (main.py:12)" in message


def test_a_key_the_yaml_does_not_set_keeps_the_structured_default(tmp_path: Path) -> None:
    yaml = "return_sampling_mask: true\ntop_k: 32\n"  # logprobs_mode: BaseConfig's 'raw_logprobs'
    assert check(tmp_path, _rstar(yaml=yaml)) == [("config.py", 8, "RPL003")]


@pytest.mark.parametrize(
    ("default", "path", "yaml"),
    [
        (", default='config/sample_mcts.yaml'", "args.custom_cfg", MCTS.replace("{top_k}", "32")),
        (", required=True", "args.custom_cfg", MCTS),  # the command line names it
        ("", "args.custom_cfg", MCTS),  # no default
        (", default='config/absent.yaml'", "args.custom_cfg", MCTS),  # not in the tree
        ("", "os.environ['RSTAR_CONFIG']", MCTS),
    ],
)
def test_a_path_the_run_gives_or_a_yaml_with_top_k_says_nothing(tmp_path: Path, default: str, path: str, yaml: str) -> None:
    assert check(tmp_path, _rstar(default, path, yaml)) == []


# Twins of another engine or a branch the defaults do not take


def test_a_trainer_of_another_engine_says_nothing(tmp_path: Path) -> None:
    files = _vlm()
    files["trainer/vllm_trainer.py"] = files["trainer/vllm_trainer.py"].replace(
        "from vllm import LLM, SamplingParams", "from sglang import Engine as LLM, SamplingParams"
    )
    assert check(tmp_path, files) == []


@pytest.mark.parametrize(("backend", "found"), [("vllm", []), ("other", [("inference_backend.py", 16, "RPL102")])])
def test_top_k_added_under_the_backend_test_counts_where_the_default_takes_the_branch(tmp_path: Path, backend: str, found: list) -> None:
    files = _colossal()
    added = f"    if args.backend == '{backend}':\n        generate_config.update(dict(top_k=50))\n    backend = "
    files["rl_example.py"] = files["rl_example.py"].replace("    backend = ", added)
    assert check(tmp_path, files) == found


def test_a_namespace_package_engine_of_another_library_says_nothing(tmp_path: Path) -> None:
    engine = "import sglang\n\n\ndef get_llm(args):\n    return sglang.Engine(**args)\n"
    files = {"art/dev/engine.py": ART_DEV, "art/vllm/engine.py": engine, "train.py": ART_TRAIN.format(mode="'processed_logits'")}
    assert check(tmp_path, files) == []


# A request whose keys a branch decided by a default completes: a finding on an absent key says so

BRANCHED = (
    "import argparse\n"
    "from vllm import LLM, SamplingParams\n\n"
    "parser = argparse.ArgumentParser()\n"
    "parser.add_argument('-b', '--backend', type=str, default='vllm')\n"
    "parser.add_argument('--fast', action='store_true')\n"
    "args = parser.parse_args()\n"
    "generate_config = dict(top_p=0.9)\n"
    "if {test}:\n"
    "    generate_config.update(dict(top_k=20))\n"
    "llm = LLM(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "llm.generate([[1, 2, 3]], SamplingParams({keywords}**generate_config))\n"
)


@pytest.mark.parametrize(
    ("test", "condition"),
    [
        ("args.backend == 'other'", "backend comes from --backend, default 'vllm' (run.py:5)"),
        ("args.backend != 'vllm'", "backend comes from --backend, default 'vllm' (run.py:5)"),
        ("args.fast", "fast comes from --fast, default False (run.py:6)"),
        ("not not args.fast", "fast comes from --fast, default False (run.py:6)"),
    ],
)
def test_an_absent_top_k_says_which_default_kept_the_branch_that_sets_it_from_running(tmp_path: Path, test: str, condition: str) -> None:
    message = only_message(tmp_path, {"run.py": BRANCHED.format(test=test, keywords="")})
    assert message.startswith(f"the request does not set top_k, which defaults to 0 (when {condition})")


def test_a_written_value_of_that_request_rests_on_no_default(tmp_path: Path) -> None:
    run_py = BRANCHED.replace("dict(top_k=20)", "dict(top_p=0.5)").format(test="args.fast", keywords="temperature=0, top_k=20, ")
    message = only_message(tmp_path, {"run.py": run_py})
    assert message.startswith("`temperature=0` in a request to a replay engine: vLLM")
