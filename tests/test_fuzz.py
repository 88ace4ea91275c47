"""Fuzzing every frontend through `Checker.check_bytes`: no exception escapes, no internal
error, bounded time and memory, and `--fix` never breaks a file that parsed.

Inputs: arbitrary bytes spiced with the words that get past the prefilter; the golden fixtures
and the examples mutated (truncated, lines deleted/duplicated/swapped/joined/indented, NUL
bytes, invalid UTF-8, CR and CRLF line ends, very long lines, deep nesting of brackets, quotes,
`$(`, `sh -c`, templates, pieces of other seeds spliced in), each fed under its own name or
under every kind of file name; deeply nested Python expressions and statements; files just
under and just over the 8 MiB limit (`Config.max_file_bytes`), in a child process whose peak
memory is measured.

Example counts are bounded so that the file runs in well under a minute on two cores;
`REPLAYLINT_FUZZ_SCALE=20` runs twenty times as many examples, and `REPLAYLINT_FUZZ_SLOW=1` adds
8 MiB files of dense code (minutes and gigabytes: see `test_dense_code_just_under_the_limit`).
An example still running after `HANG_SECONDS` is stopped by SIGALRM and fails.
"""

from __future__ import annotations

import ast
import concurrent.futures
import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from replaylint import frontends
from replaylint.cli.main import main
from replaylint.engine.checker import Checker, FileResult
from replaylint.engine.config import Config

REPO = Path(__file__).resolve().parent.parent
SCALE = max(1, int(os.environ.get("REPLAYLINT_FUZZ_SCALE", "1")))
SLOW = os.environ.get("REPLAYLINT_FUZZ_SLOW") == "1"
EXAMPLE_SECONDS = 5.0  # CPU seconds each example may take (a complexity guard, not a benchmark)
HANG_SECONDS = 30  # an example still running then is a hang
LIMIT = Config().max_file_bytes  # 8 MiB: bigger files are skipped with a note
BIG_MEMORY_MB = 400  # peak memory a file just under the limit may add to the process
FUZZ = settings(
    deadline=None,  # timed by `check` instead: the first example pays for imports
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)

# -- inputs ---------------------------------------------------------------------------------------

# Each kind of file name, with what its content needs in front to be that kind (a shebang).
_NAMES = [
    ("a.py", b""),
    ("run.sh", b""),
    ("serve", b"#!/bin/bash\n"),
    ("worker", b"#!/usr/bin/env python3\n"),
    ("Dockerfile", b""),
    ("k8s.yaml", b""),
    ("compose.yaml", b""),
    (".github/workflows/ci.yml", b""),
    ("values.yaml", b""),
    ("config.toml", b""),
    ("engine.json", b""),
    ("rollout.ipynb", b'{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": "'),
    ("Makefile", b""),
    ("justfile", b""),
    ("vllm.service", b""),
    ("Procfile", b""),
    ("tox.ini", b""),
    ("supervisord.conf", b""),
    ("policy.nomad.hcl", b""),
    ("serve.def", b"Bootstrap: docker\nFrom: vllm/vllm-openai:v0.32.0\n"),
]
NAMES = [(name, head) for name, head in _NAMES if frontends.kind_for(name, head) is not None]

_PYTHON = b"from vllm import LLM\nllm = LLM('m', return_sampling_mask=True)\n"
_SHELL = b"vllm serve m --return-sampling-mask\n"
_POD = b"kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.32.0\n    args: [m, --return-sampling-mask]\n"
# A launch with a finding, for each kind of file name.
LAUNCHES = {
    "a.py": _PYTHON,
    "run.sh": _SHELL,
    "serve": _SHELL,
    "worker": _PYTHON,
    "Dockerfile": b'FROM vllm/vllm-openai:v0.32.0\nCMD ["m", "--return-sampling-mask"]\n',
    "k8s.yaml": _POD,
    "compose.yaml": b"services:\n  a:\n    image: vllm/vllm-openai:v0.32.0\n    command: m --return-sampling-mask\n",
    ".github/workflows/ci.yml": b"on: push\njobs:\n  e2e:\n    runs-on: gpu\n    steps:\n      - run: vllm serve m --return-sampling-mask\n",
    "values.yaml": b"servingEngineSpec:\n  modelSpec:\n  - name: a\n    repository: vllm/vllm-openai\n    tag: v0.32.0\n    modelURL: m\n"
    b"    vllmConfig:\n      extraArgs: [--return-sampling-mask]\n",
    "config.toml": b"enable_return_sampling_mask = true\n\n[vllm]\nmodel = 'm'\n"
    b"speculative_config = { method = 'ngram', num_speculative_tokens = 4, enable_adaptive_verification = true }\n",
    "engine.json": b'{"engine": {"model": "m", "max_model_len": 4096, "return_sampling_mask": true, "logits_processors": ["p.P"]},'
    b' "rows": [0',
    "rollout.ipynb": b"!vllm serve m --return-sampling-mask\\n# ",
    "Makefile": b"serve:\n\tvllm serve m --return-sampling-mask\n",
    "justfile": b"serve:\n    vllm serve m --return-sampling-mask\n",
    "vllm.service": b"[Service]\nExecStart=/usr/bin/vllm serve m --return-sampling-mask\n",
    "Procfile": b"web: vllm serve m --return-sampling-mask --port $PORT\n",
    "tox.ini": b"[testenv:serve]\ncommands =\n    vllm serve m --return-sampling-mask\n",
    "supervisord.conf": b"[program:policy]\ncommand=vllm serve m --return-sampling-mask\n",
    "policy.nomad.hcl": b'job "p" {\n  group "g" {\n    task "t" {\n      driver = "raw_exec"\n      config {\n'
    b'        command = "vllm"\n        args = ["serve", "m", "--return-sampling-mask"]\n      }\n    }\n  }\n}\n',
    "serve.def": b"Bootstrap: docker\nFrom: vllm/vllm-openai:v0.32.0\n\n%runscript\n    vllm serve m --return-sampling-mask\n",
}
# What closes a file of each kind after its filler (a JSON file's array and object).
TAILS = {"engine.json": b"]}\n", "rollout.ipynb": b'"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n'}


