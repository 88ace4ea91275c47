"""Spellings of engine arguments, requests and environment writes the value flow follows, found
missing by the third held-out round (tests/data/python_flow/h4_*): each as a user writes it, with
what vLLM 0.34.0 refuses, and a neighbour that stays clean or open."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main


def findings(tree: Path) -> list[tuple[str, int, str, str]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--isolated", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tree)])
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"], f["message"]) for f in json.loads(out.getvalue()))


def write(tree: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tree / name).write_text(text)
    return tree


def codes(tree: Path) -> list[tuple[str, int, str]]:
    return [(name, line, code) for name, line, code, _ in findings(tree)]


REPLAY = 'LLM("m", return_sampling_mask=True, logprobs_mode="processed_logprobs")'


def test_an_environ_update_of_the_runner_variable_is_reported_at_its_entry(tmp_path: Path) -> None:
    body = 'import os\nos.environ.update({\n    "A": "1",\n    "VLLM_USE_V2_MODEL_RUNNER": "0",\n})\nfrom vllm import LLM\nLLM("m")\n'
    assert codes(write(tmp_path, {"run.py": body})) == [("run.py", 4, "RPL206")]
    keywords = 'import os\nos.environ.update(VLLM_USE_V2_MODEL_RUNNER="0")\nfrom vllm import LLM\nLLM("m")\n'
    assert codes(write(tmp_path, {"run.py": keywords})) == [("run.py", 2, "RPL206")]


def test_fixing_an_environ_update_keeps_the_other_variables(tmp_path: Path) -> None:
    body = 'import os\nos.environ.update({"A": "1", "VLLM_USE_V2_MODEL_RUNNER": "0"})\nfrom vllm import LLM\nLLM("m")\n'
    write(tmp_path, {"run.py": body})
    with contextlib.redirect_stdout(io.StringIO()):
        main(["check", "--isolated", "--no-cache", "--target-vllm", "0.34.0", "--fix", "--unsafe-fixes", str(tmp_path)])
    assert (tmp_path / "run.py").read_text() == body  # no safe edit of one entry yet: nothing is lost


def test_a_subprocess_environment_copied_from_os_environ_with_the_runner_variable(tmp_path: Path) -> None:
    body = (
        "import os, subprocess\n"
        'env = dict(os.environ, VLLM_USE_V2_MODEL_RUNNER="0")\n'
        'subprocess.Popen(["vllm", "serve", "m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs",'
        ' "--enable-scale-out"], env=env)\n'
    )
    assert codes(write(tmp_path, {"serve.py": body})) == [("serve.py", 2, "RPL206")]
    unknown = body.replace("dict(os.environ,", "dict(load_env(),")
    assert codes(write(tmp_path, {"serve.py": unknown})) == []  # a mapping from elsewhere: open


def test_a_request_made_by_a_partial_of_sampling_params_carries_its_keywords(tmp_path: Path) -> None:
    body = (
        "import functools\nfrom vllm import LLM, SamplingParams\n"
        f"llm = {REPLAY}\n"
        "make = functools.partial(SamplingParams, temperature=1.0, top_k=TOP_K)\n"
        'llm.generate(["p"], make(n=4))\n'
    )
    assert codes(write(tmp_path, {"gen.py": body.replace("TOP_K", "-1")})) == [("gen.py", 4, "RPL102")]
    assert codes(write(tmp_path, {"gen.py": body.replace("TOP_K", "50")})) == []


def test_json_loads_of_a_known_text_and_argparse_type_json_loads(tmp_path: Path) -> None:
    loads = 'import json\nfrom vllm import LLM\nCFG = json.loads(\'{"return_sampling_mask": true}\')\nLLM("m", **CFG)\n'
    ((_, line, code, message),) = findings(write(tmp_path, {"a.py": loads}))
    assert (line, code) == (3, "RPL003") and '`"return_sampling_mask": true`' in message
    option = (
        "import argparse, json\nfrom vllm import LLM\np = argparse.ArgumentParser()\n"
        'p.add_argument("--engine-args", type=json.loads, default=\'{"return_sampling_mask": true, "logprobs_mode": MODE}\')\n'
        "args = p.parse_args()\n"
        'LLM("m", **args.engine_args)\n'
    )
    (tmp_path / "a.py").unlink()
    assert codes(write(tmp_path, {"b.py": option.replace("MODE", '"raw_logits"')})) == [("b.py", 4, "RPL003")]
    assert codes(write(tmp_path, {"b.py": option.replace("MODE", '"processed_logprobs"')})) == []


def test_a_self_attribute_set_from_an_item_of_a_returned_tuple(tmp_path: Path) -> None:
    body = (
        "from vllm import LLM, SamplingParams\n"
        "def build():\n"
        '    return {"model": "m", "return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}, SAMPLING\n'
        "class Rollout:\n"
        "    def __init__(self):\n"
        "        engine, self.sampling = build()\n"
        "        self.llm = LLM(**engine)\n"
        "    def run(self, prompts):\n"
        "        return self.llm.generate(prompts, SamplingParams(**self.sampling))\n"
        "Rollout().run(['p'])\n"
    )
    assert codes(write(tmp_path, {"r.py": body.replace("SAMPLING", '{"temperature": 1.0}')})) == [("r.py", 9, "RPL102")]
    assert codes(write(tmp_path, {"r.py": body.replace("SAMPLING", '{"temperature": 1.0, "top_k": 8}')})) == []


def test_a_classmethod_that_builds_the_engine_is_read_with_its_callers_arguments(tmp_path: Path) -> None:
    body = (
        "from vllm import AsyncEngineArgs\n"
        "class Engine:\n"
        "    def __init__(self, args):\n"
        "        self.args = args\n"
        "    @classmethod\n"
        "    def from_mode(cls, mode):\n"
        '        return cls(AsyncEngineArgs(model="m", return_sampling_mask=True, logprobs_mode=mode))\n'
        "Engine.from_mode(MODE)\n"
    )
    assert codes(write(tmp_path, {"e.py": body.replace("MODE", '"raw_logprobs"')})) == [("e.py", 8, "RPL003")]
    assert codes(write(tmp_path, {"e.py": body.replace("MODE", '"processed_logprobs"')})) == []
    assert codes(write(tmp_path, {"e.py": body.replace("MODE", "read_mode()")})) == []  # from run time: open


def test_a_file_the_prefilter_passes_reads_the_mask_of_a_settings_module_it_imports(tmp_path: Path) -> None:
    # main.py passes the prefilter for its runner variable, so the settings module does not
    # read it as a user of its names: main.py follows the import itself.
    files = {
        "settings.py": 'ARGS = {"return_sampling_mask": True}\n',
        "main.py": 'import os\nos.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\n'
        'from vllm import LLM\nfrom settings import ARGS\nLLM("m", **ARGS)\n',
    }
    assert codes(write(tmp_path, files)) == [("main.py", 2, "RPL206"), ("settings.py", 1, "RPL003")]


def test_a_property_of_a_config_object_is_read_with_the_objects_fields(tmp_path: Path) -> None:
    body = (
        "from dataclasses import dataclass\nfrom vllm import LLM\n"
        "@dataclass\nclass Args:\n"
        '    mode: str = "processed_logprobs"\n'
        "    @property\n"
        "    def engine_kwargs(self):\n"
        '        return {"model": "m", "return_sampling_mask": True, "logprobs_mode": self.mode}\n'
        "def build(args: Args):\n"
        "    return LLM(**args.engine_kwargs)\n"
        "build(MADE)\n"
    )
    assert codes(write(tmp_path, {"a.py": body.replace("MADE", "Args()")})) == []
    assert codes(write(tmp_path, {"a.py": body.replace("MADE", 'Args(mode="raw_logprobs")')})) == [("a.py", 11, "RPL003")]


def test_ray_datas_vllm_processor_config_builds_an_engine_from_its_engine_kwargs(tmp_path: Path) -> None:
    body = (
        "from ray.data.llm import build_llm_processor, vLLMEngineProcessorConfig\n"
        "ENGINE = {\n"
        '    "return_sampling_mask": True,\n'
        "    MODE\n"
        "}\n"
        'config = vLLMEngineProcessorConfig(model_source="m", engine_kwargs=ENGINE, concurrency=1)\n'
    )
    assert codes(write(tmp_path, {"b.py": body.replace("MODE", "")})) == [("b.py", 3, "RPL003")]
    assert codes(write(tmp_path, {"b.py": body.replace("MODE", '"logprobs_mode": "processed_logprobs",')})) == []
    assert codes(write(tmp_path, {"b.py": body.replace("MODE", "**EXTRA,")})) == []  # keys nobody can see: open


def test_vllms_flexible_argument_parser_is_a_parser(tmp_path: Path) -> None:
    body = (
        "from vllm import LLM\nfrom vllm.utils.argparse_utils import FlexibleArgumentParser\n"
        "parser = FlexibleArgumentParser()\n"
        'parser.add_argument("--logprobs-mode", default=MODE)\n'
        "args = parser.parse_args()\n"
        'LLM("m", return_sampling_mask=True, logprobs_mode=args.logprobs_mode)\n'
    )
    assert codes(write(tmp_path, {"g.py": body.replace("MODE", '"raw_logprobs"')})) == [("g.py", 4, "RPL003")]
    assert codes(write(tmp_path, {"g.py": body.replace("MODE", '"processed_logprobs"')})) == []


def test_ray_datas_rows_carry_requests_to_the_processors_engine(tmp_path: Path) -> None:
    body = (
        "from ray.data.llm import build_llm_processor, vLLMEngineProcessorConfig\n"
        'ENGINE = {"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}\n'
        'config = vLLMEngineProcessorConfig(model_source="m", engine_kwargs=ENGINE)\n'
        "processor = build_llm_processor(\n"
        "    config,\n"
        '    preprocess=lambda row: dict(prompt=row["p"], sampling_params=PARAMS),\n'
        ")\n"
    )
    assert codes(write(tmp_path, {"b.py": body.replace("PARAMS", "dict(temperature=1.0)")})) == [("b.py", 6, "RPL102")]
    assert codes(write(tmp_path, {"b.py": body.replace("PARAMS", "dict(temperature=1.0, top_k=20)")})) == []
    assert codes(write(tmp_path, {"b.py": body.replace("PARAMS", 'row["params"]')})) == []  # from the data: open


def _notebook(*cells: str) -> str:
    return json.dumps(
        {
            "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": cell} for cell in cells],
            "metadata": {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def test_a_notebook_that_builds_the_engine_from_a_settings_module_of_the_tree(tmp_path: Path) -> None:
    files = {
        "rollout_config.py": 'ENGINE_ARGS = dict(model="m", return_sampling_mask=True, logprobs_mode="processed_logprobs")\n',
        "rollout.ipynb": _notebook(
            "from rollout_config import ENGINE_ARGS\nfrom vllm import LLM, SamplingParams\nllm = LLM(**ENGINE_ARGS)",
            "llm.generate(['p'], SamplingParams(temperature=TEMPERATURE, top_k=20))",
        ),
    }
    greedy = write(tmp_path, {**files, "rollout.ipynb": files["rollout.ipynb"].replace("TEMPERATURE", "0")})
    ((name, line, code, _),) = findings(greedy)
    assert (name, line, code) == ("rollout.ipynb", 1, "RPL101")
    # Only the settings module named, as pre-commit names a changed file: the notebook is read from it.
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(
            [
                "check",
                "--isolated",
                "--no-cache",
                "--target-vllm",
                "0.34.0",
                "--output-format",
                "concise",
                str(greedy / "rollout_config.py"),
            ]
        )
    assert "rollout.ipynb:cell 2:1:" in out.getvalue() and "RPL101" in out.getvalue()
    assert findings(write(tmp_path, {**files, "rollout.ipynb": files["rollout.ipynb"].replace("TEMPERATURE", "0.8")})) == []


def test_vllms_own_engine_options_on_a_parser_keep_their_defaults(tmp_path: Path) -> None:
    body = (
        "from vllm import LLM, EngineArgs\nfrom vllm.utils.argparse_utils import FlexibleArgumentParser\n"
        "parser = FlexibleArgumentParser()\n"
        "ADDS(parser)\n"
        "parser.set_defaults(return_sampling_mask=True, MORE)\n"
        "LLM(**vars(parser.parse_args()))\n"
    )
    adds = body.replace("ADDS", "EngineArgs.add_cli_args")
    ((_, line, code, message),) = findings(write(tmp_path, {"g.py": adds.replace(", MORE", "")}))
    assert (line, code) == (5, "RPL003") and "when vLLM's engine options keep the defaults `EngineArgs.add_cli_args`" in message
    assert codes(write(tmp_path, {"g.py": adds.replace("MORE", 'logprobs_mode="processed_logprobs"')})) == []
    helper = body.replace("ADDS", "add_my_options").replace(", MORE", "")  # options nobody can see: open
    assert codes(write(tmp_path, {"g.py": helper})) == []
    # Every engine option is in the namespace: a keyword beside it is a TypeError, the launch open.
    beside = adds.replace(", MORE", "").replace("LLM(**vars", "LLM(seed=1, **vars")
    assert codes(write(tmp_path, {"g.py": beside})) == []


def test_callers_are_looked_for_only_in_modules_that_import_the_function(tmp_path: Path) -> None:
    # `build(` is everywhere (setuptools, docs builders): the modules near `engine.py` that call a
    # `build` of their own are not read, so the tree's bound on modules read is not reached
    # (RPL902) and the one real caller still decides.
    engine = "from vllm import LLM\ndef build(*args, **kwargs):\n    return LLM('m', return_sampling_mask=True, **kwargs)\n"
    others = {f"tool_{n}.py": "from setuptools import build\nbuild()\n" for n in range(30)}
    assert codes(write(tmp_path, {"engine.py": engine, **others})) == [("engine.py", 3, "RPL003")]
    caller = "from engine import build\nbuild(logprobs_mode='processed_logprobs')\n"
    assert codes(write(tmp_path, {"zz_main.py": caller})) == []


def test_a_runner_variable_write_over_lines_and_in_pieces_is_read(tmp_path: Path) -> None:
    # The flow walks a statement for these calls only where its lines hold `environ.setdefault`
    # or `environ.pop`: the key may be on another line, in pieces.
    body = f'import os\nos.environ.setdefault(\n    "VLLM_USE_V2_"\n    "MODEL_RUNNER",\n    "0",\n)\nfrom vllm import LLM\n{REPLAY}\n'
    assert codes(write(tmp_path, {"run.py": body})) == [("run.py", 2, "RPL206")]
    removed = body.replace("os.environ.setdefault(", 'os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\nos.environ.pop(')
    assert codes(write(tmp_path, {"run.py": removed})) == []
