"""Round 40, RLinf (RLinf/RLinf): the vLLM worker's request built from the Hydra YAML the start
script names. The links taught, each general: an engine built from the engine arguments'
`VllmConfig` (`AsyncLLM(vllm_config=engine_args.create_engine_config())`), RLinf's
`Worker.create_group(*args)` making the worker with its arguments (`framework_registry.GROUP_MAKERS`),
a class a function of the tree returns (`get_rollout_backend_worker(cfg)`, its `raise` after the
branches), a script path after the script's own folder (`${REPO_PATH}/examples/main_grpo.py`),
the script's default taken when it runs without arguments (`if [ -z "$1" ]`), and
`@hydra.main` without `config_name` reading the file `--config-path`/`--config-name` name."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.frameworks.nearby import folder_from_own
from tests.test_python_flow_round10 import check

WORKER = """\
from vllm.engine.arg_utils import EngineArgs
from vllm.sampling_params import SamplingParams
from vllm.v1.engine.async_llm import AsyncLLM

from rlinf.scheduler import Worker


class VLLMWorker(Worker):
    def __init__(self, config, placement):
        self._cfg = config
        self._sampling_params = SamplingParams(top_k=self._cfg.algorithm.sampling_params.top_k)

    async def init_worker(self):
        engine_kwargs = {"model": "m", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}
        engine_args = EngineArgs(**engine_kwargs)
        vllm_config = engine_args.create_engine_config()
        self._engine = AsyncLLM(vllm_config=vllm_config, log_stats=False)

    async def rollout(self, prompt):
        async for out in self._engine.generate(prompt=prompt, sampling_params=self._sampling_params, request_id="0"):
            pass
"""

UTILS = """\
def get_rollout_backend_worker(cfg, placement):
    rollout_backend = cfg.rollout.get("rollout_backend", "sglang")
    if rollout_backend == "vllm":
        from rlinf.workers.vllm_worker import VLLMWorker

        return VLLMWorker
    elif rollout_backend == "sglang":
        from rlinf.workers.sglang_worker import SGLangWorker

        return SGLangWorker
    raise ValueError(f"rollout_backend={rollout_backend} is not supported")
"""

MAIN = """\
import hydra

from rlinf.workers.utils import get_rollout_backend_worker


@hydra.main(version_base="1.1")
def main(cfg) -> None:
    worker_cls = get_rollout_backend_worker(cfg, None)
    group = worker_cls.create_group(cfg, None).launch(None, name="rollout")
    group.init_worker().wait()


if __name__ == "__main__":
    main()
"""

SCRIPT = """\
#! /bin/bash
CONFIG_PATH="$( cd "$( dirname "${BASH_SOURCE[0]}" )" && pwd )"
REPO_PATH=$(dirname $(dirname "$CONFIG_PATH"))

if [ -z "$1" ]; then
    CONFIG_NAME="grpo"
else
    CONFIG_NAME=$1
fi

