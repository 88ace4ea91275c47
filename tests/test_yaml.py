"""The YAML frontend: spans, environments, config-file words, fixes, bad input.

Tests of scripts held in YAML (`sh -c`, workflow `run:` steps) need the shell frontend and
are skipped without it. The golden cases are under fixtures/yaml/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml as pyyaml
from hypothesis import HealthCheck, given, settings, strategies as st

from replaylint.edits import apply_edits
from replaylint.engine.checker import Checker
from replaylint.engine.config import Config
from replaylint.frontends import ExtractContext, ParseError, SourceFile, yaml as frontend
from replaylint.frontends.yaml.container_launch import ScriptHandle, shell_frontend
from replaylint.model import UNKNOWN, Applicability, Fix, LaunchKind, RemoveEnv, RemoveSetting, SetEnv, SetSetting
from replaylint.readers import yaml_nodes as nodes, yaml_text
from replaylint.readers.vllm_config import load_config_tokens
from replaylint.source import NotAnalysed
from replaylint.vllm import command_line
from replaylint.vllm.releases import parse_release

FIXTURES = Path(__file__).parent.parent / "fixtures" / "yaml"
needs_shell = pytest.mark.skipif(shell_frontend() is None, reason="the shell frontend is not available yet")


def extract(text: str, path: str = "file.yaml", context: ExtractContext | None = None):
    return frontend.extract(SourceFile(path, text), context or ExtractContext())


def only(text: str, path: str = "file.yaml"):
    launches = extract(text, path)
    assert len(launches) == 1, launches
    return launches[0]


def snippet(text: str, span) -> str:
    return text[span.start : span.end]


def check(tmp_path: Path, files: dict[str, str], release: str | None = None):
    config = Config()
    if release:
        config.target_vllm = parse_release(release)
        config.target_vllm_forced = True
    for name, text in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        checker = Checker(config)
        return {name: checker.check_file(name) for name in files}
    finally:
        os.chdir(cwd)


def fixed(tmp_path: Path, files: dict[str, str], code: str, release: str | None = None, path: str | None = None) -> str:
    """The text of `path` (default: the first file) after the edits of every `code` finding."""
    results = check(tmp_path, files, release)
    path = path or next(iter(files))
    edits = [e for result in results.values() for f in result.findings if f.code == code for e in f.edits if e.span.path == path]
    assert edits, [(f.code, f.message) for r in results.values() for f in r.findings]
    text = (tmp_path / path).read_text()
    new, left = apply_edits(text, edits)
    assert not left
    assert frontend.parses(new)
    return new


def codes(results) -> list[str]:
    return sorted(f.code for result in results.values() for f in result.findings)


# -- scalar text with offsets ------------------------------------------------------------------

SCALARS = [
    "a: plain words\n",
    "a: plain\n  folded\n\n  with blank\n",
    "a: 'it''s\n\n   folded  \n  here'\n",
    'a: "esc \\" \\\\ \\u00e9 \\x41 \\t\\\n   joined"\n',
    "a: |\n  literal\n    indented\n\n  end\n",
    "a: |-\n  strip\n",
    "a: |+\n  keep\n\n\nb: 1\n",
    "a: >\n  folded\n  lines\n\n  para\n    more\n  back\n",
    "a: >-\n  x\n",
    "a: |2\n    two\n   one\n",
    "- - nested\n  - >\n     deep\n",
    "a: \"\"\nb: ''\nc: |\n\nd: x\r\n",
]


@pytest.mark.parametrize("text", SCALARS)
def test_scalar_text_is_exact(text: str) -> None:
    for document in nodes.compose_all(text):
        for node, _ in nodes.walk(document):
            if isinstance(node, pyyaml.ScalarNode):
                value = yaml_text.scalar_text(text, node)
                assert value.exact, (text, node.value)
                assert value.value == node.value
                for char, start, end in zip(value.value, value.starts, value.ends):
                    if text[start:end] == char:
                        continue
                    assert end > start  # an escape or a folded line break


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab -:#'\"\\\n\t{}[]$é")), max_size=40), st.sampled_from([None, "'", '"', "|", ">"]))
def test_scalar_text_round_trips(value: str, style: str | None) -> None:
    try:
        text = pyyaml.dump({"k": value}, default_style=style, allow_unicode=True, width=12)
        document = pyyaml.compose(text, Loader=pyyaml.SafeLoader)
    except pyyaml.YAMLError:
        return
    node = document.value[0][1]
    result = yaml_text.scalar_text(text, node)
    assert result.value == node.value
    if result.exact:
        for char, start, end in zip(result.value, result.starts, result.ends):
            assert 0 <= start <= end <= len(text)
            if end - start == 1 and char not in " \n":
                assert text[start] == char


# -- Kubernetes ----------------------------------------------------------------------------------

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.31.0
          args:
            - m
            - --return-sampling-mask
            - "--logprobs-mode"
            - raw_logprobs
          env:
            - name: VLLM_USE_V2_MODEL_RUNNER
              value: "0"
"""


