"""The prefilter decides most files on raw bytes; it may turn a file away only when no rule can
report anything in it. Checked on hand-picked spellings and, as a property, on every golden
fixture, bundled example and rule example: a file with findings is never turned away."""

from __future__ import annotations

from pathlib import Path

import pytest

from replaylint import frontends
from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.framework_registry import ADAPTERS, prefilter_words
from replaylint.frontends import triggers
from replaylint.rules import RULES

ROOT = Path(__file__).resolve().parent.parent

LAUNCH = b'import subprocess\nsubprocess.run(["vllm", "serve", "m"], env=ENV)\n'


@pytest.mark.parametrize(
    ("kind", "data", "read"),
    [
        # Python reads the runner variable far more often than it writes it
        ("python", b'ENV = {"VLLM_USE_V2_MODEL_RUNNER": "true"}\n' + LAUNCH, True),
        ("python", b'ENV = {"VLLM_USE_V2_MODEL_RUNNER": flag}\n' + LAUNCH, True),
        ("python", b'os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "1.0"\n' + LAUNCH, True),
        ("python", b'os.environ[\n    "VLLM_USE_V2_MODEL_RUNNER"\n] = "yes"\n' + LAUNCH, True),
        ("python", b'os.environ.update(VLLM_USE_V2_MODEL_RUNNER="true")\n' + LAUNCH, True),
        ("python", b'subprocess.run("VLLM_USE_V2_MODEL_RUNNER=on vllm serve m", shell=True)\n', True),
        ("python", b'ENV = {"VLLM_USE_V2_MODEL_RUNNER": "1"}\n' + LAUNCH, False),
        ("python", b'os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"  # V1\n' + LAUNCH, True),  # vLLM 0.34.0 refuses `0` in any launch
        ("python", b'os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER","1")\n' + LAUNCH, False),
        ("python", b'v2 = os.environ.get("VLLM_USE_V2_MODEL_RUNNER") == "1"\n' + LAUNCH, False),
        ("python", b'os.environ.pop("VLLM_USE_V2_MODEL_RUNNER", None)\n' + LAUNCH, False),
        ("python", b'v1 = os.environ.get("VLLM_USE_V2_MODEL_RUNNER", "0") == "0"\n' + LAUNCH, False),
        ("python", b'v1 = os.getenv("VLLM_USE_V2_MODEL_RUNNER", "0") == "0"\n' + LAUNCH, False),
        # a read, then a write further on: each mention is looked at
        ("python", b'v1 = os.getenv("VLLM_USE_V2_MODEL_RUNNER", "0")\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"\n' + LAUNCH, True),
        # pytest's monkeypatch (vLLM's tests): the frontend reads no write there
        ("python", b'def test_v1(monkeypatch):\n    monkeypatch.setenv("VLLM_USE_V2_MODEL_RUNNER", "0")\n    LLM("m")\n', False),
        ("python", b'os.environ.setdefault("VLLM_USE_V2_MODEL_RUNNER", "0")\n' + LAUNCH, True),
        ("python", b'os.putenv("VLLM_USE_V2_MODEL_RUNNER", "0")\n' + LAUNCH, True),
        # vLLM's own envs.py: an annotated name and a getter table set nothing
        ("python", b"    VLLM_USE_V2_MODEL_RUNNER: bool | None = None\n" + LAUNCH, False),
        (
            "python",
            b'    "VLLM_USE_V2_MODEL_RUNNER": lambda: maybe_convert_bool(os.getenv("VLLM_USE_V2_MODEL_RUNNER", None)),\n' + LAUNCH,
            False,
        ),
        ("python", b'ENV = {"VLLM_USE_V2_MODEL_RUNNER": str(0)}\n' + LAUNCH, True),
        (
            "python",
            b'VLLM_USE_V2_MODEL_RUNNER: str = "0"\nos.environ["VLLM_USE_V2_MODEL_RUNNER"] = VLLM_USE_V2_MODEL_RUNNER\n' + LAUNCH,
            True,
        ),
        ("python", b'subprocess.run("VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m", shell=True)\n', False),
        # and so do scripts
        ("shell", b"VLLM_USE_V2_MODEL_RUNNER=true vllm serve m\n", True),
        ("shell", b"export VLLM_USE_V2_MODEL_RUNNER=$RUNNER\nvllm serve m\n", True),
        ("shell", b": ${VLLM_USE_V2_MODEL_RUNNER:=yes}\nvllm serve m\n", True),
        ("shell", b'docker run --env "VLLM_USE_V2_MODEL_RUNNER=1" vllm/vllm-openai m\n', False),
        # a Ray job's runtime env, as JSON (`${NAME:-1}` is read, not set)
        ("shell", b"""ray job submit --runtime-env-json='{"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "0"}}' -- vllm serve m\n""", True),
        ("shell", b"""ray job submit --runtime-env-json='{"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "1"}}' -- vllm serve m\n""", False),
        ("shell", b'echo "${VLLM_USE_V2_MODEL_RUNNER:-0}"\nvllm serve m\n', False),
        (
            "shell",
            b'VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m  # V1\necho "${VLLM_USE_V2_MODEL_RUNNER:-1}"\n',
            True,
        ),  # vLLM 0.34.0 refuses `0` in any launch
        # Dockerfiles (`ENV NAME value` too) and YAML (a Kubernetes `name:`/`value:` pair too)
        ("dockerfile", b"FROM vllm/vllm-openai:v0.32.0\nENV VLLM_USE_V2_MODEL_RUNNER true\n", True),
        ("dockerfile", b"FROM vllm/vllm-openai:v0.32.0\nENV VLLM_USE_V2_MODEL_RUNNER=$RUNNER\n", True),
        ("dockerfile", b"FROM vllm/vllm-openai:v0.32.0\nENV VLLM_USE_V2_MODEL_RUNNER 1\n", False),
        ("yaml", b"env:\n- name: VLLM_USE_V2_MODEL_RUNNER\n  value: 'yes'\nimage: vllm/vllm-openai\n", True),
        (
            "yaml",
            b"env:\n- name: VLLM_USE_V2_MODEL_RUNNER\n  valueFrom: {configMapKeyRef: {name: a, key: b}}\nimage: vllm/vllm-openai\n",
            True,
        ),
        ("yaml", b"environment:\n  VLLM_USE_V2_MODEL_RUNNER: true\nimage: vllm/vllm-openai\n", True),
        (
            "yaml",
            b"env:\n- name: VLLM_USE_V2_MODEL_RUNNER\n  value: '0'\nimage: vllm/vllm-openai\n",
            True,
        ),  # vLLM 0.34.0 refuses `0` in any launch
        ("yaml", b"env: [{name: VLLM_USE_V2_MODEL_RUNNER, value: '1'}]\nimage: vllm/vllm-openai\n", False),
        # Markdown prose of a recipe (vLLM's recipes/*.yaml) or a comment: a code span sets nothing
        ("yaml", b"description: |\n  Set `VLLM_USE_V2_MODEL_RUNNER=1` for DSpark.\ncommand: vllm serve m\n", False),
        ("shell", b"# needs `VLLM_USE_V2_MODEL_RUNNER=1`, see the recipe\nvllm serve m\n", False),
        ("yaml", b"description: Set `VLLM_USE_V2_MODEL_RUNNER=0` for V1.\ncommand: vllm serve m\n", True),
        # ... but a shell's command substitution that launches with it does
        ("shell", b"out=`VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m --port 1`\n", True),
        ("yaml", b"steps:\n- command: VLLM_USE_V2_MODEL_RUNNER=1 pytest -v tests/ # vllm\n", False),
        # `--config` loads only .yaml/.yml files; `--config=` is the ignored spelling
        ("shell", b"vllm serve m --config serve.yaml\n", True),
        ("shell", b"vllm serve m --config=serve.cfg\n", True),
        ("python", b'subprocess.run(["vllm", "serve", "--config", "c.yml"])\n', True),
        ("shell", b'vllm serve m --config "$CONFIG"\n', False),
        ("shell", b"python train.py --config train.yaml  # no engine here\n", False),
        ("yaml", b"- pytest test_lm_eval.py --config-list-file=configs/models.yaml  # vllm\n", False),
        # the mask itself, in any spelling, always counts
        ("shell", b"vllm serve m --return-s\n", True),
        ("yaml", b"SM_VLLM_RETURN_SAMPLING_MASK: 'true'\n", True),
        ("python", b"from vllm import LLM\n", False),
        # an engine built from a config file named by path; an `AsyncLLM(` call is not `LLM(`,
        # and the word that names the path may come after a first mention that does not
        ("python", b'@hydra.main(config_name="replay")\ndef main(cfg):\n    AsyncLLM(**cfg)\n', False),
        (
            "python",
            b'# config_name: see below\n@hydra.main(config_name="replay")\ndef main(cfg):\n    AsyncLLM(**cfg)\n    LLM(**cfg)\n',
            True,
        ),
        ("json", b'{"note": "return_sampling_mask", "engine": {"return_sampling_mask": true}}', True),
        # the server's flag as a word of a list another module splices in; not vLLM's own parser's option
        ("python", b'REPLAY_ARGS = [\n    "--return-sampling-mask",\n    "--logprobs-mode",\n]\n', True),
        ("python", b"ARGS = ['--max-model-len', '8192', '--return_sampling_mask']\n", True),
        ("python", b'group.add_argument(\n    "--return-sampling-mask",\n    **model_kwargs["return_sampling_mask"],\n)\n', False),
    ],
)
def test_prefilter(kind: str, data: bytes, read: bool) -> None:
    assert frontends.relevant(kind, data) is read


