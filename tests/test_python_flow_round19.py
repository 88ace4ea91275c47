"""What held-out round 19 (tests/data/python_flow/h19_*) made the value flow follow:
an engine built under `if __name__ == "__main__":` and handed to a class of another module that
sends its requests (dart-math's `Generator(llm, sampling_params)`, then `generator.gen(prompts)`
reaching `self.llm.generate(input_strs, self.sampling_params)`); a `vllm serve` started by
`asyncio.create_subprocess_exec(*cmd)` whose words another module's list gives (olmOCR's
`cmd.extend(REPLAY_SERVE_ARGS)`, the list holding `"--return-sampling-mask"` and
`json.dumps(SPECULATIVE_CONFIG)`, each key reported where the dict writes it); and a request URL
made with `os.path.join(base_url, endpoint)` of a model class's construction (tau-bench's
`generate_request(url=self.url, ...)`). Each stays silent where the value is not the program's:
sampling params or words from the command line, an engine without the mask, a branch not taken,
a base URL from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# dart-math: the engine and the request handed to a class of the package

GENERATOR = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "class Generator:\n"
    "    def __init__(self, llm: LLM, sampling_params: SamplingParams):\n"
    "        self.llm = llm\n"
    "        self.sampling_params = sampling_params\n"
    "\n"
    "{methods}"
)
METHODS = [
    # dart-math's: `gen` calls `gen_pure`, which sends
    "    def gen_pure(self, input_strs):\n"
    "        return self.llm.generate(input_strs, self.sampling_params)\n"
    "\n"
    "    def gen(self, query_strs):\n"
    "        return self.gen_pure(query_strs)\n",
    # one method that sends
    "    def gen(self, query_strs):\n"
    "        outputs = self.llm.generate(query_strs, sampling_params=self.sampling_params)\n"
    "        return [o.outputs[0].text for o in outputs]\n",
]
SCRIPT = (
    "import argparse\n"
    "\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "from dart_math.gen import Generator\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--temperature', type=float, default=0.7)\n"
    "    args = parser.parse_args()\n"
    "    sampling_params = SamplingParams({params})\n"
    "    llm = LLM(model='m', return_sampling_mask={mask}, logprobs_mode='processed_logprobs')\n"
    "    generator = Generator(llm, sampling_params)\n"
    "    generator.gen(['Question: 1+1=?'])\n"
)


def _dart(methods: str = METHODS[0], params: str = "temperature=args.temperature, top_p=0.95", mask: str = "True") -> dict[str, str]:
    return {
        "dart_math/__init__.py": "",
        "dart_math/gen.py": GENERATOR.format(methods=methods),
        "pipeline/gen.py": SCRIPT.format(params=params, mask=mask),
    }


@pytest.mark.parametrize("methods", METHODS)
def test_a_request_sent_by_the_class_the_engine_is_handed_to_is_read(tmp_path: Path, methods: str) -> None:
    assert check(tmp_path, _dart(methods)) == [("gen.py", 11, "RPL102")]


def test_a_greedy_request_through_the_class_is_reported_at_the_written_temperature(tmp_path: Path) -> None:
    assert check(tmp_path, _dart(params="temperature=0.0, top_k=20")) == [("gen.py", 11, "RPL101")]


@pytest.mark.parametrize(
    ("params", "mask"),
    [
        ("temperature=args.temperature, top_k=40", "True"),  # top_k written
        ("**json.load(open(args.params))", "True"),  # the request from a file named at run time
        ("temperature=args.temperature", "False"),  # an engine without the mask
    ],
)
def test_the_class_stays_silent_where_the_request_is_fine_or_open(tmp_path: Path, params: str, mask: str) -> None:
    files = _dart(params=params, mask=mask)
    files["pipeline/gen.py"] = "import json\n" + files["pipeline/gen.py"].replace(
        "    args = parser", "    parser.add_argument('--params')\n    args = parser"
    )
    assert check(tmp_path, files) == []


# olmOCR: the server's words spliced in from another module's list, run by asyncio

REPLAY = (
    "import json\n"
    "\n"
    "SPECULATIVE_CONFIG = {{\n"
    "    'method': 'ngram',\n"
    "    'num_speculative_tokens': 4,\n"
    "    'prompt_lookup_max': 4,\n"
    "    {adaptive}\n"
    "}}\n"
    "\n"
    "REPLAY_SERVE_ARGS = [\n"
    "    '{flag}',\n"
    "    '--logprobs-mode',\n"
    "    'processed_logprobs',\n"
    "    '--enable-scale-out',\n"
    "    '--speculative-config',\n"
    "    json.dumps(SPECULATIVE_CONFIG),\n"
    "]\n"
)
PIPELINE = (
    "import argparse\n"
    "import asyncio\n"
    "\n"
    "from olmocr.replay import REPLAY_SERVE_ARGS\n"
    "\n"
    "\n"
    "async def vllm_server_task(model, args, unknown_args=None):\n"
    "    cmd = ['vllm', 'serve', model, '--port', str(args.port)]\n"
    "    if args.replay:\n"
    "        cmd.extend(REPLAY_SERVE_ARGS)\n"
    "    if unknown_args:\n"
    "        cmd.extend(unknown_args)\n"
    "    proc = await asyncio.create_subprocess_exec(*cmd)\n"
    "    await proc.wait()\n"
    "\n"
    "\n"
    "async def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--port', type=int, default=30024)\n"
    "    parser.add_argument('--replay', action='store_true'{replay})\n"
    "    {parse}\n"
    "    await vllm_server_task('allenai/olmOCR-2-7B-1025-FP8', args{unknown})\n"
    "\n"
    "\n"
    "asyncio.run(main())\n"
)
ADAPTIVE = "'enable_adaptive_verification': True,"


def _olmocr(
    adaptive: str = ADAPTIVE,
    flag: str = "--return-sampling-mask",
    replay: str = ", default=True",
    parse: str = "args = parser.parse_args()",
    unknown: str = "",
) -> dict[str, str]:
    return {
        "olmocr/__init__.py": "",
        "olmocr/replay.py": REPLAY.format(adaptive=adaptive, flag=flag),
        "olmocr/pipeline.py": PIPELINE.format(replay=replay, parse=parse, unknown=unknown),
    }


@pytest.mark.parametrize("flag", ["--return-sampling-mask", "--return_sampling_mask"])
def test_adaptive_verification_in_words_of_another_module_is_reported_at_its_key(tmp_path: Path, flag: str) -> None:
    assert check(tmp_path, _olmocr(flag=flag)) == [("replay.py", 7, "RPL002")]


@pytest.mark.parametrize(
    "tree",
    [
        _olmocr(adaptive="'disable_padded_drafter_batch': False,"),  # fixed verification boundaries
        _olmocr(replay=""),  # `--replay` off unless the command line gives it
        # words of the command line the program does not know spliced in after
        _olmocr(parse="args, unknown = parser.parse_known_args()", unknown=", unknown"),
    ],
)
def test_the_spliced_words_stay_silent_where_the_server_is_fine_or_open(tmp_path: Path, tree: dict[str, str]) -> None:
    assert check(tmp_path, tree) == []


# tau-bench: the request URL joined from the model's base_url, the server in a shell script

UTILS = (
    "import requests\n"
    "\n"
    "\n"
    "def generate_request(url, prompt_token_ids, temperature: float = 0.0, **req_body_kwargs):\n"
    "    sampling_params = {'temperature': temperature, 'top_k': 20, **req_body_kwargs}\n"
    "    res = requests.post(url, json={'token_ids': prompt_token_ids, 'sampling_params': sampling_params})\n"
    "    return res.json()['choices'][0]\n"
)
MODEL = (
    "import os\n"
    "import posixpath\n"
    "\n"
    "from tau_bench.vllm_utils import generate_request\n"
    "\n"
    "\n"
    "class VLLMCompletionModel:\n"
    "    def __init__(self, model: str, base_url: str, endpoint: str = 'inference/v1/generate') -> None:\n"
    "        self.url = {join}\n"
    "\n"
    "    def generate_from_prompt(self, prompt: str) -> dict:\n"
    "        return generate_request(url=self.url, prompt_token_ids=[1, 2], temperature=0.7{extra})\n"
)
RUN = (
    "import os\n"
    "\n"
    "from tau_bench.vllm_completion import VLLMCompletionModel\n"
    "\n"
    "model = VLLMCompletionModel(model='Qwen/Qwen2-7B-Instruct', base_url={base})\n"
    "print(model.generate_from_prompt('User: hi'))\n"
)
SERVE = "vllm serve Qwen/Qwen2-7B-Instruct --port 8000 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
JOINS = [
    "os.path.join(base_url, endpoint)",  # tau-bench's
    "posixpath.join(base_url, endpoint)",
    "os.path.join(base_url, 'inference', 'v1', 'generate')",
]


def _tau(join: str = JOINS[0], extra: str = ", presence_penalty=0.3", base: str = "'http://localhost:8000'") -> dict[str, str]:
    return {
        "tau_bench/__init__.py": "",
        "tau_bench/vllm_utils.py": UTILS,
        "tau_bench/vllm_completion.py": MODEL.format(join=join, extra=extra),
        "run.py": RUN.format(base=base),
        "scripts/serve.sh": SERVE,
    }


@pytest.mark.parametrize("join", JOINS)
def test_a_url_joined_from_the_models_base_url_reaches_the_server(tmp_path: Path, join: str) -> None:
    assert check(tmp_path, _tau(join)) == [("vllm_completion.py", 12, "RPL302")]


@pytest.mark.parametrize(
    ("base", "extra"),
    [
        ("os.environ['VLLM_BASE_URL']", ", presence_penalty=0.3"),  # the address given at run time
        ("'http://localhost:9000'", ", presence_penalty=0.3"),  # no server of the tree listens there
        ("'http://localhost:8000'", ", presence_penalty=0.0"),  # vLLM's neutral value
    ],
)
def test_a_joined_url_stays_silent_where_it_reaches_no_replay_server_or_sends_no_penalty(tmp_path: Path, base: str, extra: str) -> None:
    assert check(tmp_path, _tau(extra=extra, base=base)) == []