def test_kubernetes_spans_point_at_items() -> None:
    launch = only(DEPLOYMENT)
    assert launch.kind is LaunchKind.KUBERNETES
    assert launch.version_hint is not None and launch.version_hint.releases == ("0.31.0",)
    assert snippet(DEPLOYMENT, launch.version_hint.span) == "vllm/vllm-openai:v0.31.0"
    mask = launch.get("return_sampling_mask")
    assert snippet(DEPLOYMENT, mask.span) == "--return-sampling-mask"
    mode = launch.get("logprobs_mode")
    assert mode.value == "raw_logprobs"
    assert snippet(DEPLOYMENT, mode.value_span) == "raw_logprobs"
    assert snippet(DEPLOYMENT, mode.span).startswith('"--logprobs-mode"')
    env = launch.env["VLLM_USE_V2_MODEL_RUNNER"]
    assert env.value == "0"
    assert snippet(DEPLOYMENT, env.span) == 'name: VLLM_USE_V2_MODEL_RUNNER\n              value: "0"'
    assert snippet(DEPLOYMENT, env.value_span) == '"0"'
    assert env.spelling == "VLLM_USE_V2_MODEL_RUNNER=0"
    assert launch.get("model").value == "m"
    assert not launch.open_ended and not launch.env_open


def test_kubernetes_command_forms() -> None:
    base = "kind: Pod\nspec:\n  containers:\n  - name: c\n    image: {image}\n    command: {command}\n    args: [--return-sampling-mask]\n"
    served = only(base.format(image="example/custom:1", command='["vllm", "serve", "m"]'))
    assert served.get("model").value == "m"
    api = only(base.format(image="example/custom:1", command="[python3, -m, vllm.entrypoints.openai.api_server, --model, m]"))
    assert api.get("model").value == "m"
    dynamo = only(base.format(image="example/custom:1", command="[python, -m, dynamo.vllm, --model-path, m]"))
    assert dynamo.get("return_sampling_mask").value is True
    env_prefix = only(base.format(image="x", command="[env, VLLM_USE_V2_MODEL_RUNNER=0, vllm, serve, m]"))
    assert env_prefix.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert extract(base.format(image="vllm/vllm-openai:v0.31.0", command="[/usr/bin/my-server]")) == []
    # Without command, another image's entrypoint is unknown: only replay flags make it a launch.
    unknown = only("kind: Pod\nspec:\n  containers:\n  - image: example/wrapper:1\n    args: [--return-sampling-mask]\n")
    assert unknown.open_ended and any("entrypoint" in reason for reason in unknown.open_reasons)
    assert extract("kind: Pod\nspec:\n  containers:\n  - image: example/wrapper:1\n    args: [--port, '80']\n") == []


def test_kubernetes_init_containers_and_other_images_are_not_launches() -> None:
    text = """\
kind: Pod
spec:
  initContainers:
    - image: vllm/vllm-openai:v0.31.0
      args: [--return-sampling-mask]
  containers:
    - image: busybox
      args: [sleep, "1"]
"""
    assert extract(text) == []


def test_kubernetes_env_substitution_and_unknowns() -> None:
    text = """\
kind: Pod
spec:
  containers:
    - image: vllm/vllm-openai:v0.33.0
      env:
        - {name: A, value: raw_logits}
        - {name: B, value: "$(A)"}
        - {name: SECRET, valueFrom: {secretKeyRef: {name: s, key: k}}}
        - {name: EMPTY}
        - {name: A2, value: first}
        - {name: A2, value: second}
      args: ["m", "--logprobs-mode", "$(B)", "--served-model-name", "$$(A)", "--tokenizer", "$(SECRET)"]
"""
    launch = only(text)
    assert launch.get("logprobs_mode").value == "raw_logits"
    assert launch.get("served_model_name").value == ["$(A)"]
    assert launch.env["SECRET"].value is UNKNOWN
    assert launch.env["EMPTY"].value == ""
    assert launch.env["A2"].value == "second"
    assert launch.get("tokenizer").value is UNKNOWN  # $(SECRET)
    env_from = only(
        "kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai\n    envFrom: [{configMapRef: {name: x}}]\n    args: [m]\n"
    )
    assert env_from.env_open and not env_from.open_ended


