"""What held-out round 30 (tests/data/python_flow/h30_trinity_*) made the value flow follow in
engine-args objects and the request helpers around them.

Trinity-RFT's `vLLMRolloutModel` builds `engine_args = vllm.AsyncEngineArgs(...)`, then sets
`engine_args.enable_log_requests = False` before `AsyncLLMEngine.from_engine_args(engine_args)`.
The value flow reads those writes (up to the call that hands the object on), but the libcst
pass's "attributes are set after the call" kept the launch open, so neither the mask a config
field turns on nor the greedy default request was judged. Now the flow's reading stands where it
read the writes; a write it cannot read (a tuple target, a chained or augmented assignment, a
`setattr` of a name not known) keeps the launch open.

Its `_create_sampling_params(**kwargs)` returns the default request when `len(kwargs) == 0`:
`len` of a mapping known whole (the keywords the tree's callers pass) now decides the branch as
`not kwargs` did; a mapping not known whole leaves it open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

ENGINE = (
    "import vllm\n"
    "\n"
    "\n"
    "def start():\n"
    "    engine_args = vllm.AsyncEngineArgs(\n"
    "        model='m',\n"
    "        return_sampling_mask=True,\n"  # line 7
    "    )\n"
    "{writes}"
    "    return vllm.AsyncLLMEngine.from_engine_args(engine_args)\n"
    "\n"
    "\n"
    "start()\n"
)


@pytest.mark.parametrize(
    "writes",
    [
        "    engine_args.enable_log_requests = False\n",  # Trinity-RFT's
        "    engine_args.disable_log_stats: bool = True\n",
        "    engine_args.max_model_len = 2048\n    setattr(engine_args, 'seed', 0)\n",
    ],
)
def test_attributes_the_flow_reads_after_the_construction_leave_it_judged(tmp_path: Path, writes: str) -> None:
    assert check(tmp_path, {"run.py": ENGINE.format(writes=writes)}) == [("run.py", 7, "RPL003")]


def test_the_mode_written_after_the_construction_is_read(tmp_path: Path) -> None:
    writes = "    engine_args.enable_log_requests = False\n    engine_args.logprobs_mode = 'processed_logprobs'\n"
    assert check(tmp_path, {"run.py": ENGINE.format(writes=writes)}) == []


@pytest.mark.parametrize(
    "writes",
    [
        "    engine_args.seed, engine_args.logprobs_mode = OTHER\n",
        "    engine_args.seed = engine_args.logprobs_mode = OTHER\n",
        "    engine_args.max_model_len += OTHER\n",
        "    for key, value in OTHER.items():\n        setattr(engine_args, key, value)\n",
    ],
)
def test_a_write_the_flow_cannot_read_keeps_the_launch_open(tmp_path: Path, writes: str) -> None:
    text = "import sys\nOTHER = sys.argv\n" + ENGINE.format(writes=writes)
    assert check(tmp_path, {"run.py": text}) == []


def test_writes_after_a_call_that_does_not_make_the_engine_still_reach_it(tmp_path: Path) -> None:
    writes = "    print(engine_args)\n    engine_args.logprobs_mode = 'processed_logprobs'\n"
    assert check(tmp_path, {"run.py": ENGINE.format(writes=writes)}) == []


def test_a_write_after_the_object_went_to_a_helper_keeps_the_launch_open(tmp_path: Path) -> None:
    writes = "    configure(engine_args)\n    engine_args.enable_log_requests = False\n"
    text = "from helpers import configure\n" + ENGINE.format(writes=writes)
    assert check(tmp_path, {"run.py": text}) == []


def test_a_write_after_the_engine_is_made_does_not_reach_it(tmp_path: Path) -> None:
    text = ENGINE.format(writes="").replace(
        "    return vllm.AsyncLLMEngine.from_engine_args(engine_args)\n",
        "    engine = vllm.AsyncLLMEngine.from_engine_args(engine_args)\n    engine_args.logprobs_mode = 'processed_logprobs'\n    return engine\n",
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 7, "RPL003")]


CONFIG = (
    "from dataclasses import dataclass, field\n"
    "\n"
    "\n"
    "@dataclass\n"
    "class ModelConfig:\n"
    "    model_path: str = ''\n"
    "    lora_kwargs: dict = field(default_factory=dict)\n"
    "    return_sampling_mask: bool = True\n"  # line 8
)
MODEL = (
    "import vllm\n"
    "\n"
    "from config import ModelConfig\n"
    "\n"
    "\n"
    "class RolloutModel:\n"
    "    def __init__(self, config: ModelConfig):\n"
    "        self.default = vllm.SamplingParams(n=1, temperature=0.0, top_k=20)\n"  # line 8
    "        engine_args = vllm.AsyncEngineArgs(\n"
    "            model=config.model_path,\n"
    "            return_sampling_mask=config.return_sampling_mask,\n"
    "            logprobs_mode='processed_logprobs',\n"
    "            **config.lora_kwargs,\n"
    "        )\n"
    "        engine_args.enable_log_requests = False\n"
    "        self.llm = vllm.AsyncLLMEngine.from_engine_args(engine_args)\n"
    "\n"
    "    async def chat(self, prompt, **kwargs):\n"
    "        return self.llm.generate(request_id='0', prompt=prompt, sampling_params=self._params(**kwargs))\n"
    "\n"
    "    def _params(self, **kwargs):\n"
    "        if {test}:\n"
    "            return self.default\n"
    "        params = self.default.clone()\n"
    "        for k, v in kwargs.items():\n"
    "            if hasattr(params, k):\n"
    "                setattr(params, k, v)\n"
    "        return params\n"
)
RUN = (
    "import asyncio\n"
    "\n"
    "from config import ModelConfig\n"
    "from model import RolloutModel\n"
    "\n"
    "\n"
    "async def main():\n"
    "    model = RolloutModel(ModelConfig(model_path='m'))\n"
    "    await model.chat('p'{keywords})\n"
    "\n"
    "\n"
    "asyncio.run(main())\n"
)


def _files(test: str, keywords: str) -> dict[str, str]:
    return {"config.py": CONFIG, "model.py": MODEL.format(test=test), "run.py": RUN.format(keywords=keywords)}


@pytest.mark.parametrize("test", ["len(kwargs) == 0", "not len(kwargs)", "len(kwargs) < 1", "not kwargs"])
def test_the_default_request_returned_when_the_caller_passes_no_keywords(tmp_path: Path, test: str) -> None:
    assert check(tmp_path, _files(test, "")) == [("model.py", 8, "RPL101")]


@pytest.mark.parametrize("test", ["len(kwargs) == 0", "not len(kwargs)"])
def test_a_caller_whose_keywords_change_the_default_is_judged_by_them(tmp_path: Path, test: str) -> None:
    assert check(tmp_path, _files(test, ", temperature=0.7, n=4")) == []


@pytest.mark.parametrize("test", ["len(kwargs) == 0", "not kwargs"])
def test_keywords_from_outside_the_tree_leave_the_length_unknown(tmp_path: Path, test: str) -> None:
    options = "import asyncio\nimport json\nimport sys\n\nOPTIONS = json.loads(sys.argv[1])\n"
    run = RUN.format(keywords=", **OPTIONS").replace("import asyncio\n", options)
    assert check(tmp_path, {"config.py": CONFIG, "model.py": MODEL.format(test=test), "run.py": run}) == []


def test_the_mask_a_config_field_turns_on_is_judged_at_the_field(tmp_path: Path) -> None:
    model = MODEL.format(test="len(kwargs) == 0").replace("            logprobs_mode='processed_logprobs',\n", "")
    files = {"config.py": CONFIG, "model.py": model, "run.py": RUN.format(keywords=", temperature=0.7")}
    assert check(tmp_path, files) == [("config.py", 8, "RPL003")]


# openchat's server (and vLLM's old api_server.py): `engine = None` at the top of the module, the engine
# built under `if __name__ == "__main__":`, a route sending requests to the global.
SERVER = (
    "import fastapi\n"
    "from vllm import SamplingParams\n"
    "from vllm.engine.arg_utils import AsyncEngineArgs\n"
    "from vllm.engine.async_llm_engine import AsyncLLMEngine\n"
    "\n"
    "app = fastapi.FastAPI()\n"
    "engine = None\n"
    "\n"
    "\n"
    "@app.post('/v1/chat/completions')\n"
    "async def chat(raw_request):\n"
    "    body = await raw_request.json()\n"
    "    params = SamplingParams(temperature=body['temperature'], top_p=body['top_p'])\n"  # line 13
    "    return engine.generate({{'prompt': body['prompt']}}, sampling_params=params, request_id='1')\n"
    "\n"
    "\n"
    "{start}"
)
MAIN = (
    "if __name__ == '__main__':\n"
    "    engine_args = AsyncEngineArgs(model='m', return_sampling_mask={mask}, logprobs_mode='processed_logprobs')\n"
    "    engine = AsyncLLMEngine.from_engine_args(engine_args)\n"
)
GLOBAL = (
    "def main():\n"
    "    global engine\n"
    "    engine = AsyncLLMEngine.from_engine_args(AsyncEngineArgs(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs'))\n"
    "\n"
    "\n"
    "main()\n"
)


@pytest.mark.parametrize("start", [MAIN.format(mask="True"), GLOBAL])
def test_a_request_to_a_module_global_reaches_the_engine_it_is_set_to(tmp_path: Path, start: str) -> None:
    assert check(tmp_path, {"server.py": SERVER.format(start=start)}) == [("server.py", 13, "RPL102")]


@pytest.mark.parametrize(
    "start",
    [
        MAIN.format(mask="False"),  # no replay
        MAIN.format(mask="True") + "    engine = make_other()\n",  # bound to something else too
        MAIN.format(mask="True") + "    for engine in make_others():\n        pass\n",
        "import sys\n" + MAIN.format(mask="sys.argv[1] == 'replay'"),  # the mask from run time
    ],
)
def test_a_module_global_bound_otherwise_or_without_the_mask_stays_silent(tmp_path: Path, start: str) -> None:
    assert check(tmp_path, {"server.py": SERVER.format(start=start)}) == []


def test_a_function_with_its_own_engine_name_is_not_the_global(tmp_path: Path) -> None:
    server = SERVER.format(start=MAIN.format(mask="True")).replace(
        "    body = await raw_request.json()\n", "    body = await raw_request.json()\n    engine = raw_request.app.state.engine\n"
    )
    assert check(tmp_path, {"server.py": server}) == []