def _seeds() -> list[tuple[str, bytes]]:
    """The golden fixture inputs (named as in their case folder) and the examples."""
    seeds = []
    for case in sorted(p for p in (REPO / "fixtures").glob("*/*") if p.is_dir()):
        for path in sorted(case.rglob("*")):
            relative = path.relative_to(case)
            if path.is_file() and relative.parts[0] != "fixed" and path.name not in ("expected.txt", "args.txt"):
                seeds.append((relative.as_posix(), path.read_bytes()))
    seeds += [(path.name, path.read_bytes()) for path in sorted((REPO / "examples").rglob("*")) if path.is_file()]
    return [(name, data) for name, data in seeds if frontends.kind_for(name, data[:256]) is not None]


SEEDS = _seeds()

# Words that get past the prefilter and reach every branch of the frontends, and bytes that
# break decoders.
SPICE = [
    b"vllm serve m ",
    b"--return-sampling-mask",
    b" --return-sampling-mask=true",
    b"--return_s",
    b" --logprobs-mode ",
    b"processed_logprobs",
    b"raw_logprobs",
    b"processed-logprobs",
    b"--speculative-config ",
    b'\'{"method": "mtp", "enable_adaptive_verification": true}\'',
    b" --config ",
    b"replay.yaml",
    b"--config=replay.yaml",
    b"VLLM_USE_V2_MODEL_RUNNER=0",
    b"VLLM_USE_V2_MODEL_RUNNER",
    b" --enable-dbo",
    b" --logits-processors a:B",
    b" --enable-batch-sharded-sampling",
    b" --hf-overrides '{\"canvas_length\": 8}'",
    b"--enable-rl",
    b"DYN_ENABLE_RL=1",
    b"python -m vllm.entrypoints.openai.api_server ",
    b"python -m dynamo.vllm ",
    b"docker run vllm/vllm-openai:v0.31.0 ",
    b"pip install vllm==0.30.0\n",
    b"exec ",
    b"nohup ",
    b"env ",
    b"sudo -E ",
    b"uv run ",
    b"export ",
    b"ARGS=(",
    b'"${ARGS[@]}"',
    b'"$@"',
    b"$1",
    b"${X:-a}",
    b"$(",
    b"`",
    b"<(",
    b"sh -c '",
    b'bash -c "',
    b"<<EOF\n",
    b"\nEOF\n",
    b"<<-'EOF'\n",
    b"eval ",
    b"f() { ",
    b"; }",
    b'if [ -n "$X" ]; then ',
    b"; else ",
    b"; fi",
    b"case $X in a) ",
    b";;",
    b"esac",
    b"for i in 1 2; do ",
    b"; done",
    b"while read x; do ",
    b" && ",
    b" || ",
    b" | ",
    b";",
    b"&",
    b" \\\n",
    b"# replaylint: ignore[RPL003]",
    b"# replaylint: noqa",
    b"# noqa: RPL003",
    b"# replaylint: ignore[",
    b"-- reason",
    b"FROM vllm/vllm-openai:v0.32.0 AS base\n",
    b"FROM base\n",
    b"FROM python:3.12\n",
    b'CMD ["m", "--return-sampling-mask"',
    b"]\n",
    b'ENTRYPOINT ["vllm", "serve"]\n',
    b"CMD ",
    b"ENV ",
    b"ARG ",
    b"RUN ",
    b"COPY replay.yaml /etc/replay.yaml\n",
    b"# escape=`\n",
    b"# syntax=docker/dockerfile:1\n",
    b'SHELL ["/bin/bash", "-c"]\n',
    b"ONBUILD ",
    b"HEALTHCHECK CMD ",
    b"RUN <<EOF\n",
    b"from vllm import LLM\n",
    b"import vllm as v\n",
    b"LLM(",
    b"v.LLM(",
    b"EngineArgs(",
    b"AsyncEngineArgs(",
    b"return_sampling_mask=True",
    b"logprobs_mode='raw_logprobs'",
    b", ",
    b")",
    b"**OPTS",
    b"OPTS = {'return_sampling_mask': True}\n",
    b"import subprocess\n",
    b"subprocess.run([",
    b"'vllm', 'serve', 'm', '--return-sampling-mask'",
    b"os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n",
    b"os.system('",
    b"shell=True",
    b"env={",
    b"SamplingParams(temperature=0)",
    b"llm.generate(",
    b"beam_search(",
    b"def f():\n    ",
    b"class C:\n    ",
    b"lambda: ",
    b"async def g():\n    await ",
    b"if __name__ == '__main__':\n    ",
    b"f'{",
    b'"""',
    b"'''",
    b"\\",
    b"apiVersion: v1\n",
    b"kind: Deployment\n",
    b"kind: List\nitems:\n",
    b"spec:\n",
    b"template:\n",
    b"containers:\n",
    b"- name: vllm\n",
    b"image: vllm/vllm-openai:v0.32.0\n",
    b"args:",
    b"command:",
    b"env:",
    b'- name: VLLM_USE_V2_MODEL_RUNNER\n  value: "0"\n',
    b"valueFrom:",
    b"services:\n",
    b"x-common: &c\n",
    b"<<: *c\n",
    b"*c",
    b"&a ",
    b"!!binary ",
    b"!Ref ",
    b"---\n",
    b"...\n",
    b"%YAML 1.1\n",
    b"|\n",
    b">-\n",
    b"{{ .Values.args }}",
    b"{% if x %}",
    b"on: push\njobs:\n",
    b"run: |\n",
    b"steps:\n",
    b"servingEngineSpec:\n",
    b"modelSpec:\n",
    b"vllmConfig:\n",
    b"extraArgs: [",
    b"return_sampling_mask: true\n",
    b"logprobs_mode: raw_logprobs\n",
    b"$(VAR)",
    b"$$",
    b"${VAR:?}",
    b"[inference]\n",
    b"[orchestrator.sampling]\n",
    b"return_sampling_mask = true\n",
    b"top_k = 0\n",
    b"temperature = 0.0\n",
    b"[[",
    b"]]",
    b"\n",
    b"\r\n",
    b"\r",
    b" ",
    b"\t",
    b"  ",
    b"    ",
    b"- ",
    b": ",
    b"=",
    b'"',
    b"'",
    b"#",
    b"{",
    b"}",
    b"[",
    b"(",
    b"\x00",
    b"\xff",
    b"\xfe\xff",
    b"\xc3",
    b"\xc3\xa9",
    b"\xed\xa0\x80",
    b"\xef\xbb\xbf",
    b"\xe2\x80\xa8",
    b"\x0c",
    b"\x1b[0m",
    b"\x85",
    b"\xf0\x9f\x98\x80",
]
# (opener, closer) for deep nesting; an empty closer leaves it unbalanced.
PAIRS = [
    (b"(", b")"),
    (b"[", b"]"),
    (b"{", b"}"),
    (b"$(", b")"),
    (b'"$(', b')"'),
    (b"${X:-", b"}"),
    (b"`", b"`"),
    (b"'", b"'"),
    (b'"', b'"'),
    (b"{{", b"}}"),
    (b"- ", b""),
    (b"  ", b""),
    (b"sh -c '", b"'"),
    (b'bash -c "', b'"'),
    (b"<(", b")"),
    (b"$((", b"))"),
    (b"f'{", b"}'"),
    (b"[[ ", b" ]]"),
    (b"if true; then ", b"; fi"),
    (b"a: ", b""),
    (b"\\\n", b""),
    (b"(", b""),
    (b"", b")"),
    (b"[{", b"}]"),
    (b"!!map {", b"}"),
    (b"not ", b""),
    (b"-", b""),
    (b"lambda: ", b""),
    (b"f(", b")"),
    (b"eval ", b""),
    (b"<<EOF\n", b"\nEOF\n"),
]
LONG_UNITS = [
    b"x",
    b"--a ",
    b"\\ ",
    b"$X",
    b"'a' ",
    b"#",
    b" ",
    b"\t",
    b"{",
    b"[",
    b",",
    b"\xc3\xa9",
    b"\xff",
    b"--return-sampling-mask ",
    b"-",
    b"\\",
]