DYNAMO_GRAPH = """\
apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: vllm-disagg
spec:
  services:
    Frontend:
      componentType: main
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.1
          command: [python3, -m, dynamo.frontend]
    VllmDecodeWorker:
      envs:
        - name: {name}
          value: "{value}"
      readinessProbe:
        exec:
          command: [/bin/sh, -c, 'curl -s http://localhost:9090/health']
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.1
          workingDir: /workspace/examples/backends/vllm
          command:
            - /bin/sh
            - -c
          args:
            - "python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B {flags} 2>&1 | tee /tmp/vllm.log"
"""


def test_dynamo_graph_services_run_their_main_container(tmp_path: Path) -> None:
    """A DynamoGraphDeployment's services run `extraPodSpec.mainContainer` with the service's
    `envs` (found by the real-world corpus: Dynamo's planner configs, judged by Dynamo's own
    parser and vLLM 0.34.0)."""
    logging = {"name": "VLLM_LOGGING_LEVEL", "value": "DEBUG"}
    mask_alone = DYNAMO_GRAPH.format(**logging, flags="--return-sampling-mask")
    (launch,) = [launch for launch in extract(mask_alone) if launch.get("return_sampling_mask")]
    assert launch.env["VLLM_LOGGING_LEVEL"].value == "DEBUG"
    assert codes(check(tmp_path, {"graph.yaml": mask_alone}, "0.34.0")) == ["RPL003"]
    processed = DYNAMO_GRAPH.format(**logging, flags="--return-sampling-mask --logprobs-mode processed_logprobs")
    assert codes(check(tmp_path, {"graph.yaml": processed}, "0.34.0")) == []
    assert codes(check(tmp_path, {"graph.yaml": DYNAMO_GRAPH.format(**logging, flags="")}, "0.34.0")) == []
    runner_off = DYNAMO_GRAPH.format(
        name="VLLM_USE_V2_MODEL_RUNNER", value="0", flags="--return-sampling-mask --logprobs-mode processed_logprobs"
    )
    assert codes(check(tmp_path, {"graph.yaml": runner_off}, "0.33.0")) == ["RPL004"]  # the service's envs reach the worker


def test_kserve_runtime_args_are_merged() -> None:
    text = (FIXTURES / "kserve" / "runtime.yaml").read_text()
    launches = extract(text)
    merged = launches[0]
    assert merged.label.startswith("InferenceService qwen-replay on vllm-replay-runtime")
    assert merged.get("return_sampling_mask").value is True
    assert merged.get("logprobs_mode").value == "raw_logits"
    assert merged.get("served_model_name").value == ["{{.Name}}"]
    assert merged.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert not merged.open_ended
    elsewhere = launches[1]
    assert elsewhere.open_ended and any("shared-vllm-runtime" in reason for reason in elsewhere.open_reasons)


def test_helm_templates_are_not_ours() -> None:
    template = (FIXTURES / "templates-and-errors" / "chart" / "templates" / "deployment.yaml").read_text()
    assert extract(template) == []
    parsed_template = 'kind: Pod\nspec:\n  containers:\n  - image: "{{ .Values.image }}"\n    command: [vllm, serve]\n    args: ["{{ .Values.model }}", --return-sampling-mask]\n'
    launch = only(parsed_template)
    assert launch.get("model").value is UNKNOWN  # a template placeholder is an unknown word


VLLM_CHART_VALUES = (
    'image:\n  repository: "vllm/vllm-openai"\n  tag: "v0.31.0"\n'
    '  command: ["vllm", "serve", "/data/", "--return-sampling-mask", "--port", "8000"]\n'
    "  env:\n    - name: VLLM_USE_V2_MODEL_RUNNER\n      value: '1'\n"
    "configs: {}\nsecrets: {}\n"
)


def test_vllms_own_chart_runs_image_command() -> None:
    # realworld B7: vLLM's examples/deployment/chart-helm keeps the launch in `image.command`
    chart = {"chart/Chart.yaml": "apiVersion: v2\nname: chart-vllm\n"}
    launch = frontend.extract(SourceFile("chart/values.yaml", VLLM_CHART_VALUES), ExtractContext(read_text=chart.get))[0]
    assert launch.kind is LaunchKind.HELM and not launch.open_ended and not launch.env_open
    assert launch.get("model").value == "/data/" and launch.get("return_sampling_mask").value is True
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "1" and launch.version_hint.releases == ("0.31.0",)
    # configs become envFrom: the environment is no longer known
    opened = frontend.extract(
        SourceFile("chart/values.yaml", VLLM_CHART_VALUES.replace("configs: {}", "configs:\n  a: b")), ExtractContext(read_text=chart.get)
    )[0]
    assert opened.env_open


def test_image_command_of_another_chart_is_open_ended() -> None:
    (launch,) = extract(VLLM_CHART_VALUES, "values.yaml")
    assert launch.open_ended and launch.get("return_sampling_mask").value is True


