"""What held-out round 29 made replaylint follow: an engine server of the tree's own, started by a
shell script with engine flags (issue 27; two missed findings, RPL003 and RPL002).

RULER's `pred/serve_vllm.py` (MInference, x-attention) reads its command line with vLLM's engine
parser (`AsyncEngineArgs.add_cli_args(parser)`, `parser.parse_args()`) and builds its engine from it
(`AsyncEngineArgs.from_cli_args(args)`, `AsyncLLMEngine.from_engine_args(engine_args)`), so `run.sh`'s
`python pred/serve_vllm.py --model M --return-sampling-mask &` is a vLLM launch with those words. The
program's own options are not the engine's; a field the program writes itself after the parse is
the program's (its line decides), so the launch is open-ended for it. A program that does not build
its engine from its command line, words parsed from elsewhere, a program the tree does not hold, a
branch not taken and words from `"$@"` leave nothing to report."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

RULER_SERVER = (
    "import uvicorn\n"
    "from fastapi import FastAPI\n"
    "from vllm.engine.arg_utils import AsyncEngineArgs\n"
    "from vllm.engine.async_llm_engine import AsyncLLMEngine\n"
    "from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
    "\n"
    "app = FastAPI()\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    parser = FlexibleArgumentParser()\n"
    "    parser.add_argument('--host', type=str, default='0.0.0.0')\n"
    "    parser.add_argument('--port', type=int, default=5000)\n"
    "    parser.add_argument('--attn_type', type=str, default='hf')\n"
    "    parser.add_argument('--verbose', action='store_true')\n"
    "    parser = AsyncEngineArgs.add_cli_args(parser)\n"
    "    args = parser.parse_args()\n"
    "\n"
    "    engine_args = AsyncEngineArgs.from_cli_args(args)\n"
    "    engine_args.max_model_len = 2048\n"
    "    {write}\n"
    "    engine = AsyncLLMEngine.from_engine_args(engine_args)\n"
    "    uvicorn.run(app, host=args.host, port=args.port)\n"
)

# vLLM's examples/offline_inference/llm_engine_example.py: the namespace is returned and passed along.
ENGINE_EXAMPLE = (
    "from vllm import EngineArgs, LLMEngine\n"
    "from vllm.utils import FlexibleArgumentParser\n"
    "\n"
    "\n"
    "def parse_args():\n"
    "    parser = FlexibleArgumentParser(description='Demo on using the LLMEngine class directly')\n"
    "    parser = EngineArgs.add_cli_args(parser)\n"
    "    return parser.parse_args()\n"
    "\n"
    "\n"
    "def initialize_engine(args) -> LLMEngine:\n"
    "    engine_args = EngineArgs.from_cli_args(args)\n"
    "    return LLMEngine.from_engine_args(engine_args)\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    initialize_engine(parse_args())\n"
)

# vLLM's benchmarks/benchmark_latency.py: an argument group, and `LLM(**dataclasses.asdict(engine_args))`.
LATENCY_BENCHMARK = (
    "import dataclasses\n"
    "\n"
    "from vllm import LLM\n"
    "from vllm.engine.arg_utils import EngineArgs\n"
    "from vllm.utils import FlexibleArgumentParser\n"
    "\n"
    "\n"
    "def main(args):\n"
    "    engine_args = EngineArgs.from_cli_args(args)\n"
    "    llm = LLM(**dataclasses.asdict(engine_args))\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    parser = FlexibleArgumentParser(description='Benchmark the latency')\n"
    "    parser.add_argument('--input-len', type=int, default=32)\n"
    "    engine_group = parser.add_argument_group('engine')\n"
    "    EngineArgs.add_cli_args(engine_group)\n"
    "    main(parser.parse_args())\n"
)


def server(write: str = "pass") -> str:
    return RULER_SERVER.replace("{write}", write)


def run_sh(words: str, before: str = "", after: str = "") -> str:
    return f"#!/bin/bash\n{before}python pred/serve_vllm.py \\\n    --model=meta-llama/Llama-3.1-8B-Instruct \\\n{words}{after}"


MASK_ALONE = "    --port 5000 --attn_type hf --verbose \\\n    --return-sampling-mask &\n"


def test_ruler_server_started_with_the_mask_alone(tmp_path: Path) -> None:
    files = {"run.sh": run_sh(MASK_ALONE), "pred/serve_vllm.py": server()}
    assert check(tmp_path, files) == [("run.sh", 5, "RPL003")]


def test_ruler_server_with_adaptive_verification(tmp_path: Path) -> None:
    words = (
        "    --return-sampling-mask --logprobs-mode processed_logprobs \\\n"
        '    --speculative-config \'{"method": "ngram", "num_speculative_tokens": 4, "enable_adaptive_verification": true}\' &\n'
    )
    assert check(tmp_path, {"run.sh": run_sh(words), "pred/serve_vllm.py": server()}) == [("run.sh", 5, "RPL002")]


def test_ruler_server_with_processed_logprobs_is_clean(tmp_path: Path) -> None:
    words = "    --attn_type=hf --return-sampling-mask \\\n    --logprobs-mode processed_logprobs &\n"
    assert check(tmp_path, {"run.sh": run_sh(words), "pred/serve_vllm.py": server()}) == []


@pytest.mark.parametrize("program", [ENGINE_EXAMPLE, LATENCY_BENCHMARK])
def test_other_programs_that_build_the_engine_from_its_parser(tmp_path: Path, program: str) -> None:
    files = {"run.sh": run_sh("    --return-sampling-mask &\n"), "pred/serve_vllm.py": program}
    assert check(tmp_path, files) == [("run.sh", 4, "RPL003")]


def test_under_uv_run_and_a_branch_taken(tmp_path: Path) -> None:
    text = (
        "#!/bin/bash\nFRAMEWORK=vllm\n"
        'if [ "$FRAMEWORK" == "vllm" ]; then\n'
        "    uv run python pred/serve_vllm.py --model m --return-sampling-mask &\n"
        "fi\n"
    )
    assert check(tmp_path, {"run.sh": text, "pred/serve_vllm.py": server()}) == [("run.sh", 4, "RPL003")]


# -- precision twins --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "write",
    [
        "engine_args.logprobs_mode = 'processed_logprobs'",
        "args.logprobs_mode = 'processed_logprobs'",
        "setattr(engine_args, 'logprobs' + '_mode', 'processed_logprobs')",
        "parser.set_defaults(logprobs_mode='processed_logprobs')",
    ],
)
def test_a_field_the_program_writes_itself_is_not_the_words(tmp_path: Path, write: str) -> None:
    assert check(tmp_path, {"run.sh": run_sh(MASK_ALONE), "pred/serve_vllm.py": server(write)}) == []


def test_the_mask_the_program_turns_on_is_reported_in_the_program_only(tmp_path: Path) -> None:
    files = {"run.sh": run_sh("    --return-sampling-mask &\n"), "pred/serve_vllm.py": server("engine_args.return_sampling_mask = True")}
    assert check(tmp_path, files) == [("serve_vllm.py", 20, "RPL003")]


@pytest.mark.parametrize(
    "program",
    [
        # its own flag, never given to the engine
        "import argparse\nfrom vllm import LLM\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--model')\nparser.add_argument('--return-sampling-mask', action='store_true')\n"
        "args = parser.parse_args()\nLLM(model=args.model)\n",
        # the engine's parser, but words of its own
        RULER_SERVER.replace("parser.parse_args()", "parser.parse_args(['--model', 'm'])").replace("{write}", "pass"),
        # the engine's parser, but no engine built from it
        RULER_SERVER.replace("engine = AsyncLLMEngine.from_engine_args(engine_args)", "engine = None").replace("{write}", "pass"),
    ],
)
def test_programs_that_do_not_build_the_engine_from_their_command_line(tmp_path: Path, program: str) -> None:
    assert check(tmp_path, {"run.sh": run_sh("    --return-sampling-mask &\n"), "pred/serve_vllm.py": program}) == []


def test_a_program_the_tree_does_not_hold(tmp_path: Path) -> None:
    assert check(tmp_path, {"run.sh": run_sh(MASK_ALONE)}) == []


def test_a_branch_not_taken(tmp_path: Path) -> None:
    text = (
        "#!/bin/bash\nFRAMEWORK=trtllm\n"
        'if [ "$FRAMEWORK" == "vllm" ]; then\n'
        "    python pred/serve_vllm.py --model m --return-sampling-mask &\n"
        "fi\n"
    )
    assert check(tmp_path, {"run.sh": text, "pred/serve_vllm.py": server()}) == []


def test_words_from_the_scripts_arguments_stay_open(tmp_path: Path) -> None:
    text = '#!/bin/bash\npython pred/serve_vllm.py --return-sampling-mask "$@" &\n'
    assert check(tmp_path, {"run.sh": text, "pred/serve_vllm.py": server()}) == []


def test_an_own_option_of_several_words_leaves_the_launch_open(tmp_path: Path) -> None:
    program = server().replace(
        "    parser.add_argument('--verbose'", "    parser.add_argument('--tasks', nargs='+')\n    parser.add_argument('--verbose'"
    )
    given = {"run.sh": run_sh("    --tasks niah qa --return-sampling-mask &\n"), "pred/serve_vllm.py": program}
    assert check(tmp_path / "given", given) == []
    not_given = {"run.sh": run_sh("    --return-sampling-mask &\n"), "pred/serve_vllm.py": program}
    assert check(tmp_path / "not_given", not_given) == [("run.sh", 4, "RPL003")]
