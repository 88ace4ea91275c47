"""The Python frontend: which calls are launches, how values resolve, when a launch is open-ended."""

from __future__ import annotations

import pytest

from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.frontends import ExtractContext, SourceFile
from replaylint.frontends.python import extract
from replaylint.model import UNKNOWN
from replaylint.vllm.releases import parse_release


def launches(text: str):
    return extract(SourceFile("t.py", text), ExtractContext())


def codes(text: str, release: str | None = None) -> list[str]:
    config = Config(target_vllm=parse_release(release), target_vllm_forced=True) if release else Config()
    result = Checker(config).check_bytes("t.py", text.encode())
    return [finding.code for finding in result.findings]


@pytest.mark.parametrize(
    "header, call",
    [
        ("from vllm import LLM", "LLM"),
        ("from vllm import LLM as L", "L"),
        ("import vllm", "vllm.LLM"),
        ("import vllm as v", "v.LLM"),
        ("from vllm.entrypoints.llm import LLM", "LLM"),
        ("from vllm import EngineArgs", "EngineArgs"),
        ("from vllm import AsyncEngineArgs as AEA", "AEA"),
        ("import vllm.engine.arg_utils", "vllm.engine.arg_utils.AsyncEngineArgs"),
        ("from vllm.engine import arg_utils", "arg_utils.EngineArgs"),
    ],
)
def test_import_forms_are_recognised(header: str, call: str) -> None:
    found = launches(f"{header}\n{call}('m', return_sampling_mask=True)\n")
    assert len(found) == 1
    assert found[0].settings["return_sampling_mask"].value is True


@pytest.mark.parametrize(
    "text",
    [
        "from sglang import Engine\nEngine(model_path='m', return_sampling_mask=True)\n",
        "request = {'return_sampling_mask': True, 'model': 'vllm'}\n",
        "from types import SimpleNamespace\nargs = SimpleNamespace(return_sampling_mask=True)\n",
        "import vllm\nfake = object()\nfake.return_sampling_mask = True\n",
        "def LLM(**kw):\n    return kw\nLLM(return_sampling_mask=True)  # vllm look-alike\n",
        "# LLM('m', return_sampling_mask=True) in a vllm comment\n",
        "s = \"LLM('m', return_sampling_mask=True)  # vllm\"\n",
    ],
)
def test_look_alikes_are_not_launches(text: str) -> None:
    text = text + "# --return-sampling-mask\n"  # replay words in reach, so only the shape decides
    assert launches(text) == []


def test_values_resolve_through_names_bound_once() -> None:
    (launch,) = launches(
        "from vllm import LLM\nMODE = 'raw_logits'\ndef f():\n    tp = 2\n"
        "    return LLM('m', logprobs_mode=MODE, tensor_parallel_size=tp, return_sampling_mask=True)\n"
    )
    assert launch.value("logprobs_mode") == "raw_logits"
    assert launch.value("tensor_parallel_size") == 2
    assert not launch.open_ended


def test_names_bound_twice_or_from_parameters_are_unknown() -> None:
    (launch,) = launches(
        "from vllm import LLM\nMODE = 'raw_logits'\nMODE = 'processed_logprobs'\n"
        "def f(tp):\n    return LLM('m', logprobs_mode=MODE, tensor_parallel_size=tp, return_sampling_mask=True)\n"
    )
    assert launch.value("logprobs_mode") is UNKNOWN
    assert launch.value("tensor_parallel_size") is UNKNOWN


def test_dict_spread_and_dict_call_are_read_with_their_own_spans() -> None:
    (launch,) = launches(
        "from vllm import LLM\nEXTRA = dict(enable_dbo=True)\nOPTS = {'return_sampling_mask': True, **{}}\nLLM('m', **EXTRA, **OPTS)\n"
    )
    assert launch.value("enable_dbo") is True
    assert launch.settings["enable_dbo"].span.start_line == 2


@pytest.mark.parametrize(
    "call",
    [
        "LLM(*args, return_sampling_mask=True)",
        "LLM('m', return_sampling_mask=True, **get_options())",
    ],
)
def test_open_ended_launches_get_no_absence_findings(call: str) -> None:
    text = f"from vllm import LLM\ndef build(*args, **kwargs):\n    return {call}\n"
    (launch,) = launches(text)
    assert launch.open_ended
    assert "RPL003" not in codes(text)