# -- docker-compose -------------------------------------------------------------------------------


def test_compose_string_words_have_exact_spans() -> None:
    text = (
        'services:\n  a:\n    image: vllm/vllm-openai:v0.33.0\n    command: "m --return_sampling_mask --logprobs-mode \\"raw_logits\\""\n'
    )
    launch = only(text)
    assert launch.kind is LaunchKind.COMPOSE
    mode = launch.get("logprobs_mode")
    assert mode.value == "raw_logits"
    assert snippet(text, mode.value_span) == '\\"raw_logits\\"'
    assert snippet(text, launch.get("return_sampling_mask").span) == "--return_sampling_mask"


def test_compose_interpolation_and_environment() -> None:
    text = """\
services:
  a:
    image: vllm/vllm-openai:v0.33.0
    command: ["m", "--return-sampling-mask", "--logprobs-mode", "${MODE:-processed_logprobs}", "--served-model-name", "$$HOME"]
    environment:
      VLLM_USE_V2_MODEL_RUNNER: 0
      FROM_SHELL:
      INTERPOLATED: ${X}
  b:
    image: vllm/vllm-openai:v0.33.0
    command: m --return-sampling-mask
    environment: [VLLM_USE_V2_MODEL_RUNNER=1, HF_TOKEN]
    env_file: .env
"""
    a, b = extract(text)
    assert a.get("logprobs_mode").value is UNKNOWN
    assert a.get("served_model_name").value == ["$HOME"]
    assert a.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert a.env["FROM_SHELL"].value is UNKNOWN
    assert a.env["INTERPOLATED"].value is UNKNOWN
    assert not a.env_open
    assert b.env["VLLM_USE_V2_MODEL_RUNNER"].value == "1"
    assert snippet(text, b.env["VLLM_USE_V2_MODEL_RUNNER"].value_span) == "1"
    assert b.env["HF_TOKEN"].value is UNKNOWN
    assert b.env_open


def test_compose_entrypoint_replaces_the_image_entrypoint() -> None:
    text = "services:\n  a:\n    image: vllm/vllm-openai:v0.33.0\n    entrypoint: [/bin/server]\n    command: [--return-sampling-mask]\n"
    assert extract(text) == []
    api = only(
        "services:\n  a:\n    image: vllm/vllm-openai\n    entrypoint: python3 -m vllm.entrypoints.openai.api_server\n    command: --model m --return-sampling-mask\n"
    )
    assert api.get("model").value == "m"


def test_merge_keys_and_custom_tags() -> None:
    text = (FIXTURES / "compose-anchors" / "compose.yml").read_text()
    first, third = extract(text)
    assert first.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert first.get("logprobs_mode").value == "processed_logprobs"
    assert "VLLM_USE_V2_MODEL_RUNNER" not in third.env


# -- vLLM config files ------------------------------------------------------------------------------

CONFIG = """\
# comment
model: Qwen/Qwen3-8B
tensor_parallel_size: 2
return-sampling-mask: true
enforce-eager: false
logits_processors: [a.b:C, d.e:F]
empty-list: []
speculative-config:
  method: mtp
  num_speculative_tokens: 1
  enable-adaptive-verification: true
speculative-config.method: ngram
max_model_len: 1_024
"""


def test_config_tokens_follow_load_config_file(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "engine.yaml").write_text(CONFIG)
    context = ExtractContext(read_text=lambda p: (tmp_path / p).read_text() if (tmp_path / p).exists() else None)
    tokens = load_config_tokens("conf/engine.yaml", command_line.Token("conf/engine.yaml", None, "conf/engine.yaml"), context, "serve.sh")  # type: ignore[arg-type]
    assert tokens is not None
    words = [t.text for t in tokens]
    assert words[:5] == ["--model", "Qwen/Qwen3-8B", "--tensor_parallel_size", "2", "--return-sampling-mask"]
    assert "--enforce-eager" not in words and "--empty-list" not in words
    assert words[5:8] == ["--logits_processors", "a.b:C", "d.e:F"]
    spec = tokens[words.index("--speculative-config") + 1]
    assert spec.value == {"method": "mtp", "num_speculative_tokens": 1, "enable-adaptive-verification": True}
    adaptive = spec.keys["enable_adaptive_verification"]
    assert adaptive.span.path == "conf/engine.yaml"
    assert CONFIG[adaptive.value_span.start : adaptive.value_span.end] == "true"
    assert (adaptive.span.start_line, adaptive.span.start_col) == (11, 3)
    assert words[-2:] == ["--max_model_len", "1024"]  # str() of the YAML 1.1 int
    parsed = command_line.parse(tokens)
    assert parsed.settings["return_sampling_mask"].value is True
    assert parsed.settings["speculative_config"].value == {"method": "ngram"}  # the dotted key wins