_line = st.integers(0, 1 << 16)
_pos = st.integers(0, 1 << 24)
OPERATION = st.one_of(
    st.tuples(st.just("truncate"), _pos),
    st.tuples(st.just("delete"), _line),
    st.tuples(st.just("duplicate"), _line),
    st.tuples(st.just("swap"), _line, _line),
    st.tuples(st.just("join"), _line),
    st.tuples(st.just("indent"), _line, st.integers(1, 40)),
    st.tuples(st.just("insert"), _pos, st.sampled_from(SPICE)),
    st.tuples(st.just("byte"), _pos, st.integers(0, 255)),
    st.tuples(st.just("crlf"), st.integers(1, 3)),
    st.tuples(st.just("cr"), _line),
    st.tuples(st.just("long"), _pos, st.sampled_from(LONG_UNITS), st.integers(1_000, 50_000)),
    st.tuples(st.just("nest"), _pos, st.integers(0, len(PAIRS) - 1), st.integers(2, 2_000)),
    st.tuples(st.just("splice"), st.integers(0, len(SEEDS) - 1), _pos, _pos),
)


def mutate(data: bytes, operations: list[tuple]) -> bytes:
    for operation in operations:
        name, *args = operation
        lines = data.splitlines(keepends=True) or [b""]
        count = len(lines)
        if name == "truncate":
            data = data[: args[0] % (len(data) + 1)]
        elif name == "delete":
            del lines[args[0] % count]
            data = b"".join(lines)
        elif name == "duplicate":
            line = args[0] % count
            lines.insert(line, lines[line] if lines[line].endswith((b"\n", b"\r")) else lines[line] + b"\n")
            data = b"".join(lines)
        elif name == "swap":
            a, b = args[0] % count, args[1] % count
            lines[a], lines[b] = lines[b], lines[a]
            data = b"".join(lines)
        elif name == "join":
            line = args[0] % count
            lines[line] = lines[line].rstrip(b"\r\n")
            data = b"".join(lines)
        elif name == "indent":
            line = args[0] % count
            lines[line] = b" " * args[1] + lines[line]
            data = b"".join(lines)
        elif name == "insert":
            at = args[0] % (len(data) + 1)
            data = data[:at] + args[1] + data[at:]
        elif name == "byte":
            at = args[0] % (len(data) + 1)
            data = data[:at] + bytes([args[1]]) + data[at + 1 :]
        elif name == "crlf":  # every line, every other line, or every third line ends in \r\n
            data = b"".join(
                line[:-1] + b"\r\n" if line.endswith(b"\n") and not line.endswith(b"\r\n") and index % args[0] == 0 else line
                for index, line in enumerate(lines)
            )
        elif name == "cr":
            line = args[0] % count
            lines[line] = lines[line].rstrip(b"\r\n") + b"\r"
            data = b"".join(lines)
        elif name == "long":
            at = args[0] % (len(data) + 1)
            data = data[:at] + args[1] * (args[2] // len(args[1])) + data[at:]
        elif name == "nest":
            at = args[0] % (len(data) + 1)
            opener, closer = PAIRS[args[1]]
            data = data[:at] + opener * args[2] + b"x" + closer * args[2] + data[at:]
        elif name == "splice":
            other = SEEDS[args[0]][1]
            start = args[1] % (len(other) + 1)
            piece = other[start : start + 1 + args[2] % 400]
            at = args[2] % (len(data) + 1)
            data = data[:at] + piece + data[at:]
    return data


spiced = st.lists(st.one_of(st.sampled_from(SPICE), st.binary(max_size=12)), max_size=80).map(b"".join)


# -- the properties ---------------------------------------------------------------------------------


class Hang(BaseException):
    """Raised by SIGALRM inside a check (a BaseException: replaylint must not catch it)."""


@contextlib.contextmanager
def deadline(seconds: float):
    def alarm(signum, frame):
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check(path: str, data: bytes, seconds: float = EXAMPLE_SECONDS) -> FileResult:
    """check_bytes must return (no exception, no hang), without an internal error, in time,
    with findings that point into the file."""
    start = time.process_time()  # CPU seconds: a bound on work, whatever else the machine runs
    with deadline(HANG_SECONDS):
        result = Checker(Config()).check_bytes(path, data)
    elapsed = time.process_time() - start
    assert result.internal_error is None, f"internal error on {path}: {result.internal_error}"
    assert elapsed < seconds, f"{path} ({len(data)} bytes) took {elapsed:.1f} s"
    lines = data.count(b"\n") + data.count(b"\r") + 1
    for finding in result.findings:
        span = finding.span
        assert 1 <= span.start_line <= span.end_line <= lines and span.start_col >= 1, (finding.code, span)
        assert finding.message, finding
    return result


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    """An empty folder to name the fuzzed files in (a `--config` they mention is not there)."""
    return tmp_path_factory.mktemp("fuzz")


def test_every_frontend_is_fuzzed(work: Path) -> None:
    kinds = {frontends.kind_for(name, head) for name, head in NAMES}
    assert set(frontends._MODULES) <= kinds, set(frontends._MODULES) - kinds
    assert {frontends.kind_for(name, data[:256]) for name, data in SEEDS} >= {"python", "shell", "dockerfile", "yaml"}
    for name, head in NAMES:  # each launch reaches its frontend and has a finding
        codes = [f.code for f in check(str(work / name), head + LAUNCHES[name] + TAILS.get(name, b"")).findings]
        assert codes and "RPL900" not in codes, (name, codes)


@settings(FUZZ, max_examples=150 * SCALE)
@given(name=st.sampled_from(NAMES), data=st.one_of(st.binary(max_size=4000), spiced))
def test_arbitrary_bytes(work: Path, name: tuple[str, bytes], data: bytes) -> None:
    check(str(work / name[0]), name[1] + data)


@settings(FUZZ, max_examples=200 * SCALE)
@given(seed=st.sampled_from(SEEDS), operations=st.lists(OPERATION, min_size=1, max_size=4), rename=st.sampled_from([None, None, *NAMES]))
def test_mutated_real_files(work: Path, seed: tuple[str, bytes], operations: list[tuple], rename: tuple[str, bytes] | None) -> None:
    name, data = seed
    data = mutate(data, operations)
    if rename is not None:
        name, data = rename[0], rename[1] + data
    check(str(work / name), data)


def test_every_seed_under_every_name(work: Path) -> None:
    """Each real file read as every other kind (a Dockerfile as Python, YAML as a script...)."""
    for name, head in NAMES:
        for _, data in SEEDS:
            check(str(work / name), head + data)


# Python: expressions and statements nested deeper than CPython's parser, libcst's native parser
# (which overflows its stack) or replaylint's own walks go.
_LAUNCH = "from vllm import LLM\nLLM('m', return_sampling_mask=True, x={})\n"


def _indented(header: str, depth: int) -> str:
    return (
        "".join(" " * i + header + "\n" for i in range(depth)) + " " * depth + "from vllm import LLM; LLM('m', return_sampling_mask=True)\n"
    )


PYTHON_NESTING = {
    "parentheses": lambda n: _LAUNCH.format("(" * n + "1" + ")" * n),
    "lists": lambda n: _LAUNCH.format("[" * n + "]" * n),
    "dicts": lambda n: _LAUNCH.format("{'a': " * n + "1" + "}" * n),
    "calls": lambda n: _LAUNCH.format("f(" * n + ")" * n),
    "unary": lambda n: _LAUNCH.format("-" * n + "1"),
    "not": lambda n: _LAUNCH.format("not " * n + "x"),
    "binary chain": lambda n: _LAUNCH.format("+".join(["1"] * n)),
    "string concatenation": lambda n: _LAUNCH.format("'a' " * n),
    "attribute chain": lambda n: _LAUNCH.format("a" + ".b" * n),
    "subscripts": lambda n: _LAUNCH.format("a" + "[0]" * n),
    "conditional": lambda n: _LAUNCH.format("a if b else " * n + "c"),
    "lambdas": lambda n: _LAUNCH.format("lambda: " * n + "1"),
    "f-strings": lambda n: _LAUNCH.format("f'{" * n + "1" + "}'" * n),
    "spread dicts": lambda n: "from vllm import LLM\nLLM('m', **" + "{'return_sampling_mask': True, 'x': " * n + "1" + "}" * n + ")\n",
    "comparison chain": lambda n: _LAUNCH.format(" < ".join(["a"] * min(n, 5_000))),
    "keyword arguments": lambda n: _LAUNCH.format("1, " + ", ".join(f"k{i}=1" for i in range(min(n, 3000)))),
    "blocks": lambda n: _indented("if x:", min(n, 1500)),
    "functions": lambda n: _indented("def f():", min(n, 1500)),
    "with": lambda n: _indented("with a as b, c:", min(n, 1500)),
    "argv list": lambda n: (
        "import subprocess\nsubprocess.run(['vllm', 'serve', 'm', '--return-sampling-mask', " + "[" * n + "]" * n + "])\n"
    ),
    "shell string": lambda n: "import os\nos.system('vllm serve m --return-sampling-mask " + "$(" * n + ")" * n + "')\n",
}


@pytest.mark.parametrize("shape", sorted(PYTHON_NESTING))
def test_deeply_nested_python(work: Path, shape: str) -> None:
    for depth in (50, 99, 100, 199, 1_000, 30_000):
        check(str(work / "a.py"), PYTHON_NESTING[shape](depth).encode())


# The other kinds: nesting and repetition a real file never has.
OTHER_NESTING = {
    "run.sh": [
        lambda n: b"vllm serve m --return-sampling-mask " + b"$(" * n + b"x" + b")" * n + b"\n",
        lambda n: b"vllm serve m --return-sampling-mask " + b'"$(echo ' * n + b"x" + b')"' * n + b"\n",
        lambda n: b"if true; then " * n + b"vllm serve m --return-sampling-mask" + b"; fi" * n + b"\n",
        lambda n: b"( " * n + b"vllm serve m --return-sampling-mask" + b" )" * n + b"\n",
        lambda n: b"{ " * n + b"vllm serve m --return-sampling-mask;" + b" }" * n + b"\n",
        lambda n: (
            b"f0() { vllm serve m --return-sampling-mask; }\n"
            + b"".join(b"f%d() { f%d; }\n" % (i, i - 1) for i in range(1, min(n, 200)))
            + b"f199\n"
        ),
        lambda n: b"eval " * n + b"vllm serve m --return-sampling-mask\n",
        lambda n: b"sh -c " * 1 + b"'" + b'sh -c "' * min(n, 50) + b"vllm serve m --return-sampling-mask" + b'"' * min(n, 50) + b"'\n",
        lambda n: b"bash <<EOF\n" * min(n, 200) + b"vllm serve m --return-sampling-mask\n" + b"EOF\n" * min(n, 200),
        lambda n: b"vllm serve m --return-sampling-mask ${X:-" * 1 + b"${X:-" * n + b"}" * (n + 1) + b"\n",
        lambda n: b"A=(--return-sampling-mask)\n" + b'A+=("${A[@]}")\n' * min(n, 60) + b'vllm serve m "${A[@]}"\n',
    ],
    "Dockerfile": [
        lambda n: b"FROM vllm/vllm-openai:v0.32.0\nCMD m --return-sampling-mask " + b"$(" * n + b")" * n + b"\n",
        lambda n: (
            b"FROM vllm/vllm-openai:v0.32.0\nARG A=--return-sampling-mask\n" + b"ARG A=${A:-${A}}\n" * min(n, 2000) + b'CMD ["m", "${A}"]\n'
        ),
        lambda n: b'FROM vllm/vllm-openai:v0.32.0\nCMD ["m", "--return-sampling-mask", ' + b"[" * n + b"]" * n + b"]\n",
        lambda n: b'FROM vllm/vllm-openai:v0.32.0\nCMD ["m", \\\n' + b'  "--x", \\\n' * n + b'  "--return-sampling-mask"]\n',
        lambda n: (
            b"FROM vllm/vllm-openai:v0.32.0 AS s0\n"
            + b"".join(b"FROM s%d AS s%d\n" % (i, i + 1) for i in range(min(n, 3000)))
            + b'CMD ["m", "--return-sampling-mask"]\n'
        ),
        lambda n: b"FROM python:3.12\nRUN vllm serve m --return-sampling-mask " + b'"$(' * n + b')"' * n + b"\n",
    ],
    "k8s.yaml": [
        lambda n: (
            b"kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.32.0\n    args: [--return-sampling-mask, "
            + b"[" * n
            + b"]" * n
            + b"]\n"
        ),
        lambda n: (
            b"kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.32.0\n    args:\n"
            + b"".join(b"  " * (i + 2) + b"- \n" for i in range(min(n, 2000)))
            + b"    - --return-sampling-mask\n"
        ),
        lambda n: (
            b'kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.32.0\n    command: [sh, -c, "'
            + b"sh -c '" * min(n, 100)
            + b"vllm serve m --return-sampling-mask"
            + b"'" * min(n, 100)
            + b'"]\n'
        ),
        lambda n: (
            b"a: &a [--return-sampling-mask]\n"
            + b"".join(
                b"a%d: &a%d [*a%s, *a%s]\n" % (i, i, (b"%d" % (i - 1)) if i else b"", (b"%d" % (i - 1)) if i else b"")
                for i in range(min(n, 60))
            )
        ),
        lambda n: (
            b'kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.32.0\n    args: [--return-sampling-mask, "$('
            + b"$(" * n
            + b"X"
            + b")" * n
            + b')"]\n'
        ),
    ],
    "compose.yaml": [
        lambda n: (
            b"services:\n  a:\n    image: vllm/vllm-openai:v0.32.0\n    command: m --return-sampling-mask "
            + b"${X:-" * n
            + b"}" * n
            + b"\n"
        ),
        lambda n: (
            b"x: &x\n  image: vllm/vllm-openai:v0.32.0\n"
            + b"".join(b"x%d: &x%d\n  <<: *x%s\n" % (i, i, (b"%d" % (i - 1)) if i else b"") for i in range(min(n, 2000)))
            + b"services:\n  a:\n    <<: *x1999\n    command: m --return-sampling-mask\n"
        ),
    ],
}


@pytest.mark.parametrize(("name", "shape"), [(name, index) for name, shapes in OTHER_NESTING.items() for index in range(len(shapes))])
def test_deep_nesting_in_scripts_dockerfiles_and_yaml(work: Path, name: str, shape: int) -> None:
    for depth in (10, 500, 5_000):
        check(str(work / name), OTHER_NESTING[name][shape](depth))


@pytest.mark.parametrize(
    "name",
    ["a.py", "run.sh", "Dockerfile", "k8s.yaml", "compose.yaml", ".github/workflows/ci.yml", "values.yaml", "config.toml", "engine.json"],
)
def test_very_long_lines(work: Path, name: str) -> None:
    """A 128 KB line of filler before a launch, and at the end of its last line (a command of
    30,000 words: 20 to 50 us a word for the shell, so 128 KB and not 10 MB)."""
    if name not in LAUNCHES or frontends.kind_for(name) is None:
        pytest.skip(f"no frontend reads {name}")
    head, launch = dict(NAMES).get(name, b""), LAUNCHES[name] + TAILS.get(name, b"")
    for unit in (b"x", b"--return-sampling-mask ", b"\xc3\xa9", b"'a' ", b"${"):
        long_line = unit * (128_000 // len(unit))
        check(str(work / name), head + long_line + b"\n" + launch)
        check(str(work / name), head + launch.rstrip(b"\n") + b" " + long_line + b"\n")


# -- --fix ----------------------------------------------------------------------------------------


def valid(kind: str, data: bytes) -> bool:
    """Whether a file is valid in its language, by the language's own tools where there are
    any (CPython, bash -n, PyYAML, tomllib), else by the frontend's check."""
    text = data.decode("utf-8", "surrogateescape")
    if kind == "python":
        try:
            compile(data, "a.py", "exec", ast.PyCF_ONLY_AST)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
        return True
    if kind == "shell" and shutil.which("bash"):
        return subprocess.run(["bash", "--norc", "-O", "extglob", "-n"], input=data, capture_output=True, timeout=20).returncode == 0
    if kind == "yaml":
        try:
            for _ in yaml.compose_all(data, Loader=yaml.SafeLoader):
                pass
        except (yaml.YAMLError, RecursionError, ValueError):
            return False
        return True
    if kind == "toml":
        tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
        try:
            tomllib.loads(text)
        except (tomllib.TOMLDecodeError, UnicodeError):
            return False
        return True
    return frontends.load(kind).parses(text)


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), deadline(HANG_SECONDS):
        status = main(["check", "--isolated", "--no-cache", "--no-respect-gitignore", *args])
    return status, out.getvalue(), err.getvalue()


# Mutations that often leave a file valid, so that the property below is often put to the test.
GENTLE = st.one_of(
    st.tuples(st.just("delete"), _line),
    st.tuples(st.just("duplicate"), _line),
    st.tuples(st.just("swap"), _line, _line),
    st.tuples(st.just("crlf"), st.integers(1, 3)),
    st.tuples(
        st.just("insert"),
        _pos,
        st.sampled_from([b" ", b"\n", b"\t", b"# c\n", b"\\\n", b" --return-sampling-mask", b" --logprobs-mode x", b"\xc3\xa9"]),
    ),
    OPERATION,
)


@settings(FUZZ, max_examples=60 * SCALE)
@given(seed=st.sampled_from(SEEDS), operations=st.lists(GENTLE, max_size=3), unsafe=st.booleans())
def test_fix_never_breaks_a_file_that_parsed(work: Path, seed: tuple[str, bytes], operations: list[tuple], unsafe: bool) -> None:
    name, data = seed
    data = mutate(data, operations)
    path = Path(tempfile.mkdtemp(dir=work)) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    kind = frontends.kind_for(name, data[:256])
    status, out, err = cli("--fix", *(["--unsafe-fixes"] if unsafe else []), str(path))
    assert status in (0, 1), err
    assert "internal error" not in err and "Traceback" not in err, err
    fixed = path.read_bytes()
    if kind is not None and fixed != data and valid(kind, data):
        assert valid(kind, fixed), (
            f"--fix broke a valid {kind} file:\n--- before\n{data.decode(errors='replace')}\n--- after\n{fixed.decode(errors='replace')}"
        )
    status, out, err = cli("--diff", *(["--unsafe-fixes"] if unsafe else []), str(path))  # and the result checks again
    assert "Traceback" not in err and "internal error" not in err, err


# -- 10 MB files: skipped with a note above the limit, handled in bounded time and memory below -----

# Each kind: a launch, then a filler block repeated up to the size (comments, blank lines and
# ordinary statements: what generated files are made of).
BIG = {
    "a.py": b"# generated\n" * 24 + b"\ndef f(x):\n    return x + 1\n\n",
    "run.sh": b"# generated\n" * 24 + b"\necho step\nX=1\n",
    "Dockerfile": b"# generated\n" * 24 + b"\nENV A=1\nLABEL a=b\n",
    "k8s.yaml": b"# generated\n" * 24 + b"---\nkind: ConfigMap\ndata: {a: b}\n",
    "compose.yaml": b"# generated\n" * 24 + b"  b:\n    image: redis\n",
    "config.toml": b"# generated\n" * 24 + b"\n[[t]]\na = 1\n",
    "engine.json": b', {"id": 1, "text": "a generated row", "score": 0.5}',
}
BIG = {name: (LAUNCHES[name], filler, TAILS.get(name, b"")) for name, filler in BIG.items() if frontends.kind_for(name) is not None}

_CHILD = r"""
import json, resource, sys, time
from replaylint.engine.checker import Checker
from replaylint.engine.config import Config

name, head, filler, tail = sys.argv[1], *map(bytes.fromhex, sys.argv[2:5])
Checker(Config()).check_bytes(name, head + tail)  # imports and first-use caches are not the file's cost
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for size in map(int, sys.argv[5:]):  # the biggest last: what it adds is the peak
    data = head + filler * ((size - len(head) - len(tail)) // len(filler))
    data += (b" " if tail else b"#") * (size - len(data) - len(tail)) + tail
    start = time.process_time()  # CPU seconds: the bound is on work, not on the machine's load
    result = Checker(Config()).check_bytes(name, data)
    seconds = time.process_time() - start
    del data
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"size": size, "seconds": seconds, "memory_mb": (peak - before) / 1024, "codes": sorted({f.code for f in result.findings}),
                      "notes": result.notes, "internal_error": result.internal_error}))
"""


def run_child(name: str, sizes: list[int], head: bytes, filler: bytes, tail: bytes, timeout: float) -> list[dict]:
    """Check generated files of these sizes in a fresh interpreter, one after the other: the time
    of each and the peak memory the process reached over its start (the sizes in ascending
    order of cost, so that each peak is the latest file's own)."""
    try:
        completed = subprocess.run(
            [sys.executable, "-c", _CHILD, name, head.hex(), filler.hex(), tail.hex(), *map(str, sizes)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name} of {sizes} bytes: still running after {timeout} s")
    assert completed.returncode == 0, completed.stderr[-3000:]
    return [json.loads(line) for line in completed.stdout.strip().splitlines()[-len(sizes) :]]


def test_files_at_the_size_limit() -> None:
    """Just under 8 MiB: checked (the launch found) within 20 s of CPU, adding less than
    BIG_MEMORY_MB to the process. Just over it and 10 MB: RPL902 at once (a launch is in the
    first 8 MiB, so the file is not skipped silently). One
    interpreter per kind (peak memory is per process), two at a time."""
    sizes = [LIMIT + 1, 10_000_000, LIMIT - 1024]  # the skipped ones first: they add next to nothing
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda name: run_child(name, sizes, *BIG[name], timeout=180), sorted(BIG)))
    problems = []
    for name, report in ((name, report) for name, reports in zip(sorted(BIG), runs) for report in reports):
        if report["internal_error"] is not None:
            problems.append((name, report))
        elif report["size"] < LIMIT:
            if not report["codes"] or "RPL900" in report["codes"] or report["notes"]:
                problems.append((name, report))  # the launch must be found
            elif report["seconds"] >= 20 or report["memory_mb"] >= BIG_MEMORY_MB:
                problems.append((name, report))
        elif report["codes"] != ["RPL902"] or report["notes"] or report["seconds"] >= 1:
            problems.append((name, report))
    assert not problems, problems


