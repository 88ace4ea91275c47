"""What held-out round 10 (tests/data/python_flow/h10_*) made the value flow follow, and where
each construct stops: the runner variable written back from its own `.get(VAR, default)`.
Each stop keeps the launch open (no finding rests on an absent or unknown setting)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main


def run(tree: Path) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    return json.loads(out.getvalue())


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in run(tmp_path))


ENGINE = "from vllm import LLM\nLLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"

# the runner variable written back from its own value, with a default for when it is unset


@pytest.mark.parametrize(
    "write",
    [
        "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = os.environ.get('VLLM_USE_V2_MODEL_RUNNER', '0')\n",
        "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = os.getenv('VLLM_USE_V2_MODEL_RUNNER', '0')\n",
    ],
)
def test_the_variable_kept_or_given_a_default_is_the_default_when_unset(tmp_path: Path, write: str) -> None:
    assert check(tmp_path, {"run.py": "import os\n" + write + ENGINE}) == [("run.py", 2, "RPL206")]


@pytest.mark.parametrize(
    "write",
    [
        "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = os.environ.get('VLLM_USE_V2_MODEL_RUNNER')\n",  # no default: run time
        "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = os.environ.get('OTHER', '0')\n",  # another variable: run time
        "import sys\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = sys.argv[1]\n"
        "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = os.environ.get('VLLM_USE_V2_MODEL_RUNNER', '0')\n",  # set already
    ],
)
def test_a_default_that_does_not_apply_or_another_variable_stays_silent(tmp_path: Path, write: str) -> None:
    assert check(tmp_path, {"run.py": "import os\n" + write + ENGINE}) == []


# the runner variable popped from the engine's own dict, which the caller passed

STRATEGY = (
    "import copy\nimport os\nfrom vllm import AsyncEngineArgs\n\n"
    "CONFIG = {'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'POPPED}\n\n\n"
    "class Strategy:\n"
    "    def __init__(self, config):\n"
    "        self.config = config\n\n"
    "    def initialize(self):\n"
    "        config = copy.deepcopy(self.config)\n"
    "        os.environ['VLLM_USE_V2_MODEL_RUNNER'] = str(config.pop('VLLM_USE_V2_MODEL_RUNNER', 0))\n"
    "        return AsyncEngineArgs(model='m', **config)\n\n\n"
    "Strategy(CONFIG).initialize()\n"
)


def test_the_pop_default_of_the_dict_the_caller_passed_is_written(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": STRATEGY.replace("POPPED", "")}) == [("run.py", 14, "RPL206")]


def test_a_pop_of_a_key_the_dict_has_is_its_value(tmp_path: Path) -> None:
    check(tmp_path, {"run.py": STRATEGY.replace("POPPED", ", 'VLLM_USE_V2_MODEL_RUNNER': '1'")})
    assert [f["message"].split(":")[0] for f in run(tmp_path)] == [
        "`os.environ['VLLM_USE_V2_MODEL_RUNNER'] = str(config.pop('VLLM_USE_V2_MODEL_RUNNER', 0))` has no effect any more"
    ]


def test_a_pop_of_a_dict_read_at_run_time_writes_nothing_known(tmp_path: Path) -> None:
    popped = ", **json.load(open('engine.json'))"
    assert check(tmp_path, {"run.py": "import json\n" + STRATEGY.replace("POPPED", popped)}) == []


# `OmegaConf.structured(...)` of a record class: its defaults, as a construction would make them

STRUCTURED = (
    "from dataclasses import dataclass\nfrom omegaconf import OmegaConf\nfrom vllm import LLM\n\n\n"
    "@dataclass\nclass EngineConfig:\n"
    "    model: str = 'm'\n"
    "    return_sampling_mask: bool = True\n"
    "    logprobs_mode: str = MODE\n\n\n"
    "cfg = STRUCTURED\n"
    "LLM(**OmegaConf.to_container(cfg, resolve=True))\n"
)


@pytest.mark.parametrize(
    "structured",
    ["OmegaConf.structured(EngineConfig)", "OmegaConf.structured(EngineConfig(model='n'))", "OmegaConf.structured(EngineConfig())"],
)
def test_a_structured_config_of_a_record_class_has_its_defaults(tmp_path: Path, structured: str) -> None:
    text = STRUCTURED.replace("MODE", "'raw_logprobs'").replace("STRUCTURED", structured)
    assert check(tmp_path, {"run.py": text}) == [("run.py", 10, "RPL003")]


@pytest.mark.parametrize(
    ("mode", "structured"),
    [
        ("'processed_logprobs'", "OmegaConf.structured(EngineConfig)"),
        ("'raw_logprobs'", "OmegaConf.merge(OmegaConf.structured(EngineConfig), OmegaConf.from_cli())"),  # the command line may set it
    ],
)
def test_a_structured_config_set_right_or_merged_with_the_command_line_is_silent(tmp_path: Path, mode: str, structured: str) -> None:
    text = STRUCTURED.replace("MODE", mode).replace("STRUCTURED", structured)
    assert check(tmp_path, {"run.py": text}) == []


# Hydra's compose API: the YAML under `initialize(config_path=...)` with the overrides written

ROLLOUT_YAML = "vllm:\n  model: m\n  return_sampling_mask: true\n  logprobs_mode: processed_logprobs\n"
COMPOSE = (
    "from hydra import compose, initialize\nfrom vllm import LLM\n\n\n"
    "def main():\n"
    "    with initialize(version_base=None, config_path='conf'):\n"
    "        cfg = compose(config_name='rollout', overrides=[OVERRIDES])\n"
    "    LLM(**cfg.vllm)\n\n\nmain()\n"
)


@pytest.mark.parametrize(
    ("overrides", "where"),
    [
        ("'vllm.logprobs_mode=raw_logprobs'", ("run.py", 7, "RPL003")),
        ("'++vllm.logprobs_mode=raw_logits'", ("run.py", 7, "RPL003")),
        ("'+vllm.logits_processors=[a.b:C]'", ("run.py", 7, "RPL001")),
    ],
)
def test_an_override_in_the_list_replaces_the_yaml_key(tmp_path: Path, overrides: str, where: tuple) -> None:
    files = {"run.py": COMPOSE.replace("OVERRIDES", overrides), "conf/rollout.yaml": ROLLOUT_YAML}
    assert check(tmp_path, files) == [where]


def test_without_overrides_the_yaml_decides(tmp_path: Path) -> None:
    files = {"run.py": COMPOSE.replace("OVERRIDES", ""), "conf/rollout.yaml": ROLLOUT_YAML.replace("processed", "raw")}
    assert check(tmp_path, files) == [("rollout.yaml", 4, "RPL003")]


@pytest.mark.parametrize(
    "overrides",
    [
        "'vllm.max_model_len=4096'",
        "'vllm.mode=raw_logprobs'",  # a key the config does not have, without `+`: Hydra refuses, nothing judged
        "'~vllm.logprobs_mode'",  # deleted: not followed
        "*sys.argv[1:]",  # the command line's
    ],
)
def test_other_overrides_or_ones_not_read_stay_silent(tmp_path: Path, overrides: str) -> None:
    text = "import sys\n" + COMPOSE.replace("OVERRIDES", overrides)
    assert check(tmp_path, {"run.py": text, "conf/rollout.yaml": ROLLOUT_YAML}) == []


def test_a_compose_outside_initialize_reads_nothing(tmp_path: Path) -> None:
    text = COMPOSE.replace("OVERRIDES", "'vllm.logprobs_mode=raw_logprobs'").replace(
        "initialize(version_base=None, config_path='conf')", "open('x')"
    )
    assert check(tmp_path, {"run.py": text, "conf/rollout.yaml": ROLLOUT_YAML}) == []


# a function of a settings module that merges its replay dict into what it returns, used by a
# module that does not name the mask

KWARGS_MODULE = (
    "REPLAY = {'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n\n\n"
    "def build(model, extra=False):\n"
    "    kw = {'model': model}\n"
    "    kw |= REPLAY\n"
    "    if extra:\n"
    "        kw |= {'logits_processors': ['proc:Penalty']}\n"
    "    return kw\n"
)
SERVER = "from vllm import AsyncEngineArgs\n\nfrom engine_kwargs import build\n\nAsyncEngineArgs(**build('m'CALLED))\n"


def test_a_function_that_merges_the_replay_dict_carries_it_to_the_engine_module(tmp_path: Path) -> None:
    files = {"engine_kwargs.py": KWARGS_MODULE, "server.py": SERVER.replace("CALLED", ", extra=True")}
    assert check(tmp_path, files) == [("engine_kwargs.py", 8, "RPL001")]


@pytest.mark.parametrize("called", ["", ", extra=False"])
def test_the_merged_dict_without_the_flag_is_clean(tmp_path: Path, called: str) -> None:
    assert check(tmp_path, {"engine_kwargs.py": KWARGS_MODULE, "server.py": SERVER.replace("CALLED", called)}) == []


# a parser handed to a function of the tree that adds its options (to an argument group)

PARSER = (
    "import argparse\nfrom vllm import LLM, SamplingParams\n\n\n"
    "def add_rollout_args(parser):\n"
    "    group = parser.add_argument_group('rollout')\n"
    "    group.add_argument('--top_k', type=int, default=TOP_K)\n"
    "    return parser\n\n\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    HANDED\n"
    "    args = parser.parse_args()\n"
    "    llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    llm.generate(['x'], SamplingParams(temperature=1.0, top_k=args.top_k))\n\n\n"
    "main()\n"
)
NESTED = "def add_all(parser):\n    add_rollout_args(parser)\n\n\n"


@pytest.mark.parametrize(
    ("handed", "before"), [("add_rollout_args(parser)", ""), ("add_all(parser)", NESTED), ("parser = add_rollout_args(parser)", "")]
)
def test_the_options_a_helper_adds_have_their_defaults(tmp_path: Path, handed: str, before: str) -> None:
    text = before + PARSER.replace("TOP_K", "-1").replace("HANDED", handed)
    assert check(tmp_path, {"run.py": text}) == [("run.py", 7 + before.count("\n"), "RPL102")]


@pytest.mark.parametrize(
    ("top_k", "handed"),
    [
        ("50", "add_rollout_args(parser)"),
        ("-1", "Options.add(parser)"),  # a method of a class: not read, the options stay unknown
        ("-1", "add_rollout_args(argparse.ArgumentParser())"),  # another parser
    ],
)
def test_a_helper_with_a_good_default_or_not_read_is_silent(tmp_path: Path, top_k: str, handed: str) -> None:
    text = "class Options:\n    @staticmethod\n    def add(parser):\n        parser.add_argument('--top_k', type=int, default=-1)\n\n\n"
    assert check(tmp_path, {"run.py": text + PARSER.replace("TOP_K", top_k).replace("HANDED", handed)}) == []


# a request without params gets vLLM's own `SamplingParams()` when the engine says so

GENERATE = (
    "from vllm import LLM\n\nllm = LLM(model='m', GENERATION return_sampling_mask=True, logprobs_mode='processed_logprobs')\nllm.REQUEST\n"
)


@pytest.mark.parametrize("request_", ["generate(['x'])", "chat([{'role': 'user', 'content': 'x'}])", "generate(prompts=['x'])"])
def test_a_request_without_params_on_an_engine_with_vllm_generation_config_has_top_k_0(tmp_path: Path, request_: str) -> None:
    text = GENERATE.replace("GENERATION", "generation_config='vllm',").replace("REQUEST", request_)
    assert check(tmp_path, {"run.py": text}) == [("run.py", 4, "RPL102")]


@pytest.mark.parametrize(
    ("generation", "request_"),
    [
        ("", "generate(['x'])"),  # "auto": the model's generation_config.json, not in the tree
        ("generation_config='auto',", "generate(['x'])"),
        ("generation_config=CHOSEN,", "generate(['x'])"),  # not known
        ("generation_config='vllm',", "generate(['x'], SamplingParams(temperature=1.0, top_k=20))"),
    ],
)
def test_a_request_with_params_or_on_another_engine_is_not_vllm_s_default(tmp_path: Path, generation: str, request_: str) -> None:
    text = "import os\nfrom vllm import SamplingParams\nCHOSEN = os.environ['G']\n" + GENERATE
    assert check(tmp_path, {"run.py": text.replace("GENERATION", generation).replace("REQUEST", request_)}) == []


# a class whose method builds the engine from what `__init__` stored, made in another module;
# a file that writes the runner variable where an engine starts is read without naming the mask

STRATEGY_MODULE = (
    "import os\nfrom vllm import AsyncEngineArgs\n\n\n"
    "class Strategy:\n"
    "    def __init__(self, config):\n"
    "        self.config = config\n\n"
    "    def initialize(self):\n"
    "        config = dict(self.config)\n"
    "        os.environ['VLLM_USE_V2_MODEL_RUNNER'] = str(config.pop('VLLM_USE_V2_MODEL_RUNNER', DEFAULT))\n"
    "        return AsyncEngineArgs(model='m', **config)\n"
)
PIPELINE = "from strategy import Strategy\nfrom settings import CONFIG\n\nStrategy(CONFIG).initialize()\n"


def test_the_construction_in_another_module_gives_the_stored_dict(tmp_path: Path) -> None:
    files = {
        "strategy.py": STRATEGY_MODULE.replace("DEFAULT", "0"),
        "settings.py": "CONFIG = {'return_sampling_mask': True}\n",
        "pipeline.py": PIPELINE,
    }
    assert check(tmp_path, files) == [("settings.py", 1, "RPL003"), ("strategy.py", 11, "RPL206")]


@pytest.mark.parametrize(
    ("settings", "pipeline"),
    [
        ("import json\nCONFIG = json.load(open('c.json'))\n", PIPELINE),  # read at run time: it may hold the key
        ("CONFIG = {'return_sampling_mask': True}\n", "from settings import CONFIG\n"),  # the class is never made
    ],
)
def test_a_stored_dict_read_at_run_time_or_no_construction_is_silent(tmp_path: Path, settings: str, pipeline: str) -> None:
    files = {"strategy.py": STRATEGY_MODULE.replace("DEFAULT", "0"), "settings.py": settings, "pipeline.py": pipeline}
    assert check(tmp_path, files) == []


# attributes written on a `self` attribute holding params (a deep copy of others), and a
# parameter of the request's method that chooses them, passed by a caller in another module

ROLLOUT = (
    "import copy\nfrom vllm import LLM, SamplingParams\n\n\n"
    "class Rollout:\n"
    "    def __init__(self):\n"
    "        self.llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "        self.params = SamplingParams(temperature=1.0, top_k=50)\n"
    "        self.val_params = copy.deepcopy(self.params)\n"
    "        self.val_params.temperature = TEMPERATURE\n\n"
    "    def generate(self, prompts, validate=False):\n"
    "        params = self.val_params if validate else self.params\n"
    "        return self.llm.generate(prompts, params)\n"
    "MORE"
)


def test_an_attribute_written_on_a_self_held_copy_is_its_request(tmp_path: Path) -> None:
    files = {
        "rollout.py": ROLLOUT.replace("TEMPERATURE", "0.0").replace("MORE", ""),
        "main.py": "from rollout import Rollout\n\nRollout().generate(['x'], validate=True)\n",
    }
    assert check(tmp_path, files) == [("rollout.py", 10, "RPL101")]


@pytest.mark.parametrize(
    ("temperature", "more", "caller"),
    [
        ("0.6", "", "validate=True"),
        ("0.0", "", "validate=False"),  # the caller chooses the sampled params
        ("0.0", "\n    def warm(self):\n        self.val_params.temperature = 1.0\n", "validate=True"),  # another method writes it
    ],
)
def test_a_sampled_copy_or_one_not_chosen_is_silent(tmp_path: Path, temperature: str, more: str, caller: str) -> None:
    files = {
        "rollout.py": ROLLOUT.replace("TEMPERATURE", temperature).replace("MORE", more),
        "main.py": f"from rollout import Rollout\n\nRollout().generate(['x'], {caller})\n",
    }
    assert check(tmp_path, files) == []


# a subclass that only changes class constants the base's `__init__` reads through `self`

WORKERS = (
    "from vllm import LLM\n\n\n"
    "class Worker:\n"
    "    REPLAY = True\n"
    "    MODE = 'processed_logprobs'\n\n"
    "    def __init__(self, model):\n"
    "        self.llm = LLM(model, return_sampling_mask=self.REPLAY, logprobs_mode=self.MODE)\n\n\n"
    "class EvalWorker(Worker):\n"
    "    SUBCLASS\n"
)


@pytest.mark.parametrize("subclass", ["MODE = 'raw_logprobs'", "MODE: str = 'raw_logits'"])
def test_a_subclass_constant_is_read_for_its_objects_engine(tmp_path: Path, subclass: str) -> None:
    assert check(tmp_path, {"workers.py": WORKERS.replace("SUBCLASS", subclass)}) == [("workers.py", 13, "RPL003")]


@pytest.mark.parametrize(
    "subclass",
    [
        "MODE = 'processed_logprobs'\n    GPU = 0.3",
        "REPLAY = False\n    MODE = 'raw_logprobs'",  # no mask for its engine
        "MODE = 'raw_logprobs'\n\n    def __init__(self, model):\n        super().__init__(model)",  # an `__init__` of its own: not read so
        "pass",
    ],
)
def test_a_subclass_without_a_conflicting_constant_is_silent(tmp_path: Path, subclass: str) -> None:
    assert check(tmp_path, {"workers.py": WORKERS.replace("SUBCLASS", subclass)}) == []


# a factory classmethod (`return cls(**arg_dict, **extra)`) of the class or of a base in another module

BASE_MODULE = (
    "class TemplateLM:\n"
    "    @classmethod\n"
    "    def create_from_arg_obj(cls, arg_dict, additional_config=None):\n"
    "        additional_config = {} if additional_config is None else {k: v for k, v in additional_config.items() if v is not None}\n"
    "        RETURN\n"
)
MODEL_MODULE = (
    "from vllm import LLM\n\nfrom api_model import TemplateLM\n\n\n"
    "class VLLM(TemplateLM):\n"
    "    def __init__(self, pretrained, batch_size=1, **kwargs):\n"
    "        self.model_args = {'model': pretrained}\n"
    "        self.model_args.update(kwargs)\n"
    "        self.model = LLM(**self.model_args)\n"
)
RUN = "from vllm_lm import VLLM\n\nVLLM.create_from_arg_obj({'pretrained': 'm', 'return_sampling_mask': True MORE}, {'batch_size': 8})\n"


def test_a_factory_classmethod_of_a_base_in_another_module_is_a_construction(tmp_path: Path) -> None:
    files = {
        "api_model.py": BASE_MODULE.replace("RETURN", "return cls(**arg_dict, **additional_config)"),
        "vllm_lm.py": MODEL_MODULE,
        "run_eval.py": RUN.replace(" MORE", ""),
    }
    assert check(tmp_path, files) == [("run_eval.py", 3, "RPL003")]


@pytest.mark.parametrize(
    ("returned", "more"),
    [
        ("return cls(**arg_dict, **additional_config)", ", 'logprobs_mode': 'processed_logprobs'"),
        ("return cls(**arg_dict) if arg_dict else cls(pretrained='x')", ""),  # not one `return cls(...)`: not followed
        ("return make(cls, arg_dict)", ""),
    ],
)
def test_a_factory_that_is_fine_or_not_read_is_silent(tmp_path: Path, returned: str, more: str) -> None:
    files = {"api_model.py": BASE_MODULE.replace("RETURN", returned), "vllm_lm.py": MODEL_MODULE, "run_eval.py": RUN.replace(" MORE", more)}
    assert check(tmp_path, files) == []


# a config file named by a parameter's default, read when the call passes no path

LOADER = (
    "from pathlib import Path\n\nimport yaml\n\n\n"
    "def load_config(path=Path(__file__).with_name('rollout.yaml')):\n"
    "    with open(path) as f:\n"
    "        return yaml.safe_load(f)\n"
)
INFER = "from vllm import LLM\n\nfrom config import load_config\n\ncfg = load_config(CALLED)\nLLM(model='m', return_sampling_mask=True, **cfg['engine'])\n"
ROLLOUT_YAML_CONFIG = "engine:\n  max_model_len: 4096\n  logprobs_mode: raw_logprobs\n"


def test_the_default_path_of_a_loader_called_without_one_is_read(tmp_path: Path) -> None:
    files = {"config.py": LOADER, "infer.py": INFER.replace("CALLED", ""), "rollout.yaml": ROLLOUT_YAML_CONFIG}
    assert check(tmp_path, files) == [("rollout.yaml", 3, "RPL003")]


@pytest.mark.parametrize("called", ["'other.yaml'", "path=Path(__file__).with_name('other.yaml')", "sys.argv[1]"])
def test_a_path_the_caller_passes_is_not_the_default(tmp_path: Path, called: str) -> None:
    infer = "import sys\nfrom pathlib import Path\n" + INFER.replace("CALLED", called)
    files = {
        "config.py": LOADER,
        "infer.py": infer,
        "rollout.yaml": ROLLOUT_YAML_CONFIG,
        "other.yaml": ROLLOUT_YAML_CONFIG.replace("raw", "processed"),
    }
    assert check(tmp_path, files) == []