def test_config_quoted_true_is_an_extra_word() -> None:
    config = nodes.compose_all("return_sampling_mask: 'true'\n")[0]
    from replaylint.readers import vllm_config

    tokens = vllm_config.tokens(vllm_config.ConfigFile("c.yaml", "return_sampling_mask: 'true'\n", SourceFile("c.yaml", "").index, config))
    parsed = command_line.parse(tokens)
    assert [issue.kind for issue in parsed.issues] == ["switch-followed-by-value"]


def test_config_loader_refuses_what_vllm_would_not_read(tmp_path: Path) -> None:
    files = {"list.yaml": "- a\n", "two.yaml": "a: 1\n---\nb: 2\n", "bad.yaml": "a: [\n"}
    context = ExtractContext(read_text=lambda p: files.get(os.path.basename(p)))
    token = command_line.Token("x", None, "x")  # type: ignore[arg-type]
    for name in files:
        assert load_config_tokens(name, token, context, "serve.sh") is None
    assert load_config_tokens("/etc/vllm/config.yaml", token, context, "serve.sh") is None
    assert load_config_tokens("config.json", token, context, "serve.sh") is None
    assert load_config_tokens("missing.yaml", token, context, "serve.sh") is None


def test_standalone_config_is_open_ended() -> None:
    launch = only(CONFIG, "engine.yaml")
    assert launch.kind is LaunchKind.VLLM_CONFIG
    assert launch.open_ended
    assert extract("model: m\nlogprobs_mode: raw_logprobs\n") == []
    # A request body with the mask option is not an engine config.
    assert extract((FIXTURES / "lookalike-sglang-request" / "request.yaml").read_text()) == []


# -- fixes ---------------------------------------------------------------------------------------------


def test_fix_block_sequence_inserts_one_item_per_word(tmp_path: Path) -> None:
    text = DEPLOYMENT.replace('            - "--logprobs-mode"\n            - raw_logprobs\n', "")
    new = fixed(tmp_path, {"d.yaml": text}, "RPL003")
    assert "            - --return-sampling-mask\n            - --logprobs-mode\n            - processed_logprobs\n" in new


def test_fix_replaces_values_and_removes_env_items(tmp_path: Path) -> None:
    new = fixed(tmp_path, {"d.yaml": DEPLOYMENT}, "RPL003")
    assert '- "--logprobs-mode"\n            - processed_logprobs\n' in new
    new = fixed(tmp_path, {"d.yaml": DEPLOYMENT}, "RPL004")
    assert "VLLM_USE_V2_MODEL_RUNNER" not in new and new.endswith("          env: []\n")


def test_fix_flow_sequences(tmp_path: Path) -> None:
    text = 'kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.33.0\n    args: ["m", "--return-sampling-mask", "--logits-processors", "a:B"]\n'
    assert 'args: ["m", "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", "--logits-processors", "a:B"]' in fixed(
        tmp_path, {"p.yaml": text}, "RPL003"
    )
    assert 'args: ["m", "--return-sampling-mask"]\n' in fixed(tmp_path, {"p.yaml": text}, "RPL001")


def test_fix_env_value_keeps_a_string(tmp_path: Path) -> None:
    text = "kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.33.0\n    args: [m, --return-sampling-mask, --logprobs-mode, processed_logprobs]\n    env:\n    - name: VLLM_USE_V2_MODEL_RUNNER\n      value: yes\n"
    new = fixed(tmp_path, {"p.yaml": text}, "RPL201")
    assert 'value: "1"\n' in new
    flow = text.replace(
        "    env:\n    - name: VLLM_USE_V2_MODEL_RUNNER\n      value: yes\n",
        "    env: [{name: A, value: b}, {name: VLLM_USE_V2_MODEL_RUNNER, value: '0'}]\n",
    )
    assert "env: [{name: A, value: b}]\n" in fixed(tmp_path, {"p.yaml": flow}, "RPL004")


