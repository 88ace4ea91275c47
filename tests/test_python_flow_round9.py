"""What held-out round 9 (tests/data/python_flow/h9_*) made the value flow follow, and where each
construct stops: a construction read once per turn of a loop spelt out, `dict(zip(...))`,
`dict.fromkeys(...)`, a `str` Enum's member, `with ... as engine` of a context-manager function,
`functools.partial` of an OpenAI client's request method, a copy of `os.environ` written into, a
second Ray actor hop, a nested TOML table's keys, a fix that adds a key the literal already
writes, and a request on `a if test else b`. Each stop keeps the launch open (no finding rests
on an absent or unknown setting)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main


def run(tree: Path, *more: str) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", *more, str(tree)])
    return json.loads(out.getvalue()) if not more else []


def check(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in run(tmp_path))


def messages(tmp_path: Path) -> list[str]:
    return [f["message"] for f in run(tmp_path)]


# a construction in a loop over values spelt out: once per turn

ROWS = (
    "from vllm import LLM\n"
    "HEADER = ('return_sampling_mask', 'logprobs_mode')\n"
    "ROWS = [\n"
    "    (True, 'processed_logprobs'),\n"
    "    (True, 'raw_logprobs'),\n"
    "]\n"
    "for row in ROWS:\n"
    "BODY"
)


def test_each_row_zipped_with_a_header_is_an_engine_decided_at_its_row(tmp_path: Path) -> None:
    body = "    LLM('m', **dict(zip(HEADER, row)))\n"
    assert check(tmp_path, {"run.py": ROWS.replace("BODY", body)}) == [("run.py", 5, "RPL003")]


@pytest.mark.parametrize(
    "body",
    [
        "    if row[1] == 'processed_logprobs':\n        break\n    LLM('m', **dict(zip(HEADER, row)))\n",  # later turns may not come
        "    LLM('m', **dict(zip(HEADER, row[:1])))\n",  # the row's items are not spelt out
        "    LLM('m', **dict(zip(HEADER + EXTRA, row)))\n",  # a key not known here
    ],
)
def test_rows_that_may_stop_or_cannot_be_paired_stay_open(tmp_path: Path, body: str) -> None:
    assert check(tmp_path, {"run.py": "import os\nEXTRA = tuple(os.environ)\n" + ROWS.replace("BODY", body)}) == []


def test_a_grown_list_of_rows_is_not_read_turn_by_turn(tmp_path: Path) -> None:
    body = "    LLM('m', **dict(zip(HEADER, row)))\n"
    grown = ROWS.replace("for row", "ROWS.append((True, 'processed_logprobs'))\nfor row")
    assert check(tmp_path, {"run.py": grown.replace("BODY", body)}) == []


PRESETS = (
    "import sys\n"
    "from vllm import LLM, SamplingParams\n"
    "PRESETS = {\n"
    "    'eval': {'max_model_len': 4096},\n"
    "    'rollout': {'return_sampling_mask': True, 'logprobs_mode': 'raw_logprobs'},\n"
    "}\n"
    "MODE = CHOSEN\n"
    "def build():\n"
    "    for name, preset in PRESETS.items():\n"
    "        if name == MODE:\n"
    "            return LLM('m', **preset)\n"
    "    raise KeyError(MODE)\n"
    "llm = build()\n"
    "llm.generate(['x'], SamplingParams(temperature=0.0))\n"
)


@pytest.mark.parametrize(("chosen", "expected"), [("'rollout'", [("run.py", 5, "RPL003")]), ("'eval'", [])])
def test_the_preset_a_loop_chooses_by_key_is_the_only_engine(tmp_path: Path, chosen: str, expected: list) -> None:
    assert check(tmp_path, {"run.py": PRESETS.replace("CHOSEN", chosen)}) == expected


def test_a_preset_chosen_by_a_run_time_key_stays_open(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": PRESETS.replace("CHOSEN", "sys.argv[1]")}) == []


# dict.fromkeys and dict(zip(...))


def test_fromkeys_turns_each_key_on_at_the_call(tmp_path: Path) -> None:
    text = "import vllm as v\nON = ('return_sampling_mask', 'enforce_eager')\nflags = dict.fromkeys(ON, True)\nv.LLM('m', **flags)\n"
    assert check(tmp_path, {"run.py": text}) == [("run.py", 3, "RPL003")]


def test_fromkeys_of_keys_not_known_here_stays_open(tmp_path: Path) -> None:
    text = "import sys\nimport vllm as v\nflags = dict.fromkeys(sys.argv[1:], True)\nv.LLM('m', return_sampling_mask=True, **flags)\n"
    assert check(tmp_path, {"run.py": text}) == []


def test_zip_of_sequences_of_different_lengths_stays_open(tmp_path: Path) -> None:
    text = "from vllm import LLM\nLLM('m', **dict(zip(('return_sampling_mask', 'logprobs_mode'), (True,))))\n"
    assert check(tmp_path, {"run.py": text}) == []


# a str Enum's member is its value; another Enum's is not

ENUM = (
    "import enum\nfrom vllm import LLM\n"
    "class Mode(BASES):\n    RAW = 'raw_logprobs'\n    PROCESSED = 'processed_logprobs'\n"
    "LLM('m', return_sampling_mask=True, logprobs_mode=Mode.MEMBER)\n"
)


@pytest.mark.parametrize(
    ("bases", "member", "expected"),
    [
        ("str, enum.Enum", "RAW", [("run.py", 6, "RPL003")]),
        ("enum.StrEnum", "RAW", [("run.py", 6, "RPL003")]),
        ("str, enum.Enum", "PROCESSED", []),
        ("enum.Enum", "RAW", []),  # not a str: vLLM would not read it as 'raw_logprobs' (unknown here)
    ],
)
def test_a_str_enum_member_is_read_as_its_value(tmp_path: Path, bases: str, member: str, expected: list) -> None:
    assert check(tmp_path, {"run.py": ENUM.replace("BASES", bases).replace("MEMBER", member)}) == expected


# `with ... as engine` of a context-manager function

CONTEXT = (
    "import contextlib\nfrom vllm import LLM, SamplingParams\n"
    "DECORATOR\n"
    "def replay_engine(model):\n"
    "    engine = LLM(model, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    yield engine\n"
    "with replay_engine('m') as engine:\n"
    "    engine.generate(['x'], SamplingParams(temperature=0.9, top_k=TOP_K))\n"
)


def test_the_engine_a_context_manager_yields_receives_the_with_blocks_requests(tmp_path: Path) -> None:
    text = CONTEXT.replace("DECORATOR", "@contextlib.contextmanager").replace("TOP_K", "0")
    assert check(tmp_path, {"run.py": text}) == [("run.py", 8, "RPL102")]


@pytest.mark.parametrize(
    ("decorator", "top_k"),
    [("@contextlib.contextmanager", "20"), ("# no decorator: a generator is no context manager", "0")],
)
def test_a_with_block_is_judged_only_on_what_a_context_manager_yields(tmp_path: Path, decorator: str, top_k: str) -> None:
    assert check(tmp_path, {"run.py": CONTEXT.replace("DECORATOR", decorator).replace("TOP_K", top_k)}) == []


def test_async_with_of_an_asynccontextmanager(tmp_path: Path) -> None:
    text = (
        "from contextlib import asynccontextmanager\nfrom vllm import SamplingParams\n"
        "from vllm.engine.arg_utils import AsyncEngineArgs\nfrom vllm.v1.engine.async_llm import AsyncLLM\n"
        "@asynccontextmanager\nasync def make():\n"
        "    args = AsyncEngineArgs(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "    yield AsyncLLM.from_engine_args(args)\n"
        "async def main():\n"
        "    async with make() as engine:\n"
        "        async for out in engine.generate('x', SamplingParams(temperature=0.9), request_id='r'):\n"
        "            print(out)\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 11, "RPL102")]


# functools.partial of an OpenAI client's request method

PARTIAL = (
    "import functools, subprocess\nimport requests\nfrom openai import OpenAI\n"
    "server = subprocess.Popen(['vllm', 'serve', 'm', '--return-sampling-mask', '--logprobs-mode', 'processed_logprobs',"
    " '--enable-scale-out'])\n"
    "client = OpenAI(base_url='http://localhost:8000/v1', api_key='x')\n"
    "complete = functools.partial(client.completions.create, model='m', temperature=0.0, extra_body={'top_k': 20})\n"
    "complete(CALL)\n"
    "requests.post('http://localhost:8000/inference/v1/generate', json={'sampling_params': {'temperature': 1.0, 'top_k': 20}})\n"
)


def test_a_partial_of_a_request_method_sends_its_keywords_when_called(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": PARTIAL.replace("CALL", "prompt='x'")}) == [("run.py", 6, "RPL101")]


@pytest.mark.parametrize("call", ["prompt='x', temperature=0.7", "prompt='x', **overrides"])
def test_a_call_of_the_partial_that_overrides_or_may_override_the_keyword_is_judged_on_it(tmp_path: Path, call: str) -> None:
    assert check(tmp_path, {"run.py": "overrides = {}\n" + PARTIAL.replace("CALL", call)}) == []


def test_a_partial_never_called_sends_nothing(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": PARTIAL.replace("complete(CALL)\n", "")}) == []


# a copy of os.environ written into, handed to subprocess

ENV_COPY = (
    "import os, subprocess\n"
    "env = COPY\n"
    "WRITES"
    "subprocess.run(['vllm', 'serve', 'm', '--return-sampling-mask', '--logprobs-mode', 'processed_logprobs', '--enable-scale-out'],"
    " env=env)\n"
)


@pytest.mark.parametrize("copy", ["os.environ.copy()", "dict(os.environ)"])
def test_the_runner_variable_written_into_a_copy_of_the_environment_reaches_the_server(tmp_path: Path, copy: str) -> None:
    text = ENV_COPY.replace("COPY", copy).replace("WRITES", "env['VLLM_USE_V2_MODEL_RUNNER'] = '0'\nenv['X'] = '1'\n")
    assert check(tmp_path, {"run.py": text}) == [("run.py", 3, "RPL206")]


@pytest.mark.parametrize(
    "writes",
    [
        "env['VLLM_USE_V2_MODEL_RUNNER'] = '0'\nenv.pop('VLLM_USE_V2_MODEL_RUNNER')\n",  # removed again
        "env['VLLM_USE_V2_MODEL_RUNNER'] = '0'\nenv.update(EXTRA)\n",  # may be written again: open
        "env['VLLM_LOGGING_LEVEL'] = 'DEBUG'\n",
    ],
)
def test_a_copy_whose_runner_variable_is_removed_unknown_or_unset_gives_no_finding(tmp_path: Path, writes: str) -> None:
    text = "EXTRA = {}\n" + ENV_COPY.replace("COPY", "os.environ.copy()").replace("WRITES", writes)
    assert check(tmp_path, {"run.py": text}) == []


def test_the_fix_removes_the_write_into_the_copy(tmp_path: Path) -> None:
    text = ENV_COPY.replace("COPY", "os.environ.copy()").replace("WRITES", "env['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n")
    (tmp_path / "run.py").write_text(text)
    run(tmp_path, "--fix", "--unsafe-fixes")
    assert "VLLM_USE_V2_MODEL_RUNNER" not in (tmp_path / "run.py").read_text()
    assert check(tmp_path, {}) == []


# kwargs handed through two Ray actors

ACTORS = (
    "import ray\nimport vllm\n"
    "@ray.remote\nclass Engine:\n    def __init__(self, **kwargs):\n        self.llm = vllm.LLM(**kwargs)\n"
    "@ray.remote\nclass Launcher:\n    def __init__(self, **kw):\n        self.engine = Engine.options(num_gpus=1).remote(**kw)\n"
    "Launcher.remote(model='m', return_sampling_mask=True, MORE)\n"
)


@pytest.mark.parametrize(("more", "expected"), [("seed=0", [("run.py", 11, "RPL003")]), ("logprobs_mode='processed_logprobs'", [])])
def test_kwargs_reach_the_engine_through_a_second_actor(tmp_path: Path, more: str, expected: list) -> None:
    assert check(tmp_path, {"run.py": ACTORS.replace("MORE", more)}) == expected


# a nested TOML table's keys


def test_a_key_of_a_nested_toml_table_is_reported_at_its_own_line(tmp_path: Path) -> None:
    toml = (
        "[engine]\nmodel = 'm'\nreturn_sampling_mask = true\nlogprobs_mode = 'processed_logprobs'\n\n"
        "[engine.speculative_config]\nmethod = 'ngram'\nnum_speculative_tokens = 3\nenable_adaptive_verification = true\n"
    )
    assert check(tmp_path, {"engine.toml": toml}) == [("engine.toml", 9, "RPL002")]


# a fix that adds a key the literal already writes (dropped on the way) edits that entry

DROPPED = (
    "from vllm import LLM\n"
    "CFG = {'return_sampling_mask': True, 'logprobs_mode': None, 'seed': 0}\n"
    "LLM('m', **{k: v for k, v in CFG.items() if v is not None})\n"
)


def test_the_fix_writes_the_entry_a_comprehension_dropped_and_holds(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.py": DROPPED}) == [("run.py", 2, "RPL003")]
    run(tmp_path, "--fix", "--unsafe-fixes")
    fixed = (tmp_path / "run.py").read_text()
    assert "'logprobs_mode': 'processed_logprobs'" in fixed and fixed.count("logprobs_mode") == 1
    assert check(tmp_path, {}) == []
    run(tmp_path, "--fix", "--unsafe-fixes")
    assert (tmp_path / "run.py").read_text() == fixed


# a request on `a if test else b`

CHOICE = (
    "import sys\nfrom vllm import LLM, SamplingParams\n"
    "use_policy = '--policy' in sys.argv\n"
    "policy = LLM('p', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "judge = LLM('j')\n"
    "engine = CHOICE\n"
    "engine.generate(['x'], SamplingParams(temperature=0.0, top_k=5))\n"
)


@pytest.mark.parametrize(
    ("choice", "condition"),
    [("policy if use_policy else judge", "when `use_policy` is true"), ("judge if use_policy else policy", "when `use_policy` is false")],
)
def test_a_request_on_an_undecided_choice_reaches_the_replay_engine_on_its_condition(tmp_path: Path, choice: str, condition: str) -> None:
    (tmp_path / "run.py").write_text(CHOICE.replace("CHOICE", choice))
    (said,) = messages(tmp_path)
    assert said.startswith("`temperature=0.0` in a request to a replay engine") and condition in said


def test_a_choice_of_engines_without_replay_gives_nothing(tmp_path: Path) -> None:
    text = CHOICE.replace("CHOICE", "judge if use_policy else LLM('k')")
    assert check(tmp_path, {"run.py": text}) == []
