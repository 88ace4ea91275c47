"""What the PENDING cases h11_swift_args_mixin_getattr_loop_no_mode, h11_swift_hf_overrides_pop_canvas
and h10_server_custom_env_popen made the value flow follow, each in the spellings a next user
writes, and where each construct stops: a method `__init__` calls on an object made in another
module; a dict popped, merged and put back (`if overrides:` of a mapping decided); a loop over
names spelt out whose body reads `getattr(self, key, None)` and writes only what is not None
(its branches decided turn by turn); settings handed on by an importer to a third module that
builds the engine; a `vllm serve` a helper starts with its callers' words and environment
(`cmd += [...]`, `os.environ.copy()` updated with `custom_env`). Each stop keeps the launch open
(no finding rests on an absent or unknown setting)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check, run

# ms-swift's `_prepare_engine_kwargs`: `hf_overrides` popped from the caller's kwargs, merged, put back

ENGINE = (
    "from vllm import EngineArgs, LLMEngine\n"
    "class Engine:\n"
    "    def __init__(self, model, *, engine_kwargs=None):\n"
    "        self.model = model\n"
    "        self._prepare(engine_kwargs)\n"
    "        self.engine = LLMEngine.from_engine_args(self.engine_args)\n"
    "    def _extra(self):\n"
    "        return EXTRA\n"
    "    def _prepare(self, engine_kwargs):\n"
    "        if engine_kwargs is None:\n"
    "            engine_kwargs = {}\n"
    "        POP\n"
    "        overrides.update(self._extra())\n"
    "        if overrides:\n"
    "            engine_kwargs['hf_overrides'] = overrides\n"
    "        self.engine_args = EngineArgs(model=self.model, **engine_kwargs)\n"
)
POP = "overrides = engine_kwargs.pop('hf_overrides', None) or {}"
ROLLOUT = (
    "from eng import Engine\n"
    "Engine('m', engine_kwargs={'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs',\n"
    "    OVERRIDES})\n"
)


def _overrides(overrides: str, extra: str = "{}", pop: str = POP) -> dict[str, str]:
    return {"eng.py": ENGINE.replace("EXTRA", extra).replace("POP", pop), "rollout.py": ROLLOUT.replace("OVERRIDES", overrides)}


@pytest.mark.parametrize(
    "pop",
    [
        POP,
        "overrides = engine_kwargs.pop('hf_overrides', {})",
        "overrides = dict(engine_kwargs.pop('hf_overrides', None) or {})",
    ],
)
def test_overrides_popped_merged_and_put_back_reach_the_engine(tmp_path: Path, pop: str) -> None:
    files = _overrides("'hf_overrides': {'canvas_length': 256}", pop=pop)
    assert check(tmp_path, files) == [("rollout.py", 3, "RPL005")]


def test_overrides_the_engine_s_own_method_adds_are_found_where_it_returns_them(tmp_path: Path) -> None:
    assert check(tmp_path, _overrides("'seed': 1", extra="{'canvas_length': 256}")) == [("eng.py", 8, "RPL005")]


@pytest.mark.parametrize(
    ("overrides", "extra"),
    [
        ("'hf_overrides': {'use_sliding_window': False}", "{}"),  # ms-swift's own: no diffusion model
        ("'seed': 1", "{}"),  # nothing to put back: `if overrides:` is false, no `hf_overrides`
    ],
)
def test_overrides_that_make_no_diffusion_model_are_clean(tmp_path: Path, overrides: str, extra: str) -> None:
    assert check(tmp_path, _overrides(overrides, extra)) == []


def test_overrides_merged_with_a_mapping_from_outside_the_tree_stay_open(tmp_path: Path) -> None:
    files = _overrides("'seed': 1", extra="load_overrides()")
    files["eng.py"] = "from cfg_loader import load_overrides\n" + files["eng.py"]
    assert check(tmp_path, files) == []
    files["rollout.py"] = files["rollout.py"].replace("'seed': 1", "'seed': 1, 'hf_overrides': {'canvas_length': 256}")
    assert check(tmp_path, files) == []  # what is merged may set `canvas_length` again: the overrides are not known


# `if mapping:` decided by what the mapping holds

TRUTH = (
    "from vllm import LLM\n"
    "extra = EXTRA\n"
    "kw = {'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n"
    "if extra:\n"
    "    kw['logprobs_mode'] = 'raw_logprobs'\n"
    "LLM(**kw)\n"
)


@pytest.mark.parametrize(("extra", "found"), [("{'a': 1}", [("run.py", 5, "RPL003")]), ("{}", []), ("dict()", [])])
def test_a_branch_on_a_known_mapping_is_decided_by_whether_it_holds_a_key(tmp_path: Path, extra: str, found: list) -> None:
    assert check(tmp_path, {"run.py": TRUTH.replace("EXTRA", extra)}) == found


def test_a_branch_on_a_mapping_that_holds_a_key_on_some_paths_only_splits_the_launch(tmp_path: Path) -> None:
    source = TRUTH.replace("extra = EXTRA\n", "import sys\nextra = {}\nif sys.argv[1:]:\n    extra['a'] = 1\n")
    findings = check(tmp_path, {"run.py": source})
    assert findings == [("run.py", 8, "RPL003")]  # only where the key is written


# ms-swift's engine: optional settings copied with `getattr` over a list of names, None skipped

ARGS = (
    "from dataclasses import dataclass\n"
    "from typing import Optional\n"
    "@dataclass\n"
    "class Arguments:\n"
    "    vllm_logprobs_mode: Optional[str] = MODE\n"
    "    vllm_return_sampling_mask: bool = True\n"
    "    def engine_kwargs(self):\n"
    "        return {'logprobs_mode': self.vllm_logprobs_mode, 'seed': 7,\n"
    "                'engine_kwargs': {'return_sampling_mask': self.vllm_return_sampling_mask}}\n"
)
LOOPING = (
    "import inspect\n"
    "from vllm import EngineArgs, LLMEngine\n"
    "class Engine:\n"
    "    def __init__(self, model, *, logprobs_mode=None, seed=None, engine_kwargs=None):\n"
    "        self.model = model\n"
    "        self.logprobs_mode = logprobs_mode\n"
    "        self.seed = seed\n"
    "        self._prepare(engine_kwargs)\n"
    "        self.engine = LLMEngine.from_engine_args(self.engine_args)\n"
    "    def _prepare(self, engine_kwargs):\n"
    "        engine_kwargs = engine_kwargs or {}\n"
    "        parameters = inspect.signature(EngineArgs).parameters\n"
    "BODY"
    "        self.engine_args = EngineArgs(model=self.model, **engine_kwargs)\n"
)
SWIFT = (
    "        for key in ['enable_sleep_mode', 'logprobs_mode', 'seed', 'quantization']:\n"
    "            if key in parameters:\n"
    "                value = getattr(self, key, None)\n"
    "                if value is not None:\n"
    "                    engine_kwargs[key] = value\n"
)
CONTINUES = (  # the same loop with early `continue`s
    "        for key in ['enable_sleep_mode', 'logprobs_mode', 'seed', 'quantization']:\n"
    "            if key not in parameters:\n"
    "                continue\n"
    "            value = getattr(self, key, None)\n"
    "            if value is None:\n"
    "                continue\n"
    "            engine_kwargs[key] = value\n"
)
MAIN = (
    "from transformers import HfArgumentParser\n"
    "from lite.args import Arguments\n"
    "from lite.engine import Engine\n"
    "(args,) = HfArgumentParser(Arguments).parse_args_into_dataclasses()\n"
    "Engine('m', **args.engine_kwargs())\n"
)


def _swift(mode: str = "None", body: str = SWIFT) -> dict[str, str]:
    return {
        "lite/__init__.py": "",
        "lite/args.py": ARGS.replace("MODE", mode),
        "lite/engine.py": LOOPING.replace("BODY", body),
        "main.py": MAIN,
    }


@pytest.mark.parametrize(
    "body",
    [
        SWIFT,
        SWIFT.replace(
            "                value = getattr(self, key, None)\n                if value is not None:\n",
            "                if (value := getattr(self, key, None)) is not None:\n",
        ),
        "        for key in OPTIONAL:\n            value = getattr(self, key, None)\n            if value is not None:\n                engine_kwargs[key] = value\n",
        "        for key in ('logprobs_mode', 'seed'):\n            if getattr(self, key, None) is not None:\n                engine_kwargs[key] = getattr(self, key)\n",
        CONTINUES,
    ],
)
def test_a_none_setting_the_getattr_loop_skips_leaves_vllm_s_default(tmp_path: Path, body: str) -> None:
    files = _swift(body=body)
    files["lite/engine.py"] = files["lite/engine.py"].replace(
        "class Engine:", "OPTIONAL = ('enable_sleep_mode', 'logprobs_mode')\nclass Engine:"
    )
    assert check(tmp_path, files) == [("args.py", 6, "RPL003")]


@pytest.mark.parametrize("body", [SWIFT, CONTINUES])
def test_a_setting_the_getattr_loop_copies_reaches_the_engine(tmp_path: Path, body: str) -> None:
    assert check(tmp_path, _swift("'processed_logprobs'", body)) == []
    assert check(tmp_path, _swift("'raw_logprobs'", body)) == [("args.py", 5, "RPL003")]


ATTRIBUTES = (
    "from vllm import EngineArgs, LLMEngine\n"
    "class Engine:\n"
    "    def __init__(self, model, seed=None):\n"
    "        self.model = model\n"
    "        self.seed = seed\n"
    "        self._start()\n"
    "    def _start(self):\n"
    "        kw = {'return_sampling_mask': True}\n"
    "        for key in ['logprobs_mode', 'seed']:\n"
    "            value = getattr(self, key, None)\n"
    "            if value is not None:\n"
    "                kw[key] = value\n"
    "        self.engine = LLMEngine.from_engine_args(EngineArgs(model=self.model, **kw))\n"
)


def test_an_attribute_the_class_never_sets_is_the_getattr_default(tmp_path: Path) -> None:
    files = {"engine.py": ATTRIBUTES, "main.py": "from engine import Engine\nEngine('m', seed=1)\n"}
    assert check(tmp_path, files) == [("engine.py", 8, "RPL003")]
    files["engine.py"] = ATTRIBUTES.replace("class Engine:\n", "class Engine:\n    logprobs_mode = 'processed_logprobs'\n")
    assert check(tmp_path, files) == []  # a class attribute is the attribute


@pytest.mark.parametrize(
    "change",
    [
        (
            "class Engine:\n",
            "class Engine:\n    def __getattr__(self, name):\n        return 'processed_logprobs'\n",
        ),  # any attribute answers
        ("class Engine:\n", "class Engine:\n    logprobs_mode: str\n"),  # a field set somewhere else
        ("        self.seed = seed\n", "        self.seed = seed\n        setattr(self, 'logprobs_mode', 'processed_logprobs')\n"),
        (
            "        self.seed = seed\n",
            "        self.seed = seed\n        if seed:\n            self.logprobs_mode = 'processed_logprobs'\n",
        ),
        ("class Engine:", "@some_registry.register\nclass Engine:"),  # a decorator may give it attributes
        ("class Engine:", "from base import Base\nclass Engine(Base):"),  # a base from elsewhere
    ],
)
def test_an_attribute_the_object_may_have_leaves_the_getattr_loop_open(tmp_path: Path, change: tuple[str, str]) -> None:
    files = {"engine.py": ATTRIBUTES.replace(*change, 1), "main.py": "from engine import Engine\nEngine('m', seed=1)\n"}
    assert check(tmp_path, files) == []


def test_an_importer_that_sets_the_attribute_leaves_the_getattr_loop_open(tmp_path: Path) -> None:
    main = "from engine import Engine\nEngine.logprobs_mode = 'processed_logprobs'\nEngine('m', seed=1)\n"
    assert check(tmp_path, {"engine.py": ATTRIBUTES, "main.py": main}) == []


@pytest.mark.parametrize(
    "body",
    [
        SWIFT.replace("'seed', 'quantization']", "'seed', 'quantization'] + EXTRA"),  # not spelt out
        SWIFT.replace("engine_kwargs[key] = value", "engine_kwargs[ALIASES[key]] = value"),  # a key not known here
        CONTINUES.replace("                continue\n", "                break\n", 1),  # a turn may end the loop
        CONTINUES.replace(
            "            engine_kwargs[key] = value\n",
            "            if value == 1:\n                continue\n            engine_kwargs[key] = value\n",
        ).replace(
            "if key not in parameters:\n                continue\n",
            "if key not in parameters:\n                print(key)\n                continue\n",
        ),
        SWIFT.replace(
            "                if value is not None:\n",
            "                if value is not None:\n                    print(key)\n                    continue\n",
        ),
    ],
)
def test_a_getattr_loop_the_reader_cannot_turn_by_turn_stays_open(tmp_path: Path, body: str) -> None:
    files = _swift(body=body)
    files["lite/engine.py"] = "from consts import EXTRA, ALIASES\n" + files["lite/engine.py"]
    assert check(tmp_path, files) == []


def test_a_turn_whose_test_is_unknown_may_write_its_key_but_a_none_value_never(tmp_path: Path) -> None:
    files = _swift(body=SWIFT.replace("            if key in parameters:\n", "            if key in ALLOWED:\n"))
    files["lite/engine.py"] = "from consts import ALLOWED\n" + files["lite/engine.py"]
    assert check(tmp_path, files) == [("args.py", 6, "RPL003")]  # `logprobs_mode` is None: not written whatever ALLOWED holds
    files["lite/args.py"] = files["lite/args.py"].replace("= None", "= 'raw_logprobs'")
    assert check(tmp_path, files) == []  # written only if ALLOWED has it: unknown, no finding


def test_a_loop_value_computed_from_the_turn_is_read_turn_by_turn(tmp_path: Path) -> None:
    source = (
        "from vllm import LLM\n"
        "MODES = {'logprobs_mode': 'raw'}\n"
        "kw = {'model': 'm', 'return_sampling_mask': True}\n"
        "for key in ('logprobs_mode',):\n"
        "    kw[key] = MODES[key] + '_logprobs'\n"
        "LLM(**kw)\n"
    )
    assert check(tmp_path, {"run.py": source}) == [("run.py", 5, "RPL003")]
    assert check(tmp_path, {"run.py": source.replace("'raw'", "'processed'")}) == []


@pytest.mark.parametrize(
    ("test", "found"),
    [
        ("'logprobs_mode' in inspect.signature(EngineArgs).parameters", [("run.py", 6, "RPL003")]),  # a field of EngineArgs
        ("'logprobs_mode' not in inspect.signature(EngineArgs).parameters", []),
    ],
)
def test_a_field_test_of_the_engine_s_signature_is_decided_for_the_fields_replay_reads(tmp_path: Path, test: str, found: list) -> None:
    source = (
        "import inspect\n"
        "from vllm import EngineArgs, LLM\n"
        "kw = {'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n"
        f"if {test}:\n"
        "    kw['my_option'] = 1\n"
        "    kw['logprobs_mode'] = 'raw_logprobs'\n"
        "LLM(**kw)\n"
    )
    assert check(tmp_path, {"run.py": source}) == found


def test_a_field_test_of_a_name_replay_does_not_read_stays_a_condition(tmp_path: Path) -> None:
    source = (
        "import inspect\n"
        "from vllm import EngineArgs, LLM\n"
        "kw = {'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n"
        "if 'my_option' in inspect.signature(EngineArgs).parameters:\n"
        "    kw['logprobs_mode'] = 'raw_logprobs'\n"
        "LLM(**kw)\n"
    )
    (tmp_path / "run.py").write_text(source)
    findings = run(tmp_path)  # may or may not be a field of the release run: reported with its condition
    assert [(f["location"]["row"], f["code"]) for f in findings] == [(5, "RPL003")]
    assert "when `'my_option' in inspect.signature(EngineArgs).parameters`" in findings[0]["message"]


# a vLLM server a helper starts with its callers' words and environment (AReaL's launcher)

LAUNCHER = (
    "import os\n"
    "import subprocess\n"
    "def launch_server_cmd(command, custom_env=None):\n"
    "    _env = os.environ.copy()\n"
    "    _env['TRITON_CACHE_PATH'] = '/tmp/triton'\n"
    "    if custom_env is not None:\n"
    "        _env.update(custom_env)\n"
    "    return SPAWN\n"
    "def build_cmd(model, port, tp=1):\n"
    "    cmd = ['vllm', 'serve', model, '--port', str(port)]\n"
    "    cmd += ['--tensor-parallel-size', str(tp)]\n"
    "    cmd += ['--return-sampling-mask', '--logprobs-mode', 'processed_logprobs', '--enable-scale-out']\n"
    "    return cmd\n"
)
SERVE = "from launcher import build_cmd, launch_server_cmd\nlaunch_server_cmd(build_cmd('m', 8000), custom_env=ENV)\n"


def _served(env: str, spawn: str = "subprocess.Popen(command, env=_env)") -> dict[str, str]:
    return {"launcher.py": LAUNCHER.replace("SPAWN", spawn), "serve.py": SERVE.replace("ENV", env)}


@pytest.mark.parametrize(
    "spawn",
    ["subprocess.Popen(command, env=_env)", "subprocess.run(command, env=_env, check=True)", "subprocess.Popen(args=command, env=_env)"],
)
def test_the_runner_variable_a_caller_gives_the_helper_s_server_is_found_at_the_caller(tmp_path: Path, spawn: str) -> None:
    assert check(tmp_path, _served("{'VLLM_USE_V2_MODEL_RUNNER': '0'}", spawn)) == [("serve.py", 2, "RPL206")]


@pytest.mark.parametrize("env", ["{'CUDA_VISIBLE_DEVICES': '0'}", "{}", "None"])
def test_a_helper_s_server_without_the_old_runner_is_clean(tmp_path: Path, env: str) -> None:
    assert check(tmp_path, _served(env)) == []


def test_the_environment_spread_with_the_caller_s_mapping_is_read_too(tmp_path: Path) -> None:
    files = _served("{'VLLM_USE_V2_MODEL_RUNNER': '0'}", "subprocess.Popen(command, env={**os.environ, **(custom_env or {})})")
    assert check(tmp_path, files) == [("serve.py", 2, "RPL206")]


def test_the_caller_s_words_are_judged_too(tmp_path: Path) -> None:
    files = _served("None")
    files["launcher.py"] = files["launcher.py"].replace("'--logprobs-mode', 'processed_logprobs', ", "")
    findings = check(tmp_path, files)
    assert [code for _, _, code in findings] == ["RPL003"]


def test_words_changed_in_place_are_not_read_as_the_literal_s(tmp_path: Path) -> None:
    files = _served("None")
    files["launcher.py"] = (
        files["launcher.py"]
        .replace("'--logprobs-mode', 'processed_logprobs', ", "")
        .replace("    return cmd\n", "    cmd.extend(['--logprobs-mode', 'processed_logprobs'])\n    return cmd\n")
    )
    assert check(tmp_path, files) == []  # without `.extend`, RPL003 (above): the words are not known, no finding


def test_an_environment_the_reader_cannot_see_leaves_the_runner_unknown(tmp_path: Path) -> None:
    files = _served("load_env()")
    files["serve.py"] = "from envs import load_env\n" + files["serve.py"]
    assert check(tmp_path, files) == []


def test_a_helper_no_caller_reaches_is_left_to_its_own_scope(tmp_path: Path) -> None:
    assert check(tmp_path, {"launcher.py": LAUNCHER.replace("SPAWN", "subprocess.Popen(command, env=_env)")}) == []


def test_a_caller_that_starts_something_else_is_no_server(tmp_path: Path) -> None:
    files = _served("{'VLLM_USE_V2_MODEL_RUNNER': '0'}")
    files["serve.py"] = (
        "from launcher import launch_server_cmd\nlaunch_server_cmd(['nginx', '-g', 'daemon off;'], custom_env={'VLLM_USE_V2_MODEL_RUNNER': '0'})\n"
    )
    assert check(tmp_path, files) == []
