"""What the readers of held-out rounds 10 and 11 left PENDING made the value flow follow: a Ray
task (a function made remote, lighteval's `run_inference_one_model`) read with the arguments of
each `fn.remote(...)`; a pydantic model's method that drops the fields left None, on a model
built in another module (lighteval's `GenerationParameters.to_vllm_dict()`); and the engine
module whose arguments come from a config a module of the tree loads (prime-rl's
`RolloutConfig.model_validate(yaml.safe_load(f))`), checked though neither module passes the
prefilter alone. Each stop keeps the launch open (no finding rests on an absent setting)."""

from __future__ import annotations

from pathlib import Path

import pytest

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
