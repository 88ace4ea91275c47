"""Readings added for the seventh held-out RPL3xx round (tests/test_rpl3_heldout7.py): supervisord
programs, a request value from a config dataclass's field, and a dict written into a command line
through `json.dumps`, each in spellings beyond the held-out cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint.frontends import kind_for, relevant
from tests.test_command_lines import MASK, SERVE, findings

# -- supervisord programs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("supervisord.conf", "supervisord"),
        ("deploy/supervisor/conf.d/policy.conf", "supervisord"),
        ("etc/supervisord.d/policy.ini", "supervisord"),  # RHEL's `files = supervisord.d/*.ini`
        ("tox.ini", "tox"),
        ("pytest.ini", "supervisord"),  # read only when it has a `[program:]` (below)
    ],
)
def test_supervisord_files_are_read_as_supervisord_programs(path: str, kind: str | None) -> None:
    assert kind_for(path) == kind


def test_the_prefilter_keeps_only_conf_files_with_a_program() -> None:
    assert relevant("supervisord", f"[program:policy]\ncommand={SERVE}\n".encode())
    assert not relevant("supervisord", f"# {SERVE}\nserver {{ listen 80; }}\n".encode())  # an nginx.conf
    assert not relevant("supervisord", b"[program:web]\ncommand=gunicorn app:app\n")
    assert not relevant("supervisord", f"[pytest]\naddopts = -q\n# {SERVE}\n".encode())  # a pytest.ini


PROGRAM = "[supervisord]\nnodaemon=true\n\n[program:policy]\ncommand={command}\nautorestart=true\n"


@pytest.mark.parametrize(
    ("conf", "expected"),
    [
        pytest.param(PROGRAM.format(command=SERVE), [("RPL301", "supervisord.conf", 5)], id="one line"),
        pytest.param(PROGRAM.format(command=f"{SERVE} --enable-scale-out"), [], id="scale-out"),
        pytest.param(
            PROGRAM.format(command=f"vllm serve m\n    {MASK}\n    --logprobs-mode processed_logprobs"),
            [("RPL301", "supervisord.conf", 6)],
            id="the value goes on over indented lines",
        ),
        pytest.param(
            PROGRAM.format(command=f"{SERVE} ; --enable-scale-out is for later"),
            [("RPL301", "supervisord.conf", 5)],
            id="an inline comment is no word",
        ),
        pytest.param(PROGRAM.format(command=f"{SERVE} %(ENV_VLLM_ARGS)s"), [], id="an expansion: any words"),
        pytest.param(
            PROGRAM.format(command=f"{SERVE} --enable-scale-out --top-k %(ENV_TOP_K)s"),
            [],
            id="an expansion as a value: unknown",
        ),
        pytest.param(
            f'[program:policy]\nenvironment=HF_HOME="/srv/hf",VLLM_USE_V2_MODEL_RUNNER="0"\ncommand={SERVE} --enable-scale-out\n',
            [("RPL206", "supervisord.conf", 2)],
            id="environment= is the engine's environment",
        ),
        pytest.param(f"[eventlistener:x]\ncommand={SERVE}\n[program:web]\ncommand=gunicorn app\n", [], id="not a program"),
    ],
)
def test_supervisord_program_commands(tmp_path: Path, conf: str, expected: list) -> None:
    assert findings(tmp_path, {"supervisord.conf": conf}) == expected


def test_an_ini_program_file_is_read_as_supervisord_reads_it(tmp_path: Path) -> None:
    assert findings(tmp_path, {"supervisord.d/policy.ini": PROGRAM.format(command=SERVE)}) == [("RPL301", "policy.ini", 5)]


def test_a_supervisord_fix_adds_scale_out_in_the_command(tmp_path: Path) -> None:
    from tests.test_configuration import run

    (tmp_path / "supervisord.conf").write_text(PROGRAM.format(command=SERVE))
    run(tmp_path, "check", "--no-cache", "--fix", "--unsafe-fixes", "supervisord.conf")
    assert f"command={SERVE.replace(MASK, MASK + ' --enable-scale-out')}\n" in (tmp_path / "supervisord.conf").read_text()


# -- a request in a method no call reaches, read with its object's construction -------------------

ROLLOUT = (
    "from dataclasses import dataclass\n"
    "from vllm import LLM, SamplingParams\n\n\n"
    "@dataclass\nclass Settings:\n    top_k: int = 64\n    budget: int = {budget}\n\n\n"
    "class Rollout:\n"
    "    def __init__(self, settings: Settings):\n"
    "        self.settings = settings\n"
    '        self.llm = LLM("Qwen/Qwen3-4B", return_sampling_mask=True, logprobs_mode="processed_logprobs", reasoning_parser="qwen3")\n\n'
    "    def sample(self, prompts):\n"
    "        params = SamplingParams(top_k=self.settings.top_k, thinking_token_budget=self.settings.budget)\n"
    "        return self.llm.generate(prompts, params)\n\n\n"
    "rollout = Rollout({made})\n"
)


def family(results, name: str) -> list[tuple[str, int]]:
    return sorted((f.code, f.span.start_line) for f in results[name].findings if f.code.startswith("RPL3"))


@pytest.mark.parametrize(
    ("budget", "made", "expected"),
    [
        pytest.param("2048", "Settings()", [("RPL303", 8)], id="the field's default"),
        pytest.param("-1", "Settings(budget=1024)", [("RPL303", 21)], id="the construction's keyword"),
        pytest.param("-1", "Settings()", [], id="-1: no budget"),
        pytest.param("2048", "Settings(budget=-1)", [], id="the construction turns it off"),
        pytest.param("2048", "load_settings()", [], id="an object from a call the reader cannot follow"),
    ],
)
def test_a_method_no_call_reaches_reads_the_objects_construction(check, budget: str, made: str, expected: list) -> None:
    assert family(check({"rollout.py": ROLLOUT.format(budget=budget, made=made)}, release="0.34.0"), "rollout.py") == expected


# -- a dict written into a command line through json.dumps ----------------------------------------

LAUNCH = (
    "import json\nimport subprocess\n\n"
    'SPEC = {{\n    "method": "ngram",\n    "num_speculative_tokens": 4,\n    "rejection_sample_method": "{method}",\n}}\n'
    'subprocess.Popen(["vllm", "serve", "m", "--enable-scale-out", "--return-sampling-mask",\n'
    '                  "--speculative-config", json.dumps({spec})])\n'
)


@pytest.mark.parametrize(
    ("method", "spec", "expected"),
    [
        pytest.param("synthetic", "SPEC", [("RPL306", 7)], id="a module dict: where the key is written"),
        pytest.param(
            "standard", '{"method": "ngram", "num_speculative_tokens": 2, "rejection_sample_method": "fly"}', [("RPL306", 10)], id="inline"
        ),
        pytest.param("block", "SPEC", [], id="lossless"),
    ],
)
def test_a_speculative_dict_through_json_dumps_is_reported_where_it_is_written(check, method: str, spec: str, expected: list) -> None:
    assert family(check({"launch.py": LAUNCH.format(method=method, spec=spec)}, release="0.34.0"), "launch.py") == expected


def test_the_fix_edits_an_inline_dict_as_python_and_leaves_a_named_one(tmp_path: Path) -> None:
    from tests.test_configuration import run

    inline = '{"method": "ngram", "enable_adaptive_verification": True, "rejection_sample_method": "fly"}'
    (tmp_path / "launch.py").write_text(
        LAUNCH.format(method="synthetic", spec="SPEC") + LAUNCH.split("\n\n", 1)[1].format(spec=inline, method="block")
    )
    run(tmp_path, "check", "--no-cache", "--fix", "--unsafe-fixes", "launch.py")
    fixed = (tmp_path / "launch.py").read_text()
    assert '"rejection_sample_method": "synthetic",\n' in fixed  # SPEC may be read elsewhere: no fix
    assert '"enable_adaptive_verification": False, "rejection_sample_method": "standard"}' in fixed