@pytest.mark.parametrize(
    ("head", "filler", "tail"),
    [
        # one string of 8 MiB (a token pattern with an alternative in its loop kept state for each
        # character: 922 MB)
        (LAUNCHES["engine.json"].replace(b'"rows": [0', b'"rows": "'), b"x" * 64, b'"}\n'),
        # a million small arrays: json's own objects, nothing more
        (LAUNCHES["engine.json"], b", [1]", TAILS["engine.json"]),
    ],
)
def test_hostile_json_at_the_size_limit(head: bytes, filler: bytes, tail: bytes) -> None:
    (report,) = run_child("engine.json", [LIMIT - 1024], head, filler, tail, timeout=180)
    assert report["codes"] == ["RPL001"] and not report["notes"], report
    assert report["seconds"] < 20 and report["memory_mb"] < BIG_MEMORY_MB, report


def test_10_mb_files_on_disk_are_reported_unread_by_the_cli(tmp_path: Path) -> None:
    for name, (head, filler, tail) in BIG.items():
        (tmp_path / name).write_bytes(head + filler * (10_000_000 // len(filler)) + tail)
    start = time.perf_counter()
    status, out, err = cli(str(tmp_path))
    assert status == 1 and time.perf_counter() - start < 10, (status, out, err)
    assert all(f"{name}:1:1: RPL902 file not fully analysed: 9.5 MiB is above the 8 MiB limit" in out for name in BIG), out


@pytest.mark.skipif(not SLOW, reason="minutes and gigabytes: REPLAYLINT_FUZZ_SLOW=1")
@pytest.mark.parametrize(
    ("name", "filler"),
    [
        ("a.py", b"def f():\n    return 1\n"),
        ("a.py", b"x = 1  # filler\n"),
        ("run.sh", b"echo filler line\n"),
        ("Dockerfile", b"RUN echo hi\n"),
        ("k8s.yaml", b"---\nkind: ConfigMap\ndata: {a: b}\n"),
    ],
)
def test_dense_code_just_under_the_limit(name: str, filler: bytes) -> None:
    """8 MiB with a statement on every line: no hang and no internal error; the time and the
    memory are printed (they are far above the bounds of the test above)."""
    (report,) = run_child(name, [LIMIT - 1024], BIG[name][0], filler, b"", timeout=900)
    print(name, filler, report)
    assert report["internal_error"] is None and report["codes"], report


# -- regressions found by fuzzing ---------------------------------------------------------------


def _timed(name: str, data: bytes):
    start = time.process_time()
    result = Checker(Config()).check_bytes(name, data)
    return result, time.process_time() - start


def test_unbalanced_braces_in_a_shell_word_take_linear_time() -> None:
    # The brace-expansion test was a regex that took quadratic time: 23 s for `{,` * 20000.
    for word in (b"{" * 20000 + b"x" + b"}" * 20000, b"{," * 20000, b"{a" * 20000 + b".."):
        result, seconds = _timed("run.sh", b"vllm serve m --return-sampling-mask " + word + b"\n")
        assert result.internal_error is None
        assert [f.code for f in result.findings] == ["RPL003", "RPL301"]
        assert seconds < 5, seconds


def test_many_statements_on_one_python_line_take_linear_time() -> None:
    # Each statement's line was searched once per statement (and `from vllm import ... as`
    # scanned to the end of the line from each import): 90 s for 8000 imports on one line.
    data = b"from vllm import LLM\n" + b"from vllm import x; " * 4000 + b"\nLLM('m', return_sampling_mask=True)\n"
    result, seconds = _timed("a.py", data)
    assert result.internal_error is None and [f.code for f in result.findings] == ["RPL003"]
    assert seconds < 10, seconds


def test_a_repeated_shell_condition_is_not_kept_once_per_if() -> None:
    # Each `if` appended its condition again, and joining worlds compared the growing tuples:
    # 20 s for 16000 identical `if`s.
    data = b'if [ -n "$X" ]; then A=1; else A=2; fi\n' * 12000 + b"vllm serve m --return-sampling-mask\n"
    result, seconds = _timed("run.sh", data)
    assert result.internal_error is None and [f.code for f in result.findings] == ["RPL003", "RPL301"]
    assert seconds < 10, seconds


def test_many_dockerfile_stages_take_linear_time() -> None:
    # Each FROM searched every earlier stage for its base: 10 s for 16000 stages.
    data = b"".join(b"FROM vllm/vllm-openai:v0.32.0 AS s%d\nENV A%d=1\n" % (i, i) for i in range(16000))
    result, seconds = _timed("Dockerfile", data + b'FROM s15999\nCMD ["m", "--return-sampling-mask"]\n')
    assert result.internal_error is None and [f.code for f in result.findings] == ["RPL003", "RPL301"]
    assert seconds < 10, seconds


def test_form_feeds_and_unicode_line_separators_do_not_hide_python_launches() -> None:
    # The focus split lines with str.splitlines, which also breaks at \x0c, \x1c, U+2028...:
    # its line numbers no longer matched ast's, and the launch after one was never seen.
    for odd in ("\x0c", "\x1c", "\u2028", "\x85"):
        data = f"# page{odd}break\ndef f():\n    pass\nfrom vllm import LLM\nLLM('m', return_sampling_mask=True)\n"
        result, _ = _timed("a.py", data.encode())
        assert result.internal_error is None
        assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL003", 5)], odd


def test_comment_lines_and_skipped_functions_cost_libcst_one_token() -> None:
    # libcst read every blank and comment line as a node: 8 MiB of comments cost 16 s, 500 MB.
    launch = b"from vllm import LLM\nllm = LLM('m', return_sampling_mask=True)\n"
    for filler in (b"# a comment line\n" * 120_000, b"def f():\n    return 1\n\n" * 20_000, b"x = 1 \\\n\n" + b"# c\n" * 1000):
        result, seconds = _timed("a.py", filler + launch + filler)
        assert result.internal_error is None
        assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL003", filler.count(b"\n") + 2)]
        assert seconds < 10, seconds


def test_shell_values_that_double_become_unknown_instead_of_filling_memory() -> None:
    # `A="$A$A"`, `A+=("${A[@]}")`, `set -- "$@" "$@"` twenty times: a million words, minutes and
    # gigabytes (bash itself would never finish). Past 4096 words the value is unknown.
    for body in (b'A="$A$A"\n', b'A+=("${A[@]}")\n', b'A=("${A[@]}" "${A[@]}")\n', b'set -- "$@" "$@"\n'):
        script = b"A=(--x)\nset -- a\n" + body * 60 + b'vllm serve m --return-sampling-mask "${A[@]}" "$@"\n'
        result, seconds = _timed("run.sh", script)
        assert result.internal_error is None and seconds < 10, (body, seconds)
    result, _ = _timed("run.sh", b"A=--x\n" + b'A="$A $A"\n' * 60 + b"vllm serve m --return-sampling-mask\n")
    assert [f.code for f in result.findings] == ["RPL003", "RPL301"]


def test_an_unterminated_dockerfile_heredoc_is_reported_at_its_line() -> None:
    # The reader reported the last line's text as the line number: a TypeError escaped check_bytes.
    data = b'FROM vllm/vllm-openai:v0.31.0\nCOPY <<EOF /etc/x\nCMD ["m", "--return-sampling-mask"]\n'
    result, _ = _timed("Dockerfile", data)
    assert result.internal_error is None
    assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL900", 2)]


def test_compose_command_strings_long_or_ending_in_a_backslash() -> None:
    # A command ending in a backslash raised IndexError (internal error); splitting sliced the
    # string once per character (10 s for a 1 MB command); `${` without `}` rescanned the rest
    # of the string from each one (4.5 s for 100 KB).
    head = b"services:\n  a:\n    image: vllm/vllm-openai:v0.32.0\n    command: m --return-sampling-mask "
    for tail, seconds_at_most in ((b"\\", 1), (b"x" * 1_000_000, 5), (b'"' + b"y" * 1_000_000 + b'"', 5), (b"${" * 100_000, 5)):
        result, seconds = _timed("compose.yaml", head + tail + b"\n")
        assert result.internal_error is None and seconds < seconds_at_most, (tail[:10], seconds)
        assert [f.code for f in result.findings] == ["RPL003", "RPL301"]


def test_a_huge_bare_expression_is_not_read_by_libcst() -> None:
    # A top-level literal that binds and calls nothing went to libcst whole: 10 s for 256 KB.
    data = b'{"a": 1}, ' * 25_600 + b"\n" + b"from vllm import LLM\nllm = LLM('m', return_sampling_mask=True)\n"
    result, seconds = _timed("a.py", data)
    assert result.internal_error is None and seconds < 5, seconds
    assert [(f.code, f.span.start_line) for f in result.findings] == [("RPL003", 3)]


# -- bugs fuzzing found, each with its minimal example ---------------------------------------------


def test_python_with_lone_cr_line_breaks() -> None:
    # libcst and CPython count a lone \r as a line break; LineIndex once did not (IndexError).
    result, _ = _timed("a.py", b"import os\rfrom vllm import LLM\rLLM('m', return_sampling_mask=True)\r")
    assert [(f.code, f.span.start_line, f.span.start_col) for f in result.findings] == [("RPL003", 3, 10)]


def test_coding_cookie_whose_codec_raises_unicode_error() -> None:
    # The punycode and `undefined` codecs raise UnicodeError, not UnicodeDecodeError.
    for codec in (b"punycode", b"undefined"):
        result, _ = _timed("a.py", b"# coding: " + codec + b"\nfrom vllm import LLM\nLLM('m', return_sampling_mask=True)\n")
        assert [f.code for f in result.findings] == ["RPL900"]


def test_suppression_after_a_form_feed() -> None:
    # str.splitlines also breaks at \x0c and U+2028: suppressions must be numbered like spans.
    result, _ = _timed("run.sh", b"# page\x0cbreak\nvllm serve m --return-sampling-mask  # replaylint: ignore[RPL003, RPL301]\n")
    assert result.findings == []


def test_decode_error_position_after_a_bom() -> None:
    # decode() drops the BOM: the position and the byte named must still be the file's own.
    result, _ = _timed("k8s.yaml", b"\xef\xbb\xbfkind: Pod\nspec: {a: caf\xe9}\n--return-sampling-mask\n")
    assert [(f.span.start_line, f.span.start_col) for f in result.findings] == [(2, 14)] and "0xe9" in result.findings[0].message


def test_hydra_numbers_are_read_in_linear_time() -> None:
    # `(\d[\d_]*)?\.?\d[\d_]*` backtracked over every split of a digit run (minutes for 100,000).
    script = b"python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm +actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=True trainer.x="
    result, seconds = _timed("run.sh", script + b"1" * 8_000 + b"x\n")
    assert result.internal_error is None and seconds < 0.5, seconds


def test_invalid_escapes_in_a_checked_file_print_no_warning() -> None:
    # ast.parse warned about the user's `"\d"` (a SyntaxWarning printed on stderr from Python
    # 3.12; under -W error the file fell back to a whole-file libcst parse).
    import warnings

    data = b'from vllm import LLM\nx = "\\d"\nLLM("m", return_sampling_mask=True)\n'
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result, _ = _timed("a.py", data)
    assert [f.code for f in result.findings] == ["RPL003"]
    assert [str(w.message) for w in caught] == []
