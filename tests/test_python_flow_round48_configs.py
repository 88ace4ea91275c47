"""What held-out round 48's fairseq2 cases (tests/data/python_flow/h48_fairseq2_*) taught so far: an
engine built in a method that `__init__` reaches through another method of the class (fairseq2's
`RemoteVllmModel.__init__` -> `self.setup_replica(i, args)` in a loop -> `self.setup_vllm_worker(name,
args)`) is read with what the object's construction passed; and a construction in a method that
reads its own parameter (`RemoteVllmModelHandler.create(self, config)`: `RemoteVllmModel(...,
config.vllm_engine_args, ...)`) is read with the arguments of that method's calls in the modules
near it that import the class (`RemoteVllmModelHandler().create(config)` in a script)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

LIBRARY = """from dataclasses import dataclass, field

import ray
from vllm import LLM


@ray.remote
class NoEnvLLM(LLM):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)


@dataclass(kw_only=True)
class EngineArgs:
    model: str = "m"
    return_sampling_mask: bool = True
    logprobs_mode: str = {mode}


@dataclass(kw_only=True)
class ActorConfig:
    name: str = "policy"
    num_replicas: int = 1
    engine_args: EngineArgs = field(default_factory=lambda: EngineArgs())


class RemoteModel:
    def __init__(self, num_replicas: int, engine_args: EngineArgs):
        self.workers = []
{setup}

    def setup_replica(self, replica_i: int, engine_args):
        worker = self.setup_worker(f"policy_{{replica_i}}", engine_args)
        self.workers.append(worker)

    def setup_worker(self, name, engine_args: EngineArgs):
        return NoEnvLLM.options(name=name).remote(
            model=engine_args.model,
            return_sampling_mask=engine_args.return_sampling_mask,
            logprobs_mode=engine_args.logprobs_mode,
        )


class Handler:
    def create(self, config: ActorConfig) -> RemoteModel:
        return RemoteModel(config.num_replicas, config.engine_args)
"""
MODE_LINE = 17  # the raw mode beside the mask: reported where it is written
LOOP = "        for replica_i in range(num_replicas):\n            self.setup_replica(replica_i, engine_args)"
ONCE = "        self.setup_replica(0, engine_args)"

SCRIPT = """from pkg.remote import ActorConfig, Handler


def main():
    config = ActorConfig({given})
    Handler().create(config)


main()
"""


def tree(mode: str = '"raw_logprobs"', setup: str = LOOP, given: str = 'name="policy"', near: bool = True) -> dict[str, str]:
    script = "pkg/run.py" if near else "run.py"
    return {"pkg/__init__.py": "", "pkg/remote.py": LIBRARY.format(mode=mode, setup=setup), script: SCRIPT.format(given=given)}


@pytest.mark.parametrize("setup", [LOOP, ONCE])
def test_a_field_default_reaches_an_engine_two_methods_below_init(tmp_path: Path, setup: str) -> None:
    assert check(tmp_path, tree(setup=setup)) == [("remote.py", MODE_LINE, "RPL003")]


def test_the_processed_mode_default_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, tree(mode='"processed_logprobs"')) == []


def test_the_script_own_engine_args_decide(tmp_path: Path) -> None:
    given = 'engine_args=EngineArgs(logprobs_mode="processed_logprobs")'
    files = tree(given=given)
    files["pkg/run.py"] = files["pkg/run.py"].replace("import ActorConfig,", "import ActorConfig, EngineArgs,")
    assert check(tmp_path, files) == []


def test_engine_args_from_run_time_keep_the_launch_open(tmp_path: Path) -> None:
    files = tree(given="engine_args=load_engine_args()")
    files["pkg/run.py"] = "from pkg.loading import load_engine_args\n" + files["pkg/run.py"]
    assert check(tmp_path, files) == []