def test_fix_compose(tmp_path: Path) -> None:
    text = 'services:\n  a:\n    image: vllm/vllm-openai:v0.33.0\n    command: "m --return-sampling-mask"\n    environment:\n      - VLLM_USE_V2_MODEL_RUNNER=true\n      - HF_HOME=/data\n'
    assert 'command: "m --return-sampling-mask --logprobs-mode processed_logprobs"' in fixed(tmp_path, {"c.yaml": text}, "RPL003")
    assert "- VLLM_USE_V2_MODEL_RUNNER=1\n" in fixed(tmp_path, {"c.yaml": text}, "RPL201")
    mapped = text.replace(
        "      - VLLM_USE_V2_MODEL_RUNNER=true\n      - HF_HOME=/data\n", "      VLLM_USE_V2_MODEL_RUNNER: '0'\n      HF_HOME: /data\n"
    )
    assert "    environment:\n      HF_HOME: /data\n" in fixed(tmp_path, {"c.yaml": mapped}, "RPL004")
    alone = 'services:\n  a:\n    image: vllm/vllm-openai:v0.33.0\n    command: [m, --return-sampling-mask, --logprobs-mode, processed_logprobs]\n    environment:  \n      VLLM_USE_V2_MODEL_RUNNER: "0"\n    ports: ["8000:8000"]\n'
    # the emptied `environment` goes with its only entry, in either form
    assert "processed_logprobs]\n    ports:" in fixed(tmp_path, {"c.yaml": alone}, "RPL004")
    listed = alone.replace('      VLLM_USE_V2_MODEL_RUNNER: "0"\n', "      - VLLM_USE_V2_MODEL_RUNNER=0\n")
    assert "processed_logprobs]\n    ports:" in fixed(tmp_path, {"c.yaml": listed}, "RPL004")
    last = alone.replace('    ports: ["8000:8000"]\n', "")
    assert fixed(tmp_path, {"c.yaml": last}, "RPL004").endswith("processed_logprobs]\n")


def test_fix_json_inside_a_folded_item(tmp_path: Path) -> None:
    text = (FIXTURES / "k8s-quoted-folded" / "pod.yaml").read_text()
    new = fixed(tmp_path, {"pod.yaml": text}, "RPL002")
    launch = only(new, "pod.yaml")
    assert launch.get("speculative_config").value["enable_adaptive_verification"] is False


def test_fix_standalone_config(tmp_path: Path) -> None:
    text = (FIXTURES / "config-standalone" / "engine.yml").read_text()
    files = {"engine.yml": text}
    assert "return_sampling_mask: true\n" in fixed(tmp_path, files, "RPL201")
    assert "  enable-adaptive-verification: false\n" in fixed(tmp_path, files, "RPL002")
    removed = fixed(tmp_path, files, "RPL001")
    assert "logits-processors" not in removed and "pkg.procs:Clamp" not in removed


def test_config_render_edits_the_referenced_file(tmp_path: Path) -> None:
    from replaylint.readers import vllm_config

    (tmp_path / "engine.yaml").write_text(
        "tensor-parallel-size: 2\nreturn-sampling-mask: true\nlogits_processors: [a:B]\nspeculative_config: {method: mtp, enable_adaptive_verification: true}\n"
    )
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        context = ExtractContext(read_text=lambda p: Path(p).read_text() if Path(p).exists() else None)
        tokens = load_config_tokens("engine.yaml", command_line.Token("engine.yaml", None, "engine.yaml"), context, "serve.sh")  # type: ignore[arg-type]
        parsed = command_line.parse(tokens or [])
        from replaylint.model import Launch

        launch = Launch(LaunchKind.CLI, tokens[0].span, parsed.settings)  # type: ignore[index]
        script = SourceFile("serve.sh", "vllm serve m --config engine.yaml\n")
        text = Path("engine.yaml").read_text()

        def apply(intent) -> str:
            edits = vllm_config.config_render(launch, intent, script)
            assert edits is not None and all(e.span.path == "engine.yaml" for e in edits)
            return apply_edits(text, edits)[0]

        assert "return-sampling-mask: true\nlogprobs-mode: processed_logprobs\n" in apply(SetSetting("logprobs_mode", "processed_logprobs"))
        assert "logits_processors" not in apply(RemoveSetting("logits_processors"))
        assert "enable_adaptive_verification: false}" in apply(SetSetting("speculative_config.enable_adaptive_verification", False))
        assert "tensor-parallel-size: 4\n" in apply(SetSetting("tensor_parallel_size", 4))
    finally:
        os.chdir(cwd)


def test_no_fix_inside_a_shared_anchor(tmp_path: Path) -> None:
    text = (FIXTURES / "compose-anchors" / "compose.yml").read_text()
    results = check(tmp_path, {"compose.yml": text})
    runner = [f for f in results["compose.yml"].findings if f.code == "RPL004"]
    assert runner and not runner[0].edits


@needs_shell
def test_script_fixes_are_escaped_for_the_scalar(tmp_path: Path) -> None:
    text = 'kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.33.0\n    command: [sh, -c, "exec vllm serve m --return-sampling-mask"]\n'
    launch = only(text)
    assert isinstance(launch.handle, ScriptHandle)
    new = fixed(tmp_path, {"p.yaml": text}, "RPL003")
    assert 'command: [sh, -c, "exec vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs"]' in new
    literal = "kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.33.0\n    command: [bash, -c]\n    args:\n      - |\n        vllm serve m \\\n          --return-sampling-mask\n"
    new = fixed(tmp_path, {"p.yaml": literal}, "RPL003")
    assert only(new).get("logprobs_mode").value == "processed_logprobs"


