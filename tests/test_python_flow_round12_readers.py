"""What the readers of held-out rounds 10 and 11 left PENDING made the value flow follow: a Ray
task (a function made remote, lighteval's `run_inference_one_model`) read with the arguments of
each `fn.remote(...)`; a pydantic model's method that drops the fields left None, on a model
built in another module (lighteval's `GenerationParameters.to_vllm_dict()`); and the engine
module whose arguments come from a config a module of the tree loads (prime-rl's
`RolloutConfig.model_validate(yaml.safe_load(f))`), checked though neither module passes the
prefilter alone. Each stop keeps the launch open (no finding rests on an absent setting)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from replaylint.cli.main import main
from tests.test_python_flow_round10 import check

# a Ray task: `fn.remote(...)` runs `fn` with those arguments

TASK = (
    "import ray\n"
    "from vllm import LLM, SamplingParams\n"
    "DECORATOR\n"
    "def run_one(model_args: dict, params, prompts):\n"
    "    llm = LLM(**model_args)\n"
    "    return llm.generate(prompts, params)\n"
    "TASK_NAME\n"
    "class Model:\n"
    "    def __init__(self, name):\n"
    "        self.model_args = {'model': name, 'logprobs_mode': MODE}\n"
    "        self.model_args['return_sampling_mask'] = True\n"
    "    def generate(self, prompts):\n"
    "        params = SamplingParams(temperature=0.8, top_k=20)\n"
    "        return ray.get([CALL(self.model_args, params, p) for p in prompts])\n"
)


def _task(mode: str, decorator: str = "@ray.remote(num_gpus=1)", call: str = "run_one.remote", name: str = "") -> str:
    return TASK.replace("DECORATOR", decorator).replace("TASK_NAME", name).replace("MODE", mode).replace("CALL", call)


@pytest.mark.parametrize(
    ("decorator", "call", "name"),
    [
        ("@ray.remote(num_gpus=1)", "run_one.remote", ""),
        ("@ray.remote", "run_one.options(num_gpus=1).remote", ""),
        ("", "task.remote", "task = ray.remote(num_gpus=1)(run_one)"),  # wrapped, not decorated
        ("", "task.options(num_gpus=2).remote", "task = ray.remote(run_one)"),
    ],
)
def test_a_ray_task_s_engine_gets_what_remote_passes(tmp_path: Path, decorator: str, call: str, name: str) -> None:
    source = _task("'raw_logprobs'", decorator, call, name)
    assert check(tmp_path, {"run.py": source}) == [("run.py", 10, "RPL003")]


def test_a_ray_task_called_with_keywords_binds_them_by_name(tmp_path: Path) -> None:
    source = _task("'raw_logprobs'", "@ray.remote(num_gpus=1, max_calls=1)").replace(
        "run_one.remote(self.model_args, params, p)", "run_one.remote(prompts=p, params=params, model_args=self.model_args)"
    )
    assert check(tmp_path, {"run.py": source}) == [("run.py", 10, "RPL003")]


def test_a_ray_task_given_processed_logprobs_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": _task("'processed_logprobs'")}) == []


def test_a_ray_task_s_request_is_the_one_remote_passes(tmp_path: Path) -> None:
    source = _task("'processed_logprobs'").replace("temperature=0.8", "temperature=0.0")
    assert check(tmp_path, {"run.py": source}) == [("run.py", 13, "RPL101")]


def test_a_ray_task_no_call_runs_keeps_its_arguments_open(tmp_path: Path) -> None:
    source = _task("'raw_logprobs'", call="other.remote").replace("import ray\n", "import ray\nother = ray.remote(print)\n")
    assert check(tmp_path, {"run.py": source}) == []


def test_a_remote_call_of_another_task_does_not_pass_its_arguments(tmp_path: Path) -> None:
    source = (
        _task("'raw_logprobs'", call="other.remote").replace("TASK_NAME", "")
        + "@ray.remote\ndef other(model_args, params, prompts):\n    return model_args\n"
    )
    assert check(tmp_path, {"run.py": source}) == []


def test_a_ray_task_of_another_module_gets_what_the_caller_s_remote_passes(tmp_path: Path) -> None:
    tasks = "import ray\nfrom vllm import LLM\n@ray.remote(num_gpus=1)\ndef build(engine_kwargs, prompts):\n    return LLM(**engine_kwargs).generate(prompts)\n"
    driver = (
        "import ray\nfrom pkg.tasks import build\n"
        "ENGINE = {'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': MODE}\n"
        "def main():\n    return ray.get(build.options(num_gpus=1).remote(ENGINE, ['hi']))\n"
    )
    files = {"pkg/__init__.py": "", "pkg/tasks.py": tasks}
    assert check(tmp_path, {**files, "pkg/driver.py": driver.replace("MODE", "'raw_logprobs'")}) == [("driver.py", 3, "RPL003")]
    assert check(tmp_path, {**files, "pkg/driver.py": driver.replace("MODE", "'processed_logprobs'")}) == []


# a request method reading what `__init__` stored (`self.config`), the object built in another module

GENERATION = (
    "from pydantic import BaseModel\n"
    "class Generation(BaseModel):\n"
    "    temperature: float = 0.7\n"
    "    top_k: int | None = None\n"
    "    top_p: float | None = None\n"
    "    def to_vllm_dict(self) -> dict:\n"
    "        return DUMP\n"
)
MODEL = (
    "from vllm import LLM, SamplingParams\n"
    "class Model:\n"
    "    def __init__(self, config):\n"
    "        self.config = config\n"
    "        self.llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    def generate(self, prompts):\n"
    "        params = SamplingParams(**self.config['generation'].to_vllm_dict())\n"
    "        return self.llm.generate(prompts, params)\n"
)
COMPREHENSION = "{k: v for k, v in self.model_dump().items() if v is not None}"


def _generation(dump: str) -> dict[str, str]:
    return {"generation.py": GENERATION.replace("DUMP", dump), "model.py": MODEL}


@pytest.mark.parametrize("then", ["Model(config).generate(['q'])", "model = Model(config)\nmodel.generate(['q'])", "Model(config)"])
def test_a_request_reading_the_stored_config_is_read_with_the_other_module_s_construction(tmp_path: Path, then: str) -> None:
    run = f"from generation import Generation\nfrom model import Model\nconfig = {{'generation': Generation(GIVEN)}}\n{then}\n"
    files = _generation(COMPREHENSION)
    assert check(tmp_path, {**files, "run.py": run.replace("GIVEN", "top_p=0.9")}) == [("model.py", 7, "RPL102")]
    assert check(tmp_path, {**files, "run.py": run.replace("GIVEN", "top_p=0.9, top_k=20")}) == []


def test_a_dump_written_in_the_request_method_is_read_the_same(tmp_path: Path) -> None:
    model = MODEL.replace("self.config['generation'].to_vllm_dict()", "self.config['generation'].model_dump(exclude_none=True)")
    run = "from generation import Generation\nfrom model import Model\nModel({'generation': Generation(top_p=0.9)}).generate(['q'])\n"
    assert check(tmp_path, {**_generation(COMPREHENSION), "model.py": model, "run.py": run}) == [("model.py", 7, "RPL102")]


def test_a_request_reading_a_stored_config_no_module_builds_stays_open(tmp_path: Path) -> None:
    assert check(tmp_path, _generation(COMPREHENSION)) == []


# a pydantic model's fields as a dict, with `model_dump`'s options


@pytest.mark.parametrize(
    "dump",
    [
        "self.model_dump(exclude_none=True)",
        "self.model_dump(mode='json', exclude_none=True)",
        "self.dict(exclude_none=True)",  # pydantic v1
        "self.model_dump(exclude={'top_k'})",
        "self.model_dump(include={'temperature', 'top_p'})",
        "self.model_dump(include=['temperature'], exclude_none=False)",
    ],
)
def test_a_dump_that_leaves_top_k_out_sends_no_top_k(tmp_path: Path, dump: str) -> None:
    run = "from generation import Generation\nfrom model import Model\nModel({'generation': Generation(top_p=0.9)}).generate(['q'])\n"
    assert check(tmp_path, {**_generation(dump), "run.py": run}) == [("model.py", 7, "RPL102")]


@pytest.mark.parametrize(
    ("dump", "given"),
    [
        ("self.model_dump(exclude_none=True)", "top_k=20"),
        ("self.model_dump(include={'temperature', 'top_k'})", "top_k=20"),
        ("self.model_dump()", ""),  # `top_k=None` sent as written: not an absent key
        ("self.model_dump(exclude_unset=True)", ""),  # which fields were set is not followed: open
        ("self.model_dump(by_alias=True)", ""),  # renamed keys: open
        ("self.model_dump(exclude=EXCLUDED)", ""),  # names not known: open
        ("self.model_dump(exclude_none=FLAG)", ""),
    ],
)
def test_a_dump_that_keeps_top_k_or_is_not_known_is_clean(tmp_path: Path, dump: str, given: str) -> None:
    run = f"import os\nfrom generation import Generation\nfrom model import Model\nModel({{'generation': Generation({given})}}).generate(['q'])\n"
    files = {
        "generation.py": "import os\nFLAG = os.environ.get('F') == '1'\nEXCLUDED = set(os.environ['X'].split(','))\n"
        + GENERATION.replace("DUMP", dump)
    }
    assert check(tmp_path, {**files, "model.py": MODEL, "run.py": run}) == []


def test_a_none_field_only_on_one_path_is_present_its_value_unknown(tmp_path: Path) -> None:
    dump = "self.model_dump(exclude_none=True)"
    run = (
        "import sys\nfrom generation import Generation\nfrom model import Model\n"
        "kw = {'top_k': 20}\nif len(sys.argv) > 1:\n    kw['top_k'] = None\n"
        "Model({'generation': Generation(**kw)}).generate(['q'])\n"
    )
    assert check(tmp_path, {**_generation(dump), "run.py": run}) == []


def test_an_engine_dump_without_defaults_is_open(tmp_path: Path) -> None:
    source = (
        "from pydantic import BaseModel\nfrom vllm import LLM\n"
        "class Engine(BaseModel):\n    model: str = 'm'\n    return_sampling_mask: bool = True\n"
        "    logprobs_mode: str = 'raw_logprobs'\n"
        "LLM(**Engine().model_dump(DUMP))\n"
    )
    assert check(tmp_path, {"run.py": source.replace("DUMP", "exclude_defaults=True")}) == []
    assert check(tmp_path, {"run.py": source.replace("DUMP", "exclude_none=True")}) == [("run.py", 6, "RPL003")]


# a config file that turns the mask on, loaded by one module of the tree and started by another:
# neither module passes the prefilter; the config file's engine mapping is followed to the engine

ROLLOUT_YAML = "model: m\nengine_kwargs:\n  max_model_len: 4096\n  gpu_memory_utilization: 0.5\n  return_sampling_mask: true\nMODE"
LOADER = (
    "import os\nfrom pathlib import Path\nimport yaml\nfrom pydantic import BaseModel, Field\n"
    "class RolloutConfig(BaseModel):\n    model: str\n    engine_kwargs: dict = Field(default_factory=dict)\n"
    "def load_config(path=PATH):\n    with open(path) as f:\n        return RolloutConfig.model_validate(yaml.safe_load(f))\n"
)
ENGINE_MODULE = "from vllm import LLM\nfrom config import load_config\ncfg = load_config()\nLLM(model=cfg.model, **cfg.engine_kwargs)\n"


def _rollout(mode: str = "", path: str = 'Path(__file__).with_name("rollout.yaml")', where: str = "rollout.yaml") -> dict[str, str]:
    return {where: ROLLOUT_YAML.replace("MODE", mode), "config.py": LOADER.replace("PATH", path), "infer.py": ENGINE_MODULE}


@pytest.mark.parametrize(
    ("path", "where"),
    [
        ('Path(__file__).with_name("rollout.yaml")', "rollout.yaml"),
        ('os.path.join(os.path.dirname(__file__), "rollout.yaml")', "rollout.yaml"),
        ('Path(__file__).parent / "configs" / "rollout.yaml"', "configs/rollout.yaml"),
    ],
)
def test_a_config_file_s_mask_is_followed_through_its_loader_to_the_engine(tmp_path: Path, path: str, where: str) -> None:
    assert check(tmp_path, _rollout(path=path, where=where)) == [("rollout.yaml", 5, "RPL003")]


def test_a_config_file_with_processed_logprobs_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, _rollout("  logprobs_mode: processed_logprobs\n")) == []


def test_a_config_file_no_module_loads_stays_an_open_mapping(tmp_path: Path) -> None:
    files = _rollout()
    del files["config.py"]
    assert check(tmp_path, {**files, "infer.py": "from vllm import LLM\nLLM('m')\n"}) == []


def test_a_config_file_loaded_from_the_working_folder_is_not_followed(tmp_path: Path) -> None:
    assert check(tmp_path, _rollout(path='"rollout.yaml"')) == []  # the path is the run's, not the module's


def test_an_engine_module_checked_on_its_own_reports_the_finding_once(tmp_path: Path) -> None:
    files = _rollout()
    files["infer.py"] = ENGINE_MODULE.replace("\nLLM(", "\n# return_sampling_mask comes from rollout.yaml\nLLM(")
    assert check(tmp_path, files) == [("rollout.yaml", 5, "RPL003")]


def test_a_loader_that_builds_the_engine_itself_is_followed(tmp_path: Path) -> None:
    # `yaml.load(f, Loader=...)` names no loader word the prefilter knows: the module is passed by
    loader = (
        "from pathlib import Path\nimport yaml\nfrom vllm import LLM\n"
        "with open(Path(__file__).parent / 'rollout.yaml') as f:\n    CFG = yaml.load(f, Loader=yaml.SafeLoader)\n"
        "LLM(CFG['model'], **CFG['engine_kwargs'])\n"
    )
    files = {"rollout.yaml": ROLLOUT_YAML.replace("MODE", ""), "run.py": loader}
    assert check(tmp_path, files) == [("rollout.yaml", 5, "RPL003")]
    files["rollout.yaml"] = ROLLOUT_YAML.replace("MODE", "  logprobs_mode: processed_logprobs\n")
    assert check(tmp_path, files) == []


@pytest.mark.parametrize("logits", ['"a.b:C"', ""])
def test_a_json_config_s_mask_is_followed_through_its_loader_to_the_engine(tmp_path: Path, logits: str) -> None:
    engine = '{"model": "m", "engine_kwargs": {"max_model_len": 4096, "return_sampling_mask": true, "logits_processors": [LOGITS]}}\n'
    loader = LOADER.replace("PATH", 'Path(__file__).with_name("rollout.json")').replace("yaml.safe_load(f)", "json.load(f)")
    files = {"rollout.json": engine.replace("LOGITS", logits), "config.py": "import json\n" + loader, "infer.py": ENGINE_MODULE}
    # the mapping alone is open: its custom processor is reported, the absent logprobs_mode only once the engine is read
    found = [("rollout.json", 1, "RPL001")] if logits else []
    assert check(tmp_path, files) == sorted([*found, ("rollout.json", 1, "RPL003")])


@pytest.mark.parametrize(("config", "text"), [("rollout.yaml", ROLLOUT_YAML.replace("MODE", "")), ("rollout.json", None)])
def test_the_fix_is_written_in_the_engine_call_and_a_second_run_is_clean(tmp_path: Path, config: str, text: str | None) -> None:
    files = _rollout()
    if text is None:  # the JSON file a loader reads with `json.load`
        del files["rollout.yaml"]
        text = '{"model": "m", "engine_kwargs": {"max_model_len": 4096, "gpu_memory_utilization": 0.5, "return_sampling_mask": true}}\n'
        files["config.py"] = "import json\n" + files["config.py"].replace("rollout.yaml", "rollout.json").replace(
            "yaml.safe_load(f)", "json.load(f)"
        )
    assert check(tmp_path, {**files, config: text}) == [(config, 5 if config.endswith("yaml") else 1, "RPL003")]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--fix", "--unsafe-fixes", str(tmp_path)])
    assert 'logprobs_mode="processed_logprobs"' in (tmp_path / "infer.py").read_text()
    assert (tmp_path / config).read_text() == text  # the config file is left as it was
    assert check(tmp_path, {}) == []