python ${REPO_PATH}/examples/reasoning/main_grpo.py --config-path ${CONFIG_PATH}/config/math/ --config-name $CONFIG_NAME%s
"""


def config(top_k: int = -1, backend: str = "vllm") -> str:
    return f"rollout:\n  rollout_backend: {backend}\nalgorithm:\n  sampling_params:\n    top_k: {top_k}\n"


def tree(top_k: int = -1, backend: str = "vllm", words: str = "", script: str = SCRIPT) -> dict[str, str]:
    return {
        "rlinf/__init__.py": "",
        "rlinf/workers/__init__.py": "",
        "rlinf/workers/vllm_worker.py": WORKER,
        "rlinf/workers/utils.py": UTILS,
        "examples/reasoning/main_grpo.py": MAIN,
        "examples/reasoning/run_main_grpo.sh": script % words,
        "examples/reasoning/config/math/grpo.yaml": config(top_k, backend),
    }


def test_the_yaml_top_k_the_start_script_names_reaches_the_worker_request(tmp_path: Path) -> None:
    assert check(tmp_path, tree()) == [("grpo.yaml", 5, "RPL102")]


@pytest.mark.parametrize(
    "files",
    [
        tree(top_k=50),  # a bounded top_k: clean
        tree(backend="sglang"),  # the factory returns another worker: the vLLM worker is not made
        tree(words=" algorithm.sampling_params.top_k=20"),  # a Hydra override on the command line: not read, open
        tree(script=SCRIPT.replace("--config-name $CONFIG_NAME", "--config-name $CONFIG_NAME --config-dir /etc/x")),
    ],
    ids=["bounded", "other-backend", "override", "other-option"],
)
def test_what_the_run_does_not_decide_stays_silent(tmp_path: Path, files: dict[str, str]) -> None:
    assert check(tmp_path, files) == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('    CONFIG_NAME="grpo"\nelse\n', '    echo "usage: $0 CONFIG"; exit 1\nfi\nif true; then\n'),  # needs its argument
        ("--config-name $CONFIG_NAME", ""),  # no config named: Hydra's own default (none here)
    ],
    ids=["argument-needed", "no-name"],
)
def test_a_run_that_names_no_config_file_stays_open(tmp_path: Path, old: str, new: str) -> None:
    assert old in SCRIPT
    assert check(tmp_path, tree(script=SCRIPT.replace(old, new))) == []


def test_a_class_with_its_own_create_group_is_not_made_by_it(tmp_path: Path) -> None:
    own = WORKER.replace(
        "    async def init_worker", "    @classmethod\n    def create_group(cls, *args):\n        return None\n\n    async def init_worker"
    )
    assert check(tmp_path, {**tree(), "rlinf/workers/vllm_worker.py": own}) == []


def test_the_group_maker_on_the_class_itself_is_a_construction(tmp_path: Path) -> None:
    main = (
        "from rlinf.workers.vllm_worker import VLLMWorker\n\n"
        "CFG = {'algorithm': {'sampling_params': {'top_k': -1}}}\n"
        "VLLMWorker.create_group(CFG, None).launch(None)\n"
    )
    files = {k: v for k, v in tree().items() if not k.startswith("examples/")}
    assert check(tmp_path, {**files, "main.py": main}) == [("main.py", 3, "RPL102")]


@pytest.mark.parametrize(
    ("engine", "expected"),
    [
        ("AsyncLLM(vllm_config=vllm_config, log_stats=False)", [("main.py", 8, "RPL102")]),
        ("AsyncLLM.from_vllm_config(vllm_config)", [("main.py", 8, "RPL102")]),
        ("AsyncLLM(vllm_config=make_config())", []),  # a config not traced to engine arguments: open
    ],
)
def test_an_engine_built_from_the_engine_arguments_config(tmp_path: Path, engine: str, expected: list) -> None:
    main = (
        "from vllm import SamplingParams\nfrom vllm.engine.arg_utils import AsyncEngineArgs\nfrom vllm.v1.engine.async_llm import AsyncLLM\n"
        "from configs import make_config\n\n"
        "engine_args = AsyncEngineArgs(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        f"vllm_config = engine_args.create_engine_config()\nparams = SamplingParams(top_k=-1)\nengine = {engine}\n"
        "engine.generate(prompt='p', sampling_params=params, request_id='0')\n"
    )
    assert check(tmp_path, {"main.py": main}) == expected


def test_the_folder_a_script_word_names_from_its_own() -> None:
    text = 'CONFIG_PATH="$( cd "$( dirname "${BASH_SOURCE[0]}" )" && pwd )"\nREPO_PATH=$(dirname $(dirname "$CONFIG_PATH"))\nX=$(dirname /tmp)\n'
    assert folder_from_own("${CONFIG_PATH}", text) == "."
    assert folder_from_own("${REPO_PATH}", text) == "../.."
    assert folder_from_own('$(dirname "$0")', text) == "."
    assert folder_from_own("$X", text) is None
    assert folder_from_own("$UNSET", text) is None


FIRE = """\
import fire
from vllm import LLM, SamplingParams


def main(temperature: float = 0.7):
    llm = LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")
    llm.generate(["p"], SamplingParams(temperature=temperature, top_k=20))


if __name__ == "__main__":
    fire.Fire(main)
"""


def test_a_script_default_taken_without_arguments_reaches_the_program(tmp_path: Path) -> None:
    script = '#!/bin/bash\nif [ -z "$1" ]; then\n    TEMP=0\nelse\n    TEMP=$1\nfi\npython gen.py --temperature $TEMP\n'
    assert check(tmp_path, {"gen.py": FIRE, "run.sh": script}) == [("run.sh", 7, "RPL101")]


def test_a_script_that_exits_without_arguments_keeps_the_program_open(tmp_path: Path) -> None:
    script = '#!/bin/bash\nif [ -z "$1" ]; then\n    echo "usage: run.sh TEMPERATURE"\n    exit 1\nfi\npython gen.py --temperature $1\n'
    assert check(tmp_path, {"gen.py": FIRE.replace("0.7", "0.0"), "run.sh": script}) == []
