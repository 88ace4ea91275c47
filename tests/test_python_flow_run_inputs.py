"""Values a program takes when it runs (held-out round 6): an environment variable read with a
default, a dataclass or function command line (tyro, fire), argparse subcommands, an `.ini`
file, and the ways a function is called for it (a decorator's wrapper, a generator's loop,
`Process(target=...)`, a cached singleton). Each with what must stay unknown: a dotenv file or
a write that may set the variable, a JSON default that does not parse, a value the loop or
the caller varies."""

from __future__ import annotations

from replaylint.frontends import ExtractContext, SourceFile
from replaylint.frontends.python import extract
from replaylint.model import UNKNOWN

HEAD = "import os\nfrom vllm import LLM, SamplingParams\n"


def launches(body: str):
    return extract(SourceFile("t.py", HEAD + body), ExtractContext())


def mode(body: str):
    (found,) = launches(body)
    return found.value("logprobs_mode")


ENV = 'LLM("m", return_sampling_mask=True, logprobs_mode=os.environ.get("MODE", "raw_logprobs"))\n'


def test_an_environment_default_decides_when_the_variable_is_unset() -> None:
    (found,) = launches(ENV)
    assert found.value("logprobs_mode") == "raw_logprobs"
    assert [a.condition for a in found.assumptions] == ["`MODE` is unset"]
    assert mode('LLM("m", return_sampling_mask=True, logprobs_mode=os.getenv("MODE", "raw_logprobs"))\n') == "raw_logprobs"


def test_an_environment_default_stays_unknown_where_something_may_set_the_variable() -> None:
    assert mode("from dotenv import load_dotenv\nload_dotenv()\n" + ENV) is UNKNOWN
    assert mode('if os.name == "posix":\n    os.environ["MODE"] = "processed_logprobs"\n' + ENV) is UNKNOWN
    assert mode('os.environ.update(MODE="processed_logprobs")\n' + ENV) is UNKNOWN
    assert mode('LLM("m", return_sampling_mask=True, logprobs_mode=os.environ["MODE"])\n') is UNKNOWN


def test_a_variable_the_module_sets_at_its_top_level_is_the_value_read() -> None:
    # round 15: the write runs before the read and replaces what the environment held
    assert mode('os.environ["MODE"] = "processed_logprobs"\n' + ENV) == "processed_logprobs"
    assert (
        mode('os.environ["MODE"] = "raw_logprobs"\nLLM("m", return_sampling_mask=True, logprobs_mode=os.environ["MODE"])\n')
        == "raw_logprobs"
    )
    assert mode('LLM("m", return_sampling_mask=True, logprobs_mode=os.environ["MODE"])\nos.environ["MODE"] = "x"\n') is UNKNOWN


def test_a_command_line_function_takes_its_defaults_a_json_mapping_s_too() -> None:
    body = 'import fire\ndef main(model, mode="raw_logprobs"):\n    LLM(model, return_sampling_mask=True, logprobs_mode=mode)\nfire.Fire(main)\n'
    assert mode(body) == "raw_logprobs"
    body = "import fire, json\ndef main(model, extra=EXTRA):\n    LLM(model, return_sampling_mask=True, **json.loads(extra))\nfire.Fire(main)\n"
    (found,) = launches(body.replace("EXTRA", "'{}'"))  # run as written: judged as written, saying so
    assert not found.open_ended
    assert [a.condition for a in found.assumptions] == ["extra comes from --extra, default '{}' (t.py:4)"]
    (found,) = launches(body.replace("EXTRA", "'{not json'"))
    assert found.open_ended


def test_each_subcommand_gives_its_handler_its_own_defaults() -> None:
    body = (
        "import argparse\n"
        "def run(args):\n    LLM('m', return_sampling_mask=args.replay, logprobs_mode=args.mode)\n"
        "parser = argparse.ArgumentParser()\nsub = parser.add_subparsers()\n"
        "a = sub.add_parser('a')\na.add_argument('--mode', default='processed_logprobs')\na.set_defaults(func=run, replay=True)\n"
        "b = sub.add_parser('b')\nb.add_argument('--mode', default='raw_logprobs')\nb.set_defaults(func=run, replay=False)\n"
        "args = parser.parse_args()\nargs.func(args)\n"
    )
    assert sorted((f.value("return_sampling_mask"), f.value("logprobs_mode")) for f in launches(body)) == [
        (False, "raw_logprobs"),
        (True, "processed_logprobs"),
    ]


def test_a_loop_over_a_generator_holds_what_it_yields_and_no_more() -> None:
    one = "def configs():\n    for tp in (1, 2):\n        yield {'return_sampling_mask': True, 'tensor_parallel_size': tp}\n"
    (found,) = launches(one + "for kw in configs():\n    LLM('m', **kw)\n")
    assert found.value("return_sampling_mask") is True and found.value("tensor_parallel_size") is UNKNOWN
    assert found.value("logprobs_mode") is None and not found.open_ended
    two = one + "    yield {'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n"
    assert all(f.open_ended for f in launches(two + "for kw in configs():\n    LLM('m', **kw)\n"))


def test_a_process_target_is_called_with_its_args() -> None:
    body = "from multiprocessing import Process\ndef work(mode):\n    LLM('m', return_sampling_mask=True, logprobs_mode=mode)\n"
    assert mode(body + "Process(target=work, args=('raw_logprobs',)).start()\n") == "raw_logprobs"
    assert mode(body + "import sys\nProcess(target=work, args=tuple(sys.argv[1:])).start()\n") is UNKNOWN


def test_a_decorator_s_wrapper_writes_what_the_function_gets() -> None:
    wrapper = (
        "import functools\ndef replay(fn):\n    @functools.wraps(fn)\n    def wrapper(*a, **kw):\n"
        "        kw.setdefault('logprobs_mode', 'processed_logprobs')\n{call}    return wrapper\n"
        "@replay\ndef make(model, **kw):\n    return LLM(model, return_sampling_mask=True, **kw)\nmake('m')\n"
    )
    assert mode(wrapper.format(call="        return fn(*a, **kw)\n")) == "processed_logprobs"
    branched = wrapper.format(call="        if a:\n            return fn(*a, **kw)\n")  # not read through: as called
    assert mode(branched) is None


def test_a_singleton_made_behind_is_none_is_that_engine_only_when_nothing_else_binds_it() -> None:
    body = (
        "_llm = None\ndef get():\n    global _llm\n    if _llm is None:\n"
        "        _llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n    return _llm\n"
        "get().generate(['p'], SamplingParams(temperature=0.0))\n"
    )
    (found,) = launches(body)
    assert [r.settings["temperature"].value for r in found.requests] == [0.0]
    (found,) = [f for f in launches(body + "_llm = LLM('other')\n") if f.value("model") == "m"]
    assert not found.requests


def test_an_executor_s_submit_is_a_call_of_the_function() -> None:
    body = "import concurrent.futures as cf\ndef work(mode):\n    LLM('m', return_sampling_mask=True, logprobs_mode=mode)\n"
    assert mode(body + "with cf.ProcessPoolExecutor() as pool:\n    pool.submit(work, 'raw_logprobs')\n") == "raw_logprobs"
    assert mode(body + "pool.submit(work, 'raw_logprobs')\n") is UNKNOWN  # not known to be an executor