@needs_shell
def test_workflow_run_steps_are_launches() -> None:
    text = (FIXTURES / "workflow-run-step" / ".github" / "workflows" / "replay-e2e.yml").read_text()
    (launch,) = extract(text, ".github/workflows/replay-e2e.yml")
    assert launch.env["VLLM_USE_V2_MODEL_RUNNER"].value == "0"
    assert launch.version_hint is not None and launch.version_hint.releases == ("0.31.0",)


# -- bad input -----------------------------------------------------------------------------------------


def test_syntax_errors() -> None:
    with pytest.raises(ParseError) as error:
        extract("services:\n  a:\n    image: vllm/vllm-openai\n    command: [a, b\n")
    assert error.value.line == 5 or error.value.line == 4
    assert extract("title: [vllm benchmark\n") == []  # not a launch: not ours to report
    assert extract("image: {{ .Values.image }}\nargs: [vllm serve\n") == []
    assert not frontend.parses("a: [\n") and frontend.parses("a: 1\n")


def test_alias_bombs_are_not_analysed_and_deep_nesting_does_not_hang() -> None:
    bomb = (
        "a: &a [x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
            for i in range(8)
        )
        + "vllm: serve\n"
    )
    # 9^9 x's written out: a reader that walks the value (a framework's config) would take minutes
    with pytest.raises(NotAnalysed, match="stand for more than 4,000,000 YAML nodes") as error:
        extract(bomb)
    assert bomb[error.value.offset :].startswith("&g [*f")  # the first list that alone has 9^7
    deep = "a: " + "[" * 5000 + "]" * 5000 + "\n# vllm serve\n"
    try:
        extract(deep)
    except ParseError:
        pass


def test_a_value_nested_950_levels_beside_a_launch_leaves_the_launch_checked() -> None:
    # its size (what a reader of the value may walk) is counted without recursion
    deep = "[" * 950 + "]" * 950
    text = f"spec:\n  containers:\n    - name: v\n      image: vllm/vllm-openai:v0.31.0\n      args: [--return-sampling-mask]\nx: {deep}\n"
    [launch] = extract(text)
    assert launch.settings["return_sampling_mask"].value is True


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list("vllm serve-:[]{}#'\"\n &*!<|>$()0123\t")), max_size=80))
def test_arbitrary_text_never_raises_anything_but_parse_error(text: str) -> None:
    try:
        extract("containers:\n- image: vllm/vllm-openai\n  args: " + text)
        extract(text)
    except ParseError:
        pass


def test_fix_intents_that_cannot_be_written_give_none() -> None:
    launch = only(DEPLOYMENT)
    source = SourceFile("file.yaml", DEPLOYMENT)
    assert frontend.render(launch, Fix(Applicability.SAFE, "t", (RemoveEnv("NOT_THERE"),)), source) is None
    assert frontend.render(launch, Fix(Applicability.SAFE, "t", (SetEnv("NOT_THERE", "1"),)), source) is None


_WORDS = st.sampled_from(
    [
        "m",
        "--return-sampling-mask",
        "--return_sampling_mask=true",
        "true",
        "--logprobs-mode",
        "raw_logprobs",
        "--logprobs-mode=raw_logits",
        "--logits-processors",
        "a.b:C",
        "--enable-dbo",
        "-sc",
        '{"method": "mtp", "num_speculative_tokens": 1, "enable_adaptive_verification": true}',
        "--speculative-config.enable_adaptive_verification",
        "--enable-batch-sharded-sampling",
        "x: y",
        "# c",
        "'q'",
    ]
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(_WORDS, max_size=8), st.sampled_from(["flow", "block", "compose"]), st.sampled_from(["0", "true", "1"]))
def test_every_fix_leaves_valid_yaml(tmp_path_factory: pytest.TempPathFactory, words: list[str], layout: str, runner: str) -> None:
    import json

    words = ["m", "--return-sampling-mask", *words]
    if layout == "flow":
        args = "    args: [" + ", ".join(json.dumps(w) for w in words) + "]\n"
        text = f"kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.32.0\n{args}    env:\n    - name: VLLM_USE_V2_MODEL_RUNNER\n      value: '{runner}'\n"
    elif layout == "block":
        args = "    args:\n" + "".join(f"      - {json.dumps(w)}\n" for w in words)
        text = f"kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.32.0\n{args}    env: [{{name: VLLM_USE_V2_MODEL_RUNNER, value: '{runner}'}}]\n"
    else:
        import shlex

        text = f"services:\n  a:\n    image: vllm/vllm-openai:v0.32.0\n    command: {json.dumps(shlex.join(words))}\n    environment:\n      - VLLM_USE_V2_MODEL_RUNNER={runner}\n"
    tmp = tmp_path_factory.mktemp("fix")
    results = check(tmp, {"f.yaml": text})
    for finding in results["f.yaml"].findings:
        if not finding.edits:
            continue
        # Fix this code again and again (as `--fix` does): the file stays valid YAML and the
        # code goes away (a second stray `true` only surfaces once the first one is gone).
        current, fixable = text, finding
        for _ in range(6):
            current, _ = apply_edits(current, fixable.edits)
            assert frontend.parses(current), (text, finding.code, current)
            remaining = [f for f in check(tmp, {"f.yaml": current})["f.yaml"].findings if f.code == finding.code and f.edits]
            if not remaining:
                break
            fixable = remaining[0]
        else:
            pytest.fail(f"{finding.code} keeps coming back: {text!r} -> {current!r}")