def _corpus() -> list[tuple[str, str]]:
    files = [
        (str(path), path.read_text(encoding="utf-8", errors="surrogateescape"))
        for folder in (ROOT / "fixtures", ROOT / "examples")
        for path in sorted(folder.rglob("*"))
        if path.is_file() and frontends.kind_for(str(path), path.read_bytes()[:256]) is not None
    ]
    files += [(f"{rule.code}/{example.filename}", example.source) for rule in RULES for example in (*rule.VALID, *rule.INVALID)]
    return files


def test_the_prefilter_never_hides_a_finding(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # the rule examples' relative names: nothing around them (not this checkout) to read
    checker = Checker(Config())
    corpus = _corpus()
    assert len(corpus) > 250
    hidden = []
    for path, text in corpus:
        data = text.encode("utf-8", "surrogateescape")
        kind = frontends.kind_for(path, data[:256])
        findings = [f.code for f in checker.check_text(path, text, kind).findings if f.code not in ("RPL900", "RPL901")]
        if findings and not frontends.relevant(kind, data):
            hidden.append((path, findings))
    assert hidden == []


@pytest.mark.parametrize(
    "prefilter", [prefilter for adapter in ADAPTERS for prefilter in adapter.prefilters], ids=lambda prefilter: prefilter.kind
)
def test_a_file_a_framework_prefilter_matches_is_read(prefilter) -> None:
    """A framework may launch with the mask without naming it (a fork's defaults, NeMo-RL's
    `defaults:` file, prime-rl's implicit mask): a file holding one word of each group of its
    registry prefilter passes the first look (`triggers.WORDS`, which needs the registry's
    `prefilter_words`) and is read."""
    data = b"\n".join(group[-1] for group in prefilter.groups) + b"\n"
    assert prefilter.matches(data)
    assert set(prefilter_words()) <= set(triggers.WORDS)
    assert frontends.relevant(prefilter.kind, data)
