"""The value flow on the forms held-out round 8 met (requests, Ray actors, environment writes,
modules of a project), beyond its cases (tests/data/python_flow/h8_*): the spellings next to
theirs, and where the flow must stay silent."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main

REPLAY = 'return_sampling_mask=True, logprobs_mode="processed_logprobs"'


def findings(tree: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tree / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    found = json.loads(out.getvalue())
    return sorted((Path(item["filename"]).relative_to(tree).as_posix(), item["location"]["row"], item["code"]) for item in found)


@pytest.mark.parametrize(
    "write",
    [
        'os.environ |= {"VLLM_USE_V2_MODEL_RUNNER": "0"}',
        'os.environ.update(VLLM_USE_V2_MODEL_RUNNER="0")',
        'os.environ.update(dict(VLLM_USE_V2_MODEL_RUNNER="0", NCCL_DEBUG="WARN"))',
    ],
)
def test_the_runner_variable_written_in_other_spellings_is_read(tmp_path: Path, write: str) -> None:
    text = f"import os\nfrom vllm import LLM\n\n{write}\nllm = LLM('m', {REPLAY})\n"
    assert findings(tmp_path, {"run.py": text}) == [("run.py", 4, "RPL206")]


def actor_module(constants: str, decorator: str, made: str) -> str:
    """A module of a Ray actor `Worker` that builds a replay engine, and the statement that makes one."""
    worker = f"class Worker:\n    def __init__(self, model):\n        self.llm = LLM(model, {REPLAY})\n\n\n"
    return f"import ray\nfrom vllm import LLM\n\n{constants}\n\n{decorator}\n{worker}worker = {made}\n"


def test_an_actor_class_decorated_with_a_runtime_env_starts_with_it(tmp_path: Path) -> None:
    text = actor_module("", '@ray.remote(num_gpus=1, runtime_env={"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "0"}})', 'Worker.remote("m")')
    assert findings(tmp_path, {"workers.py": text}) == [("workers.py", 6, "RPL206")]


JOB = 'ray.init(runtime_env={"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "0", "NCCL_DEBUG": "WARN"}})'


def test_the_jobs_runtime_env_reaches_its_actors_not_the_driver(tmp_path: Path) -> None:
    actor = (
        "import ray\nfrom vllm import LLM\n\n\n@ray.remote(num_gpus=1)\n"
        f"class Worker:\n    def __init__(self, model):\n        self.llm = LLM(model, {REPLAY})\n\n\n"
        f'def main():\n    {JOB}\n    return Worker.remote("m")\n'
    )
    assert findings(tmp_path / "actor", {"job.py": actor}) == [("job.py", 12, "RPL206")]
    # Ray applies a job's runtime_env to its workers: the driver's own engine never sees it.
    driver = f'import ray\nfrom vllm import LLM\n\n\ndef main():\n    {JOB}\n    return LLM("m", {REPLAY})\n'
    assert findings(tmp_path / "driver", {"job.py": driver}) == []


def test_an_engine_kept_in_a_global_a_function_sets_is_the_one_requests_reach(tmp_path: Path) -> None:
    setter = f'def init_engine():\n    global ENGINE\n    ENGINE = LLM("m", {REPLAY})\n\n\n'
    handler = "def handle(prompt):\n    return ENGINE.generate([prompt], SamplingParams(temperature=0.0, top_k=5))\n"
    head = "from vllm import LLM, SamplingParams\n\nENGINE = None\n\n\n"
    assert findings(tmp_path / "one", {"app.py": head + setter + handler}) == [("app.py", 12, "RPL101")]
    # Two functions set it (a replay engine and a plain one): which one a request reaches is not known.
    plain = 'def init_plain():\n    global ENGINE\n    ENGINE = LLM("m")\n\n\n'
    assert findings(tmp_path / "two", {"app.py": head + setter + plain + handler}) == []


def test_a_request_in_another_module_reaches_only_the_engine_it_imports(tmp_path: Path) -> None:
    engine = f'from vllm import LLM\n\n\ndef load():\n    return LLM("m", {REPLAY})\n'
    greedy = "llm.generate(['x'], SamplingParams(temperature=0.0, top_k=5))\n"
    imported = f"from engine import load\nfrom vllm import SamplingParams\n\nllm = load()\n{greedy}"
    own = f"from vllm import LLM, SamplingParams\n\n\ndef load():\n    return LLM('m')\n\n\nllm = load()\n{greedy}"
    assert findings(tmp_path / "imported", {"engine.py": engine, "run.py": imported}) == [("run.py", 5, "RPL101")]
    assert findings(tmp_path / "own", {"engine.py": engine, "run.py": own}) == []  # its own `load`, of the same name


def test_a_request_to_an_actor_whose_object_is_not_known_reaches_every_engine_of_its_class(tmp_path: Path) -> None:
    text = (
        "import ray\nfrom vllm import LLM, SamplingParams\n\n\n@ray.remote\nclass Engine:\n"
        "    def __init__(self, model, **kwargs):\n        self.llm = LLM(model, **kwargs)\n\n"
        "    def generate(self, prompts, params):\n        return self.llm.generate(prompts, params)\n\n\n"
        f'engines = [Engine.remote("a", {REPLAY}), Engine.remote("b")]\n'
        "ray.get([e.generate.remote(['x'], SamplingParams(temperature=0.0, top_k=5)) for e in engines])\n"
    )
    assert findings(tmp_path, {"engines.py": text}) == [("engines.py", 15, "RPL101")]


def test_a_request_to_one_of_two_engines_a_function_makes_is_judged_against_that_one(tmp_path: Path) -> None:
    head = f'from vllm import LLM, SamplingParams\n\n\ndef make(model, **kw):\n    return LLM(model, **kw)\n\n\npolicy = make("p", {REPLAY})\njudge = make("j")\n'
    greedy = "SamplingParams(temperature=0.0, top_k=3)"
    assert findings(tmp_path / "judge", {"two.py": f"{head}judge.generate(['x'], {greedy})\n"}) == []
    assert findings(tmp_path / "policy", {"two.py": f"{head}policy.generate(['x'], {greedy})\n"}) == [("two.py", 10, "RPL101")]


def test_a_module_imported_for_its_environment_writes_it_before_the_engine(tmp_path: Path) -> None:
    files = {
        "proj/__init__.py": "",
        "proj/env.py": 'import os\n\nos.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\n',
        "main.py": f"import proj.env  # noqa: F401\nfrom vllm import LLM\n\nllm = LLM('m', {REPLAY})\n",
    }
    assert findings(tmp_path / "before", files) == [("proj/env.py", 3, "RPL206")]
    # Imported after the engine started, it changes nothing for it.
    after = f"from vllm import LLM\n\nllm = LLM('m', {REPLAY})\nimport proj.env  # noqa: E402, F401\n"
    assert findings(tmp_path / "after", {**files, "main.py": after}) == []


def test_the_runner_variable_written_from_a_module_constant_is_read(tmp_path: Path) -> None:
    text = f'import os\nfrom vllm import LLM\n\nRUNNER = "0"\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = RUNNER\nllm = LLM("m", {REPLAY})\n'
    assert findings(tmp_path, {"run.py": text}) == [("run.py", 5, "RPL206")]


def test_the_main_block_writes_the_environment_before_or_after_the_call_that_starts_the_engine(tmp_path: Path) -> None:
    head = f'import os\nfrom vllm import LLM\n\n\ndef main():\n    return LLM("m", {REPLAY})\n\n\nif __name__ == "__main__":\n'
    write = '    os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\n'
    assert findings(tmp_path / "before", {"run.py": f"{head}{write}    main()\n"}) == [("run.py", 10, "RPL206")]
    assert findings(tmp_path / "after", {"run.py": f"{head}    main()\n{write}"}) == []


def test_an_actor_of_vllms_engine_is_an_engine_and_its_requests_reach_it(tmp_path: Path) -> None:
    greedy = "ray.get(llm.generate.remote(['x'], SamplingParams(temperature=0.0, top_k=2)))\n"
    direct = f"import ray\nfrom vllm import LLM, SamplingParams\n\nllm = ray.remote(num_gpus=1)(LLM).remote('m', {REPLAY})\n{greedy}"
    assert findings(tmp_path / "direct", {"run.py": direct}) == [("run.py", 5, "RPL101")]
    # vLLM's RLHF example: a subclass of LLM made a Ray actor; its construction reaches `super().__init__`.
    subclass = (
        "import ray\nfrom vllm import LLM, SamplingParams\n\n\nclass MyLLM(LLM):\n"
        "    def __init__(self, *args, **kwargs):\n        super().__init__(*args, **kwargs)\n\n\n"
        f"llm = ray.remote(num_cpus=0, num_gpus=0)(MyLLM).remote(model='m', {REPLAY})\n{greedy}"
    )
    assert findings(tmp_path / "subclass", {"rlhf.py": subclass}) == [("rlhf.py", 11, "RPL101")]


def test_a_manager_with_a_method_of_the_same_name_does_not_hide_the_actors_requests(tmp_path: Path) -> None:
    text = (
        "import ray\nfrom vllm import LLM, SamplingParams\n\n\n@ray.remote\nclass Engine:\n"
        f"    def __init__(self, model):\n        self.llm = LLM(model, {REPLAY})\n\n"
        "    def generate(self, prompts, params):\n        return self.llm.generate(prompts, params)\n\n\n"
        "class Manager:\n    def __init__(self, model, n):\n        self.engines = [Engine.remote(model) for _ in range(n)]\n"
        "        self.sp = SamplingParams(temperature=0.8, max_tokens=64)\n\n"
        "    def generate(self, prompts):\n        return ray.get([e.generate.remote(prompts, self.sp) for e in self.engines])\n\n\n"
        'Manager("m", 2).generate(["x"])\n'
    )
    assert findings(tmp_path, {"manager.py": text}) == [("manager.py", 17, "RPL102")]


@pytest.mark.parametrize("imported", ["import myproj.settings as cfg", "from myproj import settings as cfg"])
def test_a_settings_module_imported_as_a_module_of_its_package_is_read(tmp_path: Path, imported: str) -> None:
    files = {
        "myproj/__init__.py": "",
        "myproj/settings.py": 'VLLM_KWARGS = {"return_sampling_mask": True, "logprobs_mode": "raw_logprobs"}\n',
        "run.py": f"{imported}\nfrom vllm import LLM\n\nllm = LLM('m', **cfg.VLLM_KWARGS)\n",
    }
    assert findings(tmp_path, files) == [("myproj/settings.py", 1, "RPL003")]


def test_a_trl_trainer_in_server_mode_sends_its_default_top_k(tmp_path: Path) -> None:
    # TRL 1.16's GRPOConfig sends `top_k=0` with every request unless told otherwise; its
    # `trl vllm-serve` forwards the mask to vLLM (with processed_logprobs of its own).
    pins = '[project]\nname = "run"\nversion = "0"\ndependencies = ["trl==1.16.0", "vllm==0.34.0"]\n'
    head = (
        "import subprocess\n\nfrom trl import GRPOConfig\n\n"
        'server = subprocess.Popen(["trl", "vllm-serve", "--model", "m", "--return-sampling-mask", "--enable-scale-out"])\n'
    )
    default = 'config = GRPOConfig(output_dir="out", use_vllm=True, vllm_mode="server", temperature=1.0)\n'
    bounded = 'config = GRPOConfig(output_dir="out", use_vllm=True, vllm_mode="server", top_k=50)\n'
    assert ("train.py", 6, "RPL102") in findings(tmp_path / "default", {"pyproject.toml": pins, "train.py": head + default})
    assert ("train.py", 6, "RPL102") not in findings(tmp_path / "bounded", {"pyproject.toml": pins, "train.py": head + bounded})


def test_a_request_in_a_loop_over_engines_reaches_each(tmp_path: Path) -> None:
    head = f'from vllm import LLM, SamplingParams\n\npolicy = LLM("p", {REPLAY})\nref = LLM("r")\n'
    loop = "for engine in {}:\n    engine.generate(['x'], SamplingParams(temperature=0.0, top_k=3))\n"
    assert findings(tmp_path / "both", {"a.py": head + loop.format("[policy, ref]")}) == [("a.py", 6, "RPL101")]
    assert findings(tmp_path / "ref", {"a.py": head + loop.format("(ref,)")}) == []


def test_an_actors_runtime_env_given_by_name_is_read(tmp_path: Path) -> None:
    constants = 'ENV_VARS = {"VLLM_USE_V2_MODEL_RUNNER": "0", "NCCL_DEBUG": "WARN"}\nRUNTIME_ENV = {"env_vars": ENV_VARS}\n'
    text = actor_module(constants, "@ray.remote(num_gpus=1)", 'Worker.options(runtime_env=RUNTIME_ENV).remote("m")')
    assert findings(tmp_path, {"workers.py": text}) == [("workers.py", 4, "RPL206")]


def test_an_objects_engine_read_through_its_attribute_is_the_one_its_construction_built(tmp_path: Path) -> None:
    head = (
        "from vllm import LLM, SamplingParams\n\n\nclass Rollout:\n    def __init__(self, model, **kw):\n"
        "        self.llm = LLM(model, **kw)\n\n\n"
        f'policy = Rollout("p", {REPLAY})\nref = Rollout("r")\n'
    )
    request = "{}.llm.generate(['x'], SamplingParams(temperature=0.9))\n"
    assert findings(tmp_path / "policy", {"run.py": head + request.format("policy")}) == [("run.py", 11, "RPL102")]
    assert findings(tmp_path / "ref", {"run.py": head + request.format("ref")}) == []


def test_importing_a_module_of_a_package_runs_the_packages_environment_writes_first(tmp_path: Path) -> None:
    files = {
        "myrl/__init__.py": 'import os\n\nos.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\n',
        "myrl/consts.py": 'MODEL = "m"\n',
        "main.py": f"from myrl.consts import MODEL\nfrom vllm import LLM\n\nllm = LLM(MODEL, {REPLAY})\n",
    }
    assert findings(tmp_path, files) == [("myrl/__init__.py", 3, "RPL206")]