def test_compose_writes_a_literal_dollar_twice() -> None:
    from replaylint.readers.yaml_words import Container

    assert Container("flow", [], dollars=True).write("a$b") == "a$$b"
    assert Container("words", [], style='"', dollars=True).write("x y$") == "'x y$$'"
    assert Container("flow", []).write("a$b") == "a$b"


def test_only_the_vllm_projects_image_gives_an_entrypoint_and_a_release() -> None:
    text = "kind: Pod\nspec:\n  containers:\n  - image: {image}\n    args: [m, --return-sampling-mask]\n"
    official = only(text.format(image="registry.example.com:5000/vllm/vllm-openai:v0.30.0"))
    assert official.version_hint.releases == ("0.30.0",) and not official.open_ended
    # LMCache's image is named vllm-openai too, but v0.3.9 is LMCache's version.
    lmcache = only(text.format(image="lmcache/vllm-openai:v0.3.9post2"))
    assert lmcache.version_hint is None and lmcache.open_ended


def test_config_render_edits_the_text_the_words_came_from(tmp_path: Path) -> None:
    """During --fix the run reads files being fixed from memory: edits follow that text."""
    from replaylint.model import Launch
    from replaylint.readers import vllm_config

    on_disk = "return-sampling-mask: true\nlogprobs_mode: raw_logprobs\n"
    in_memory = "# fixed already\nreturn-sampling-mask: true\nlogprobs_mode: raw_logprobs\n"
    path = tmp_path / "engine.yaml"
    path.write_text(on_disk)
    context = ExtractContext(read_text=lambda p: in_memory if Path(p) == path else None)
    tokens = load_config_tokens(str(path.name), command_line.Token("engine.yaml", None, "engine.yaml"), context, str(tmp_path / "serve.sh"))  # type: ignore[arg-type]
    assert tokens is not None
    launch = Launch(LaunchKind.CLI, tokens[0].span, command_line.parse(tokens).settings)
    edits = vllm_config.config_render(launch, SetSetting("logprobs_mode", "processed_logprobs"), SourceFile(str(tmp_path / "serve.sh"), ""))
    assert edits is not None
    assert apply_edits(in_memory, edits)[0] == "# fixed already\nreturn-sampling-mask: true\nlogprobs_mode: processed_logprobs\n"


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("VLLM_USE_V2_MODEL_RUNNER=0", "0"),
        ("export VLLM_USE_V2_MODEL_RUNNER=0  # V1 for now", "0"),
        ("VLLM_USE_V2_MODEL_RUNNER='0'", "0"),
        ('VLLM_USE_V2_MODEL_RUNNER="true"', "true"),
        ("VLLM_USE_V2_MODEL_RUNNER=$RUNNER", UNKNOWN),
        ('VLLM_USE_V2_MODEL_RUNNER="${RUNNER:-0}"', UNKNOWN),
        ("VLLM_USE_V2_MODEL_RUNNER='$kept'", "$kept"),
        ("VLLM_USE_V2_MODEL_RUNNER", UNKNOWN),  # from the shell running compose
        ("VLLM_USE_V2_MODEL_RUNNER=", ""),
    ],
)
def test_env_file_lines(line: str, value: object) -> None:
    from replaylint.readers import env_file

    settings = env_file.parse("vllm.env", f"# header\n{line}\n")
    assert settings["VLLM_USE_V2_MODEL_RUNNER"].value == value
    assert settings["VLLM_USE_V2_MODEL_RUNNER"].span.start_line == 2


def test_env_file_comments_and_blank_lines_set_nothing() -> None:
    from replaylint.readers import env_file

    assert env_file.parse("vllm.env", "# VLLM_USE_V2_MODEL_RUNNER=0\n\n   \n") == {}