def test_forwarded_keywords_no_caller_passes_are_judged_as_written() -> None:
    # Python's "$@": a function's `**kwargs` that no caller in the tree fills adds nothing, and
    # the message says what the finding rests on.
    text = "from vllm import LLM\ndef build(*args, **kwargs):\n    return LLM('m', return_sampling_mask=True, **kwargs)\n"
    assert codes(text) == ["RPL003"]
    caller = text + "build(logprobs_mode='processed_logprobs')\n"
    assert "RPL003" not in codes(caller)


def test_attribute_writes_after_the_call_are_the_engine_s_or_make_it_open_ended() -> None:
    # A write the value flow reads is the engine's (stop 45, h-fxT); one it cannot order or read leaves it open.
    text = "from vllm import EngineArgs\nea = EngineArgs(model='m', return_sampling_mask=True)\nea.logprobs_mode = 'processed_logprobs'\n"
    (launch,) = launches(text)
    assert launch.get("logprobs_mode").value == "processed_logprobs" and not launch.open_ended
    assert "RPL003" not in codes(text)
    unread = text.replace("ea.logprobs_mode = 'processed_logprobs'", "ea.logprobs_mode, ea.seed = 'processed_logprobs', 1")
    (launch,) = launches(unread)
    assert launch.open_ended
    assert "RPL003" not in codes(unread)


def test_runner_variable_from_environ_writes_before_the_call() -> None:
    text = (
        "import os\nfrom vllm import LLM\n"
        "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
        "llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '1'\n"
    )
    (launch,) = launches(text)
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert codes(text, "0.33.0") == ["RPL004"]


def test_environ_pop_and_del_unset_the_variable() -> None:
    for removal in ("os.environ.pop('VLLM_USE_V2_MODEL_RUNNER', None)", "del os.environ['VLLM_USE_V2_MODEL_RUNNER']"):
        text = (
            "import os\nfrom vllm import LLM\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
            f"{removal}\nLLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        )
        assert codes(text) == []


def test_setdefault_sets_the_variable_and_putenv_does_not_in_process() -> None:
    # `os.putenv` changes the C environment, not the `os.environ` vLLM reads in this process
    for write, found in (
        ("os.environ.setdefault('VLLM_USE_V2_MODEL_RUNNER', '0')", ["RPL004"]),
        ("os.putenv('VLLM_USE_V2_MODEL_RUNNER', '0')", []),
    ):
        text = f"import os\nfrom vllm import LLM\n{write}\nLLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        assert codes(text, "0.33.0") == found


def test_requests_are_linked_to_the_engine_bound_in_scope() -> None:
    text = (
        "from vllm import LLM, SamplingParams\n"
        "llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "GREEDY = SamplingParams(temperature=0.0, top_k=5)\n"
        "def run(prompts):\n    return llm.generate(prompts, [GREEDY, SamplingParams(top_k=5)])\n"
    )
    (launch,) = launches(text)
    assert len(launch.requests) == 2
    assert codes(text) == ["RPL101"]


def test_argv_lists_become_command_line_launches() -> None:
    text = (
        "import subprocess\nBASE = ['vllm', 'serve', 'm']\ncmd = [*BASE, '--return-sampling-mask']\n"
        "cmd.extend(['--logprobs-mode', 'processed_logprobs', '--enable-scale-out'])\nsubprocess.run(cmd, check=True)\n"
    )
    (launch,) = launches(text)
    assert launch.value("logprobs_mode") == "processed_logprobs"
    assert launch.value("model") == "m"
    assert codes(text) == []


def test_argv_growth_after_the_call_does_not_count() -> None:
    text = "import subprocess\ncmd = ['vllm', 'serve', 'm', '--return-sampling-mask']\nsubprocess.run(cmd)\ncmd += ['--logprobs-mode', 'processed_logprobs']\n"
    assert codes(text) == ["RPL003", "RPL301"]


def test_argv_with_unknown_words_is_open_ended() -> None:
    text = "import subprocess, sys\nsubprocess.run(['vllm', 'serve', 'm', '--return-sampling-mask', *sys.argv[1:]])\n"
    (launch,) = launches(text)
    assert launch.open_ended
    assert codes(text) == []


def test_argv_for_other_programs_is_ignored() -> None:
    text = "import subprocess\nsubprocess.run(['sglang', 'serve', '--return-sampling-mask'])\nsubprocess.run(['echo', 'vllm', 'serve'])\n"
    assert launches(text) == []


def test_spans_point_at_the_keyword_or_word() -> None:
    text = "from vllm import LLM\nllm = LLM(\n    'm',\n    return_sampling_mask=True,\n    logprobs_mode='raw_logits',\n)\n"
    result = Checker(Config()).check_bytes("t.py", text.encode())
    (finding,) = result.findings
    assert (finding.span.start_line, finding.span.start_col, finding.span.end_col) == (5, 19, 31)


def test_module_level_runner_variable_reaches_a_launch_inside_a_function() -> None:
    text = (
        "import os\nfrom vllm import LLM\nos.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
        "def build():\n    return LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    )
    assert codes(text, "0.33.0") == ["RPL004"]


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        (
            'from vllm import LLM\nllm = LLM("m", return_sampling_mask=True logprobs_mode="processed_logprobs")\nprint(llm)\n',
            (2, 37),
            "forgot a comma",
        ),
        ('from vllm import LLM\nllm = LLM("m", return_sampling_mask=True,\n', (2, 10), "never closed"),
        ('from vllm import LLM\nllm = LLM("m", return_sampling_mask=True))\n', (2, 42), "unmatched ')'"),
    ],
)
def test_syntax_errors_are_reported_where_cpython_puts_them(text: str, position: tuple[int, int], words: str) -> None:
    findings = Checker(Config()).check_bytes("t.py", text.encode()).findings
    assert [(f.code, (f.span.start_line, f.span.start_col)) for f in findings] == [("RPL900", position)]
    assert words in findings[0].message


