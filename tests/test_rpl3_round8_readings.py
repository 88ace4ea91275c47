"""Readings added for the eighth held-out RPL3xx round (tests/test_rpl3_heldout8.py): a value written
in a variable the command line expands as a whole word (a Dockerfile `ENV` under a shell-form `CMD`,
a Kubernetes `env:` value under `$(VAR)`), reported and fixed where it is written; and an argv list
that a function of the file returns, handed to `os.exec*`, `os.spawn*` or `subprocess`, each in
spellings beyond the held-out cases."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from tests.test_command_lines import findings
from tests.test_configuration import run

REPLAY = "--return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
FLY = '{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 5, "rejection_sample_method": "fly"}'
STANDARD = FLY.replace('"fly"', '"standard"')
ADAPTIVE = '{"method": "mtp", "num_speculative_tokens": 1, "enable_adaptive_verification": true}'


def fixed(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text, encoding="utf-8")
    run(tmp_path, "check", "--no-cache", "--fix", "--unsafe-fixes", name)
    return (tmp_path / name).read_text(encoding="utf-8")


# -- a Dockerfile's ENV, expanded by a shell-form CMD -------------------------------------------------

DOCKERFILE = 'FROM vllm/vllm-openai:v0.34.0\nENV MODEL=Qwen/Qwen3-8B\nENV {env}\nENTRYPOINT []\nCMD vllm serve "$MODEL" {args}\n'


@pytest.mark.parametrize(
    ("env", "args", "expected"),
    [
        pytest.param(f"SPEC_CONFIG='{FLY}'", f'{REPLAY} --speculative-config "$SPEC_CONFIG"', [("RPL306", "Dockerfile", 3)], id="fly"),
        pytest.param(f"SPEC='{FLY}'", f'{REPLAY} -sc "${{SPEC}}"', [("RPL306", "Dockerfile", 3)], id="braces, -sc"),
        pytest.param(
            "MODE=raw_logprobs",
            "--return-sampling-mask --logprobs-mode $MODE --enable-scale-out",
            [("RPL003", "Dockerfile", 3)],
            id="unquoted",
        ),
        pytest.param(f"SPEC='{STANDARD}'", f'{REPLAY} --speculative-config "$SPEC"', [], id="standard: clean"),
        pytest.param(f"SPEC='{ADAPTIVE}'", f'{REPLAY} --speculative-config "$SPEC"', [("RPL002", "Dockerfile", 3)], id="adaptive"),
        pytest.param(
            "MODE=raw_logprobs",
            '--return-sampling-mask --logprobs-mode "$MODE" --enable-scale-out',
            [("RPL003", "Dockerfile", 3)],
            id="logprobs mode",
        ),
        pytest.param(
            "MODE=raw_logprobs",
            '--return-sampling-mask --logprobs-mode="$MODE" --enable-scale-out',
            [("RPL003", "Dockerfile", 5)],
            id="--opt=$X is not the variable alone",
        ),
    ],
)
def test_a_dockerfile_env_value_is_the_place(tmp_path: Path, env: str, args: str, expected: list) -> None:
    assert findings(tmp_path, {"Dockerfile": DOCKERFILE.format(env=env, args=args)}) == expected


def test_a_variable_the_script_sets_again_is_its_own(tmp_path: Path) -> None:
    dockerfile = DOCKERFILE.format(env=f"SPEC='{STANDARD}'", args=f'{REPLAY} --speculative-config "$SPEC"')
    dockerfile = dockerfile.replace("CMD vllm serve", f"CMD SPEC='{FLY}' && vllm serve")
    assert findings(tmp_path, {"Dockerfile": dockerfile}) == [("RPL306", "Dockerfile", 5)]


def test_a_dockerfile_fix_edits_the_env_value(tmp_path: Path) -> None:
    lossy = DOCKERFILE.format(env=f"SPEC='{FLY}'", args=f'{REPLAY} --speculative-config "$SPEC"')
    assert fixed(tmp_path, "Dockerfile", lossy) == lossy.replace('"fly"', '"standard"')
    raw = DOCKERFILE.format(env='MODE="raw_logprobs"', args='--return-sampling-mask --logprobs-mode "$MODE" --enable-scale-out')
    assert fixed(tmp_path, "Dockerfile", raw) == raw.replace('MODE="raw_logprobs"', 'MODE="processed_logprobs"')


# -- a shell script's own assignment ----------------------------------------------------------------

SCRIPT = "#!/bin/bash\n{assign}\nvllm serve Qwen/Qwen3-8B {args}\n"


@pytest.mark.parametrize(
    ("assign", "args", "expected"),
    [
        pytest.param(f"SPEC='{FLY}'", f'{REPLAY} -sc "$SPEC"', [("RPL306", "serve.sh", 2)], id="JSON"),
        pytest.param(
            "MODE=raw_logprobs",
            '--return-sampling-mask --enable-scale-out --logprobs-mode "${MODE}"',
            [("RPL003", "serve.sh", 2)],
            id="mode",
        ),
        pytest.param(
            'MODE="${MODE:-raw_logprobs}"',
            '--return-sampling-mask --enable-scale-out --logprobs-mode "$MODE"',
            [("RPL003", "serve.sh", 3)],
            id="a default taken for an unset variable: at the launch",
        ),
        pytest.param(
            "BASE=raw_logprobs\nMODE=$BASE",
            '--return-sampling-mask --enable-scale-out --logprobs-mode "$MODE"',
            [("RPL003", "serve.sh", 2)],
            id="through another variable: where the text is written",
        ),
    ],
)
def test_a_shell_assignment_is_the_place(tmp_path: Path, assign: str, args: str, expected: list) -> None:
    assert findings(tmp_path, {"serve.sh": SCRIPT.format(assign=assign, args=args)}) == expected


def test_a_shell_fix_edits_the_assignment(tmp_path: Path) -> None:
    script = SCRIPT.format(
        assign=f"SPEC='{FLY}'\nMODE=raw_logprobs", args='--return-sampling-mask --enable-scale-out --logprobs-mode "$MODE" -sc "$SPEC"'
    )
    expected = script.replace('"fly"', '"standard"').replace("MODE=raw_logprobs", "MODE=processed_logprobs")
    assert fixed(tmp_path, "serve.sh", script) == expected


# -- a Kubernetes env value, expanded as $(VAR) in args ----------------------------------------------

POD = (
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: policy\nspec:\n  containers:\n    - name: vllm\n"
    "      image: vllm/vllm-openai:v0.34.0\n"
    "      args: [Qwen/Qwen3-8B, --return-sampling-mask, --enable-scale-out, {args}]\n"
    "      env:\n        - name: {name}\n          {value}\n"
)


@pytest.mark.parametrize(
    ("args", "name", "value", "expected"),
    [
        pytest.param(
            "--logprobs-mode, processed_logprobs, --speculative-config, $(SPEC)",
            "SPEC",
            f"value: '{FLY}'",
            [("RPL306", "pod.yaml", 12)],
            id="fly",
        ),
        pytest.param(
            '--logprobs-mode, processed_logprobs, -sc, "$(SPEC)"',
            "SPEC",
            "value: " + '"' + FLY.replace('"', '\\"') + '"',
            [("RPL306", "pod.yaml", 12)],
            id="double-quoted JSON",
        ),
        pytest.param(
            "--logprobs-mode, processed_logprobs, -sc, $(SPEC)", "SPEC", f"value: '{ADAPTIVE}'", [("RPL002", "pod.yaml", 12)], id="adaptive"
        ),
        pytest.param("--logprobs-mode, $(MODE)", "MODE", "value: raw_logprobs", [("RPL003", "pod.yaml", 12)], id="logprobs mode"),
        pytest.param(
            "--logprobs-mode, processed_logprobs, --speculative-config=$(SPEC)",
            "SPEC",
            f"value: '{FLY}'",
            [("RPL306", "pod.yaml", 9)],
            id="--opt=$(X) is not the variable alone",
        ),
        pytest.param(
            "--logprobs-mode, processed_logprobs, -sc, $(SPEC)",
            "SPEC",
            "valueFrom: {configMapKeyRef: {name: spec, key: json}}",
            [],
            id="from a ConfigMap of the cluster: unknown",
        ),
        pytest.param("--logprobs-mode, processed_logprobs, -sc, $$(SPEC)", "SPEC", f"value: '{FLY}'", [], id="$$(X) is the text $(X)"),
    ],
)
def test_a_kubernetes_env_value_is_the_place(tmp_path: Path, args: str, name: str, value: str, expected: list) -> None:
    assert findings(tmp_path, {"pod.yaml": POD.format(args=args, name=name, value=value)}) == expected


def test_a_kubernetes_fix_edits_the_env_value(tmp_path: Path) -> None:
    lossy = POD.format(args="--logprobs-mode, processed_logprobs, -sc, $(SPEC)", name="SPEC", value=f"value: '{FLY}'")
    assert fixed(tmp_path, "pod.yaml", lossy) == lossy.replace('"fly"', '"standard"')
    raw = POD.format(args="--logprobs-mode, $(MODE)", name="MODE", value="value: 'raw_logprobs'")
    assert fixed(tmp_path, "pod.yaml", raw) == raw.replace("'raw_logprobs'", "'processed_logprobs'")


def test_a_value_that_is_no_plain_word_is_not_written_into_the_variable(tmp_path: Path) -> None:
    from replaylint.command import where_written
    from replaylint.model import Span
    from replaylint.source import SourceFile
    from replaylint.vllm.argv_words import Token

    source = SourceFile("pod.yaml", "value: raw\n")
    token = Token("raw", Span("pod.yaml", 2, 1, 2, 5, 20, 24), "$(X)", written=Span("pod.yaml", 1, 8, 1, 11, 7, 10))
    assert where_written(token, "processed_logprobs", source) is not None
    assert where_written(token, "true", source) is None  # a YAML boolean, bare
    assert where_written(token, "a b", source) is None
    assert where_written(token, "x", SourceFile("other.yaml", "value: raw\n")) is None


# -- an argv list a function of the file returns --------------------------------------------------

LAUNCHER = (
    "import os\nimport subprocess\nimport sys\n\n\n"
    "def build_command(args):\n"
    "    command = [\n"
    '        sys.executable, "-m", {module},\n'
    '        "--return-sampling-mask",\n'
    '        "--logprobs-mode", "processed_logprobs",\n'
    "    ]\n"
    "    if args.enforce_eager:\n"
    '        command += ["--enforce-eager"]\n'
    "    return command\n\n\n"
    "def main(args):\n"
    "    env = os.environ.copy()\n"
    "    {start}\n"
)
CLI_MAIN = '"vllm.entrypoints.cli.main", "serve", args.model'
API_SERVER = '"vllm.entrypoints.openai.api_server", "--model", args.model'


@pytest.mark.parametrize(
    "start",
    [
        "os.execve(sys.executable, build_command(args), env)",
        "os.execv(sys.executable, build_command(args))",
        'os.execvp("python", build_command(args))',
        'os.execvpe("python", build_command(args), env)',
        "os.spawnv(os.P_NOWAIT, sys.executable, build_command(args))",
        'os.spawnvpe(os.P_WAIT, "python", build_command(args), env)',
        "subprocess.Popen(build_command(args), env=env)",
        "subprocess.run(args=build_command(args), check=True)",
        "command = build_command(args)\n    os.execve(sys.executable, command, env)",
    ],
)
@pytest.mark.parametrize("module", [CLI_MAIN, API_SERVER])
def test_a_returned_argv_list_is_the_launch(tmp_path: Path, start: str, module: str) -> None:
    launcher = LAUNCHER.format(module=module, start=start)
    assert findings(tmp_path, {"launch.py": launcher}) == [("RPL301", "launch.py", 9)]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (('"--return-sampling-mask",', '"--return-sampling-mask", "--enable-scale-out",'), "scale-out"),
        (("    return command\n", '    if args.fast:\n        return ["vllm", "serve", "m"]\n    return command\n'), "two returns"),
        (("    return command\n", "    return command + args.extra\n"), "words we cannot read follow"),
        (("def main(args):", "def build_command(args):\n    return []\n\n\ndef main(args):"), "defined twice"),
        (("build_command(args)", "other.build_command(args)"), "another module's function"),
    ],
)
def test_a_returned_argv_list_that_says_nothing_for_sure(tmp_path: Path, change: tuple[str, str], why: str) -> None:
    launcher = LAUNCHER.format(module=CLI_MAIN, start="os.execve(sys.executable, build_command(args), env)")
    if why == "another module's function":
        launcher = launcher.replace("    {start}", "").replace(*change).replace("import sys\n", "import sys\n\nimport other\n")
        launcher = launcher.replace(
            "os.execve(sys.executable, build_command(args), env)", "os.execve(sys.executable, other.build_command(args), env)"
        )
    else:
        launcher = launcher.replace(*change)
    assert findings(tmp_path, {"launch.py": launcher}) == [], why


def test_a_returned_argv_list_is_fixed_in_the_function(tmp_path: Path) -> None:
    launcher = LAUNCHER.format(module=CLI_MAIN, start="os.execve(sys.executable, build_command(args), env)")
    expected = launcher.replace('"--return-sampling-mask",\n', '"--return-sampling-mask",\n        "--enable-scale-out",\n')
    assert fixed(tmp_path, "launch.py", launcher) == expected


prescan = importlib.import_module("replaylint.frontends.python.prescan")
names = importlib.import_module("replaylint.frontends.python.names")


def nothing_starts(text: str) -> bool:
    return prescan.nothing_starts(text, set(names.ENGINE_NAMES) | names.vllm_aliases(text), names.imported_spawners(text))


def test_the_prescan_keeps_a_starting_call_of_a_replay_function() -> None:
    launcher = LAUNCHER.format(module=CLI_MAIN, start="os.execve(sys.executable, build_command(args), env)")
    assert not nothing_starts(launcher)
    decorated = launcher.replace("def build_command", "@functools.cache\ndef build_command")
    assert not nothing_starts(decorated)
    assert nothing_starts(launcher.replace("build_command(args), env)", "[sys.executable, '-m', 'http.server'], env)"))


# -- a TRL trainer's recipe beside a spot check of the masks -----------------------------------------

CASE = Path(__file__).parent / "data" / "rpl3_heldout8" / "trl_parser_recipe_yaml_repetition_penalty"
SPOT_CHECK = (
    "import requests\n\n"
    'resp = requests.post("http://localhost:{port}/inference/v1/generate", json={{"token_ids": [1], "sampling_params": {{"max_tokens": 8}}}})\n'
    'print(resp.json()["choices"][0]["sampling_mask"])\n'
)


def _recipe_tree(tmp_path: Path, pin: str | None, spot_check_port: int | None) -> dict[str, str]:
    files = {name: (CASE / name).read_text(encoding="utf-8") for name in ("serve.sh", "launch.sh", "grpo.py", "recipes/grpo.yaml")}
    if pin is not None:
        files["requirements.txt"] = f"{pin}\n"
    if spot_check_port is not None:
        files["tools/check_masks.py"] = SPOT_CHECK.format(port=spot_check_port)
    return files


@pytest.mark.parametrize(
    ("pin", "port", "expected"),
    [
        pytest.param("trl==1.16.0", 8000, [("RPL302", "grpo.yaml", 18)], id="the tree reads the masks"),
        pytest.param("trl==1.16.0", 8001, [("RPL301", "launch.sh", 5), ("RPL302", "grpo.yaml", 18)], id="a spot check of another server"),
        pytest.param("trl==1.16.0", None, [("RPL301", "launch.sh", 5), ("RPL302", "grpo.yaml", 18)], id="no spot check"),
        pytest.param("trl==1.10.0", 8000, [("RPL204", "serve.sh", 5)], id="TRL 1.10 refuses the forwarded flag"),
        pytest.param(None, 8000, [], id="no pin: the editions disagree"),
    ],
)
def test_a_trl_recipe_penalty_is_judged_with_the_edition_the_tree_pins(
    tmp_path: Path, pin: str | None, port: int | None, expected: list
) -> None:
    assert findings(tmp_path, _recipe_tree(tmp_path, pin, port)) == expected
