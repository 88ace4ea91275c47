"""What held-out round 13's config readers left PENDING made the value flow follow: an engine
built in `__init__` from the namespace its constructor is given in another module (LiveCodeBench's
`VLLMRunner(args)`), `HfArgumentParser.parse_yaml_file` (bigcode-evaluation-harness),
`OmegaConf.from_dotlist` overrides (SkyRL), TOML files read by path (prime-rl) and click's
`**cli_args` over a YAML a click default names (axolotl). Each stop keeps the launch open: a path
from the command line, a branch that may not merge, a script in no package."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

MASKED = "return_sampling_mask=True, logprobs_mode='processed_logprobs'"

# an engine in `__init__(self, args)`: the constructions in other modules pass the namespace

PARSER = (
    "import argparse\n\n"
    "def get_args():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--model', default='m')\n"
    "    parser.add_argument('--top_k', type=int, default=20)\n"
    "    parser.add_argument('--repetition_penalty', type=float, default=PENALTY)\n"
    "    return parser.parse_args()\n"
)
RUNNER = (
    "from vllm import LLM, SamplingParams\n\n"
    "class Runner:\n"
    "    def __init__(self, args):\n"
    "        self.args = args\n"
    f"        self.llm = LLM(model=args.model, {MASKED})\n"
    "        self.params = PARAMS\n\n"
    "    def run(self, prompts):\n"
    "        return self.llm.generate(prompts, self.params)\n"
)
MAIN = "from pkg.parser import get_args\nfrom pkg.runner import Runner\n\nRunner(ARGS).run(['x'])\n"


def _runner(tmp_path: Path, penalty: str, params: str, args: str = "get_args()") -> list[tuple[str, int, str]]:
    files = {
        "pkg/__init__.py": "",
        "pkg/parser.py": PARSER.replace("PENALTY", penalty),
        "pkg/runner.py": RUNNER.replace("PARAMS", params),
        "pkg/main.py": MAIN.replace("ARGS", args),
    }
    return check(tmp_path, files)


@pytest.mark.parametrize(
    "params",
    [
        "SamplingParams(top_k=self.args.top_k, repetition_penalty=self.args.repetition_penalty)",
        "SamplingParams(top_k=args.top_k, repetition_penalty=args.repetition_penalty)",
        "SamplingParams(**{'top_k': args.top_k, 'repetition_penalty': self.args.repetition_penalty})",
    ],
)
def test_a_request_made_in_init_from_the_namespace_it_is_given_has_the_parser_s_defaults(tmp_path: Path, params: str) -> None:
    assert _runner(tmp_path, "1.05", params) == [("parser.py", 7, "RPL302")]


def test_a_neutral_default_or_a_namespace_not_known_here_is_silent(tmp_path: Path) -> None:
    params = "SamplingParams(top_k=self.args.top_k, repetition_penalty=self.args.repetition_penalty)"
    assert _runner(tmp_path / "neutral", "1.0", params) == []
    assert _runner(tmp_path / "unknown", "1.05", params, args="load_namespace()") == []


# HfArgumentParser reading a file of the tree

ARGUMENTS = (
    "from dataclasses import dataclass, field\n\n@dataclass\nclass Gen:\n    temperature: float = 0.8\n    top_k: int = field(default=0)\n"
)
HF_MAIN = (
    "import os, sys, yaml\nfrom pathlib import Path\nfrom transformers import HfArgumentParser\n"
    "from vllm import LLM, SamplingParams\nfrom args import Gen\n\n"
    "def main():\n"
    "    (gen,) = PARSE\n"
    f"    llm = LLM('m', {MASKED})\n"
    "    llm.generate(['x'], SamplingParams(temperature=gen.temperature, top_k=gen.top_k))\n"
)
HF_FILES = {"args.py": ARGUMENTS, "gen.yaml": "temperature: 1.0\n", "topk.yaml": "top_k: 20\n", "topk.json": '{"top_k": 5}'}


@pytest.mark.parametrize(
    ("parse", "expected"),
    [
        ('HfArgumentParser(Gen).parse_yaml_file(Path(__file__).parent / "gen.yaml")', [("args.py", 6, "RPL102")]),
        (
            'HfArgumentParser((Gen,)).parse_yaml_file(yaml_file=os.path.join(os.path.dirname(__file__), "gen.yaml"))',
            [("args.py", 6, "RPL102")],
        ),
        ('HfArgumentParser([Gen]).parse_yaml_file(Path(__file__).parent / "topk.yaml")', []),  # the file sets it
        ('HfArgumentParser(Gen).parse_json_file(Path(__file__).with_name("topk.json"))', []),
        ('HfArgumentParser(Gen).parse_dict({"temperature": 0.9})', [("args.py", 6, "RPL102")]),
        ('HfArgumentParser(Gen).parse_dict({"top_k": 40})', []),
        ("HfArgumentParser(Gen).parse_yaml_file(sys.argv[1])", []),  # a file named when it runs
        ("HfArgumentParser(Gen).parse_dict(yaml.safe_load(open(sys.argv[1])))", []),
        ('HfArgumentParser(Gen).parse_dict({"temperature": 0.9, **EXTRA})', []),
    ],
)
def test_hf_argument_parser_makes_each_dataclass_from_the_file_s_keys(tmp_path: Path, parse: str, expected: list) -> None:
    assert check(tmp_path, {**HF_FILES, "main.py": HF_MAIN.replace("PARSE", parse)}) == expected


# OmegaConf's dotted overrides

BASE = (
    "sampling:\n  temperature: 1.0\n  top_k: TOPK\nengine:\n  model: m\n  return_sampling_mask: true\n  logprobs_mode: processed_logprobs\n"
)
OMEGA = (
    "import sys\nfrom pathlib import Path\nfrom omegaconf import OmegaConf\nfrom vllm import LLM, SamplingParams\n"
    "BASE = Path(__file__).parent / 'base.yaml'\n"
    "MERGE\n"
    "llm = LLM(**OmegaConf.to_container(cfg.engine))\n"
    "llm.generate(['x'], SamplingParams(temperature=cfg.sampling.temperature, top_k=cfg.sampling.top_k))\n"
)


def _omega(tmp_path: Path, top_k: str, merge: str) -> list[tuple[str, int, str]]:
    return check(tmp_path, {"base.yaml": BASE.replace("TOPK", top_k), "run.py": OMEGA.replace("MERGE", merge)})


@pytest.mark.parametrize(
    "merge",
    [
        "cfg = OmegaConf.merge(OmegaConf.load(BASE), OmegaConf.from_dotlist(['sampling.top_k=-1']))",
        "OVERRIDES = [\n    'sampling.top_k=-1',\n]\ncfg = OmegaConf.merge(OmegaConf.load(BASE), OmegaConf.from_dotlist(OVERRIDES))",
        "cfg = OmegaConf.load(BASE)\ncfg.merge_with_dotlist(['sampling.top_k=-1'])",
        "cfg = OmegaConf.load(BASE)\ncfg.merge_with(OmegaConf.from_dotlist(['sampling.top_k=-1']))",
    ],
)
def test_a_dotted_override_is_the_key_it_names_written_where_the_word_is(tmp_path: Path, merge: str) -> None:
    found = _omega(tmp_path, "50", merge)
    assert len(found) == 1 and found[0][0] == "run.py" and found[0][2] == "RPL102"
    assert "sampling.top_k=-1" in (tmp_path / "run.py").read_text().splitlines()[found[0][1] - 1]


@pytest.mark.parametrize(
    "merge",
    [
        "cfg = OmegaConf.merge(OmegaConf.load(BASE), OmegaConf.from_dotlist(['sampling.top_k=20']))",
        "cfg = OmegaConf.load(BASE)\ncfg.merge_with_dotlist(['sampling.top_k=20'])",
        "cfg = OmegaConf.load(BASE)\ncfg.merge_with({'sampling': {'top_k': 16}})",
        "cfg = OmegaConf.load(BASE)\nif sys.argv[1:]:\n    cfg.merge_with_dotlist(['sampling.top_k=20'])",  # may set it
        "cfg = OmegaConf.merge(OmegaConf.load(BASE), OmegaConf.from_dotlist(['sampling.top_k=${oc.env:TOP_K}']))",
        "cfg = OmegaConf.merge(OmegaConf.load(BASE), OmegaConf.from_dotlist(['sampling.top_k=???']))",
    ],
)
def test_an_override_that_sets_the_key_or_may_set_it_is_silent(tmp_path: Path, merge: str) -> None:
    assert _omega(tmp_path, "0", merge) == []


def test_an_override_of_another_key_keeps_the_file_s_value(tmp_path: Path) -> None:
    merge = "cfg = OmegaConf.merge(OmegaConf.load(BASE), OmegaConf.from_dotlist(['sampling.temperature=0.7', 'engine.dtype=auto']))"
    assert _omega(tmp_path, "0", merge) == [("base.yaml", 3, "RPL102")]


# TOML read by path

TOML = '[model]\nname = "m"\n\n[model.hf_overrides]\nOVERRIDE\n\n[sampling]\ntemperature = 1.0\ntop_k = 20\n'
TOML_MAIN = (
    "import os, sys, tomllib\nfrom pathlib import Path\nfrom vllm import LLM, SamplingParams\n"
    "READ\n"
    f"llm = LLM(cfg['model']['name'], hf_overrides=cfg['model']['hf_overrides'], {MASKED})\n"
    "llm.generate(['x'], SamplingParams(**cfg['sampling']))\n"
)
LOADER = "def load(path):\n    with open(path, 'rb') as f:\n        return tomllib.load(f)\n"


@pytest.mark.parametrize(
    "read",
    [
        "with open(Path(__file__).parent / 'conf' / 'run.toml', 'rb') as f:\n    cfg = tomllib.load(f)",
        "cfg = tomllib.loads((Path(__file__).parent / 'conf/run.toml').read_text())",
        "import toml\ncfg = toml.load(os.path.join(os.path.dirname(__file__), 'conf', 'run.toml'))",
        LOADER + "cfg = load(Path(__file__).resolve().parents[0] / 'conf' / 'run.toml')",  # the path a caller passes
    ],
)
def test_a_toml_table_read_by_path_is_written_where_the_file_writes_it(tmp_path: Path, read: str) -> None:
    files = {"conf/run.toml": TOML.replace("OVERRIDE", "canvas_length = 256"), "main.py": TOML_MAIN.replace("READ", read)}
    assert check(tmp_path, files) == [("run.toml", 5, "RPL005")]


def test_a_toml_file_named_when_it_runs_or_without_the_override_is_silent(tmp_path: Path) -> None:
    read = "with open(sys.argv[1], 'rb') as f:\n    cfg = tomllib.load(f)"
    assert (
        check(
            tmp_path / "argv",
            {"conf/run.toml": TOML.replace("OVERRIDE", "canvas_length = 256"), "main.py": TOML_MAIN.replace("READ", read)},
        )
        == []
    )
    read = LOADER + "cfg = load(Path(__file__).parent / 'conf' / 'run.toml')"
    assert (
        check(
            tmp_path / "clean",
            {"conf/run.toml": TOML.replace("OVERRIDE", "rope_theta = 1000000"), "main.py": TOML_MAIN.replace("READ", read)},
        )
        == []
    )


# click's **cli_args over a YAML a click default names from the working folder

CLICK = (
    "import click\nfrom app.serve import serve\n\n"
    "@click.command()\n"
    "@click.option('--config', default='examples/run.yaml')\n"
    "@click.option('--dtype', default=None)\n"
    "@click.option('--batch-sharded/--no-batch-sharded', default=CLI_DEFAULT)\n"
    "def main(config, **cli_args):\n"
    "    serve(config, cli_args)\n"
)
SERVE = (
    "import yaml\nfrom vllm import LLM\n\n"
    "def serve(config, cli_args):\n"
    "    with open(config) as f:\n"
    "        cfg = yaml.safe_load(f)\n"
    "    sharded = cli_args.get('batch_sharded')\n"
    "    LLM('m', dtype=cli_args.get('dtype') or cfg['dtype'],\n"
    "        enable_batch_sharded_sampling=cfg['batch_sharded'] if sharded is None else sharded,\n"
    f"        {MASKED})\n"
)


def _click(tmp_path: Path, cli_default: str, package: bool = True, folder: str = "") -> list[tuple[str, int, str]]:
    folder = "app/" if package else folder
    files = {
        "examples/run.yaml": "dtype: auto\nbatch_sharded: true\n",
        f"{folder}cli.py": CLICK.replace("CLI_DEFAULT", cli_default).replace("app.serve", "app.serve" if package else "serve"),
        f"{folder}serve.py": SERVE,
    }
    if package:
        files["app/__init__.py"] = ""
    return check(tmp_path, files)


def test_click_s_kwargs_default_to_none_and_the_yaml_decides(tmp_path: Path) -> None:
    assert _click(tmp_path, "None") == [("run.yaml", 2, "RPL006")]


def test_a_click_default_that_decides_or_a_script_away_from_the_file_is_silent(tmp_path: Path) -> None:
    assert _click(tmp_path / "off", "False") == []  # the option's default wins over the YAML
    # scripts/cli.py naming examples/run.yaml: where it runs from is not known, and no file is beside it
    assert _click(tmp_path / "script", "None", package=False, folder="scripts/") == []


def test_a_script_beside_the_folder_its_default_names_reads_it(tmp_path: Path) -> None:
    # `python cli.py` where cli.py and examples/ are: the file its program opens run there
    assert _click(tmp_path, "None", package=False) == [("run.yaml", 2, "RPL006")]
