"""What held-out round 7 (tests/data/python_flow/h7_*) made the value flow follow, and where each
construct stops: a loop over pairs spelt out, an `except ImportError:` import fallback, a
registry dict of partials, pydantic's `model_copy(update=)`, an object of a plain class,
`OmegaConf.merge`, and an actor class made a Ray actor under another name. Each stop keeps the
launch open (no finding rests on an absent or unknown setting)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main


def findings(tree: Path) -> list[tuple[str, int, str]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in json.loads(out.getvalue()))


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return findings(tmp_path)


LOOP = (
    "from vllm import LLM\n"
    "FLAGS = (\n"
    "    ('enforce_eager', True),\n"
    "    ('return_sampling_mask', True),\n"
    ")\n"
    "kw = {'model': 'm'}\n"
    "for key, value in FLAGS:\n"
    "BODY"
    "LLM(**kw)\n"
)


def test_a_loop_over_pairs_writes_each_key_decided_at_its_element(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": LOOP.replace("BODY", "    kw[key] = value\n")}) == [("run.py", 4, "RPL003")]


@pytest.mark.parametrize(
    "body",
    [
        "    if key == 'stop':\n        break\n    kw[key] = value\n",  # a turn may never come
        "    kw[key] = convert(value)\n",  # computed from the turn's names by a function from outside the tree
    ],
)
def test_a_loop_that_may_stop_early_or_computes_its_values_stays_open(tmp_path: Path, body: str) -> None:
    assert check(tmp_path, {"run.py": LOOP.replace("BODY", body)}) == []


def test_a_loop_over_the_items_of_a_known_dict_writes_its_entries(tmp_path: Path) -> None:
    text = (
        "from vllm import LLM\nEXTRA = {'logits_processors': ['a:B']}\n"
        "kw = {'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n"
        "for k, v in EXTRA.items():\n    kw[k] = v\nLLM(**kw)\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 2, "RPL001")]
    (tmp_path / "run.py").write_text(
        text.replace("EXTRA.items()", "json.load(open('x.json')).items()").replace("from vllm", "import json\nfrom vllm")
    )
    assert findings(tmp_path) == []


def test_a_list_the_module_grows_is_not_read_as_written(tmp_path: Path) -> None:
    text = (
        LOOP.replace("BODY", "    kw[key] = value\n")
        .replace("FLAGS = (", "FLAGS = [")
        .replace(")\nkw", "]\nFLAGS.append(('logprobs_mode', 'processed_logprobs'))\nkw")
    )
    assert check(tmp_path, {"run.py": text}) == []


def test_the_import_that_succeeds_is_the_tries(tmp_path: Path) -> None:
    text = (
        "try:\n    from vllm import LLM\nexcept ImportError:\n    from vllm.entrypoints.llm import LLM\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode='raw_logits')\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 5, "RPL003")]


def test_a_fallback_value_for_a_module_outside_the_tree_keeps_the_launch_open(tmp_path: Path) -> None:
    text = (
        "from vllm import LLM\ntry:\n    from local_settings import OVERRIDES\nexcept ImportError:\n    OVERRIDES = {}\n"
        "LLM('m', return_sampling_mask=True, **OVERRIDES)\n"
    )
    assert check(tmp_path, {"run.py": text}) == []


REGISTRY = (
    "import sys\nfrom functools import partial\nfrom vllm import LLM\n"
    "ENGINES = {'replay': partial(LLM, return_sampling_mask=True), 'plain': partial(LLM)}\n"
    "def build(kind, model):\n    return ENGINES[kind](model)\n"
)


def test_a_registry_of_partials_is_read_by_the_key_its_caller_passes(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": REGISTRY + "build('replay', 'm')\n"}) == [("run.py", 4, "RPL003")]
    (tmp_path / "run.py").write_text(REGISTRY + "build(sys.argv[1], 'm')\n")
    assert findings(tmp_path) == []  # the key is given at run time


MODEL_COPY = (
    "from pydantic import BaseModel\nfrom vllm import LLM\n"
    "class Settings(BaseModel):\n    model: str = 'm'\n    return_sampling_mask: bool = False\n"
    "settings = Settings().model_copy(update={update})\nLLM(**settings.model_dump())\n"
)


def test_model_copy_writes_the_update_into_the_record(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": MODEL_COPY.format(update="{'return_sampling_mask': True}")}) == [("run.py", 6, "RPL003")]
    (tmp_path / "run.py").write_text("import json\n" + MODEL_COPY.format(update="json.load(open('x.json'))"))
    assert findings(tmp_path) == []


PLAIN = (
    "from vllm import LLM\nclass Cfg:\n    model = 'm'\n{more}"
    "cfg = Cfg()\nLLM(cfg.model, return_sampling_mask=True, logprobs_mode=getattr(cfg, 'logprobs_mode', 'raw_logprobs'))\n"
)


def test_an_object_of_a_plain_class_has_its_class_attributes(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": PLAIN.format(more="")}) == [("run.py", 5, "RPL003")]


@pytest.mark.parametrize(
    "more",
    [
        "    def load(self):\n        self.logprobs_mode = 'processed_logprobs'\n",  # a method may set it
        "Cfg.logprobs_mode = 'processed_logprobs'\n",  # written on the class elsewhere
    ],
)
def test_a_class_that_may_gain_the_attribute_keeps_getattr_unknown(tmp_path: Path, more: str) -> None:
    assert check(tmp_path, {"run.py": PLAIN.format(more=more)}) == []


def test_vars_of_a_plain_object_is_not_its_class_attributes(tmp_path: Path) -> None:
    text = "from vllm import LLM\nclass Cfg:\n    logprobs_mode = 'raw_logprobs'\nLLM('m', return_sampling_mask=True, **vars(Cfg()))\n"
    assert check(tmp_path, {"run.py": text}) == []


OMEGA = (
    "from pathlib import Path\nfrom omegaconf import OmegaConf\nfrom vllm import LLM\n"
    "base = OmegaConf.load(Path(__file__).parent / 'conf.yaml')\n"
    "cfg = OmegaConf.merge(base, {over})\nLLM('m', **OmegaConf.to_container(cfg.vllm))\n"
)


def test_omegaconf_merge_merges_a_mapping_into_the_one_before_it(tmp_path: Path) -> None:
    files = {
        "conf.yaml": "vllm:\n  logprobs_mode: processed_logprobs\n",
        "run.py": OMEGA.format(over="OmegaConf.create({'vllm': {'return_sampling_mask': True}})"),
    }
    assert check(tmp_path, files) == []  # the YAML's logprobs_mode stays next to the mask
    (tmp_path / "conf.yaml").write_text("vllm:\n  logprobs_mode: raw_logprobs\n")
    assert findings(tmp_path) == [("conf.yaml", 2, "RPL003")]


def test_omegaconf_merge_with_the_command_line_stays_open(tmp_path: Path) -> None:
    files = {"conf.yaml": "vllm:\n  return_sampling_mask: true\n", "run.py": OMEGA.format(over="OmegaConf.from_cli()")}
    assert check(tmp_path, files) == []


@pytest.mark.parametrize("write", ["os.environ |= {'VLLM_USE_V2_MODEL_RUNNER': '0'}", "os.environ.update(VLLM_USE_V2_MODEL_RUNNER='0')"])
def test_the_environment_merged_with_a_dict_is_the_engines(tmp_path: Path, write: str) -> None:
    text = f"import os\nfrom vllm import LLM\n{write}\nLLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    assert check(tmp_path, {"run.py": text}) == [("run.py", 3, "RPL206")]


@pytest.mark.parametrize("value", ["str(0)", "RUNNER"])
def test_the_runner_variable_written_from_a_value_the_flow_knows(tmp_path: Path, value: str) -> None:
    text = (
        f"import os\nfrom vllm import LLM\nRUNNER = '0'\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = {value}\n"
        "LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 4, "RPL206")]
    (tmp_path / "run.py").write_text(text.replace(f"= {value}\n", "= os.environ.get('RUNNER', '0')\n"))
    assert findings(tmp_path) == []  # a default of the run, which the message could not name


RECORD_METHOD = (
    "from dataclasses import dataclass\nfrom vllm import LLM\n\n\n@dataclass\nclass Cfg:\n"
    "    model: str = 'm'\n    mode: str = 'raw_logprobs'\n\n"
    "    def engine_kwargs(self, **extra):\n"
    "        return {'model': self.model, 'return_sampling_mask': True, 'logprobs_mode': self.mode, **extra}\n\n\n"
)


def test_a_method_of_a_record_reads_its_fields_as_self(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": RECORD_METHOD + "LLM(**Cfg().engine_kwargs())\n"}) == [("run.py", 8, "RPL003")]
    (tmp_path / "run.py").write_text(RECORD_METHOD + "LLM(**Cfg(mode='processed_logprobs').engine_kwargs(seed=1))\n")
    assert findings(tmp_path) == []


def test_an_actor_made_by_ray_remote_with_resources(tmp_path: Path) -> None:
    text = (
        "import ray\nimport vllm\n\n\nclass Actor:\n    def __init__(self, **kw):\n        self.llm = vllm.LLM(**kw)\n\n\n"
        "RayActor = ray.remote(num_gpus=1)(Actor)\nRayActor.remote(model='m', return_sampling_mask=True)\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 11, "RPL003")]


def test_an_actor_made_under_another_name_where_it_is_created(tmp_path: Path) -> None:
    files = {
        "rl/__init__.py": "",
        "rl/actor.py": "import vllm\n\n\nclass Actor:\n    def __init__(self, **kwargs):\n        self.llm = vllm.LLM(**kwargs)\n",
        "rl/factory.py": (
            "import ray\n\nfrom rl.actor import Actor\n\nRayActor = ray.remote(Actor)\n\n\n"
            "def make(model, mode=None):\n    extra = {}\n    if mode:\n        extra['logprobs_mode'] = mode\n"
            "    return RayActor.options(num_gpus=1).remote(model=model, return_sampling_mask=True, **extra)\n"
        ),
        "rl/main.py": "from rl.factory import make\n\nmake('m', mode='raw_logprobs')\n",
    }
    assert check(tmp_path, files) == [("main.py", 3, "RPL003")]


@pytest.mark.parametrize(
    "made",
    [
        "EngineCfg()._replace(return_sampling_mask=True)",  # a NamedTuple's copy
        "EngineCfg.model_validate({'return_sampling_mask': True})",  # pydantic v2 from a mapping
    ],
)
def test_a_record_copied_or_validated_keeps_its_class_defaults(tmp_path: Path, made: str) -> None:
    base = "NamedTuple" if "_replace" in made else "BaseModel"
    text = (
        f"from typing import NamedTuple\nfrom pydantic import BaseModel\nfrom vllm import LLM\n\n\nclass EngineCfg({base}):\n"
        "    model: str = 'm'\n    return_sampling_mask: bool = False\n    logprobs_mode: str = 'raw_logprobs'\n\n\n"
        f"cfg = {made}\nLLM(**({'cfg._asdict()' if base == 'NamedTuple' else 'cfg.model_dump()'}))\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 9, "RPL003")]


def test_a_class_attribute_named_by_its_class_is_that_classs(tmp_path: Path) -> None:
    text = (
        "from vllm import LLM\n\n\nclass Base:\n    ENGINE = {'model': 'm', 'logprobs_mode': 'raw_logprobs'}\n\n\n"
        "class Replay(Base):\n    ENGINE = {**Base.ENGINE, 'return_sampling_mask': True}\n\n"
        "    def build(self):\n        return LLM(**self.ENGINE)\n\n\nReplay().build()\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 5, "RPL003")]


def test_a_comprehension_over_names_reads_each_attribute(tmp_path: Path) -> None:
    text = (
        "from vllm import LLM\n\n\nclass Cfg:\n    model = 'm'\n    return_sampling_mask = True\n\n\n"
        "cfg = Cfg()\nLLM(**{k: getattr(cfg, k) for k in ('model', 'return_sampling_mask')})\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 6, "RPL003")]
    (tmp_path / "run.py").write_text(text.replace("cfg = Cfg()", "import sys\ncfg = sys.modules['cfg']"))
    assert findings(tmp_path) == []  # an object from outside the tree: its attributes are not known


def test_a_list_of_one_params_repeated_is_that_request(tmp_path: Path) -> None:
    text = (
        "from vllm import LLM, SamplingParams\n\nllm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "prompts = ['a', 'b']\nsp = SamplingParams(temperature=0.0, top_k=5)\nllm.generate(prompts, [sp] * len(prompts))\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 5, "RPL101")]


def test_a_record_method_hands_itself_to_asdict(tmp_path: Path) -> None:
    text = (
        "from dataclasses import asdict, dataclass\n\nfrom vllm import LLM, SamplingParams\n\n\n@dataclass\nclass Sampling:\n"
        "    temperature: float = 1.0\n    top_k: int = -1\n\n    def params(self):\n        return SamplingParams(**asdict(self))\n\n\n"
        "llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\nllm.generate(['x'], Sampling().params())\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 9, "RPL102")]
    (tmp_path / "run.py").write_text(text.replace("Sampling().params()", "Sampling(top_k=40).params()"))
    assert findings(tmp_path) == []


def test_the_environment_updated_from_a_mapping_of_another_module(tmp_path: Path) -> None:
    files = {
        "proj/__init__.py": "",
        "proj/settings.py": 'ENV = {"NCCL_DEBUG": "WARN", "VLLM_USE_V2_MODEL_RUNNER": "0"}\n',
        "proj/main.py": (
            "import os\n\nfrom vllm import LLM\n\nfrom proj import settings\n\nos.environ.update(settings.ENV)\n"
            "LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        ),
    }
    assert check(tmp_path, files) == [("settings.py", 1, "RPL206")]