def test_invalid_escapes_in_the_file_print_no_warning() -> None:
    """CPython warns about `"\\d"` in a string (a SyntaxWarning printed by default from Python
    3.12): reading a user's file must not print the warning as if it were replaylint's."""
    import warnings

    text = 'from vllm import LLM\nLLM("m\\ x", return_sampling_mask=True, served_model_name="a\\d")\n'
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert codes(text) == ["RPL003"]
    assert [str(warning.message) for warning in caught] == []


@pytest.mark.parametrize("collecting", [True, False])
def test_garbage_collection_is_left_as_it_was_found(collecting: bool) -> None:
    # The ast parse pauses collection (an ast has no cycles): it must resume only what it paused.
    import gc

    was = gc.isenabled()
    try:
        gc.enable() if collecting else gc.disable()
        for text in (
            "from vllm import LLM\nLLM('m', return_sampling_mask=True)\n",
            "from vllm import LLM\nLLM('m', return_sampling_mask=True\n",
        ):
            Checker(Config()).check_bytes("t.py", text.encode())
            assert gc.isenabled() is collecting
    finally:
        gc.enable() if was else gc.disable()


@pytest.mark.parametrize(
    "imports",
    ["from subprocess import run\n", "from subprocess import check_call, run\n", "from subprocess import (\n    run,\n)\n"],
)
def test_an_imported_spawning_function_starts_a_process(imports: str) -> None:
    # `from subprocess import run` read its names on into the next line ("run\ndef main"): the
    # call below was not taken for a process and the launch was missed.
    text = imports + 'def main():\n    run(["vllm", "serve", "m", "--return-sampling-mask"])\n'
    assert [f.code for f in Checker(Config()).check_bytes("t.py", text.encode()).findings] == ["RPL003", "RPL301"]


def test_the_value_flow_loads_without_libcst() -> None:
    # A cold scan's reader imports the Python frontend while the tree is walked; libcst (about
    # 140 ms) is imported only where a file is parsed with it. A module-level `import libcst` in a
    # helper the flow imports put it on every cold scan's critical path.
    import subprocess
    import sys

    code = "import sys\nfrom replaylint import frontends\nfrontends.load('python')\nprint('libcst' in sys.modules)\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False", run.stderr
