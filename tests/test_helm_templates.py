"""A chart's values list passed to the container by its own template (`range .Values.extraArgs`):
read as that container's arguments when the template is plain, open-ended otherwise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_configuration import run

MASK = "--return-sampling-mask"
VALUES = (
    "image:\n  repository: vllm/vllm-openai\n  tag: v0.34.0\nmodel: Qwen/Qwen3-8B\n"
    f"extraArgs:\n  - {MASK}\n  - --logprobs-mode\n  - processed_logprobs\n"
)
CONTAINER = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  template:\n    spec:\n"
    "      containers:\n"
    "        - name: vllm\n"
    '          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"\n'
    "{extra}"
    "          args:\n"
    "            - {{ .Values.model | quote }}\n"
    "{literal}"
    "            {{- range .Values.extraArgs }}\n"
    "            - {{ . | quote }}\n"
    "            {{- end }}\n"
    "          ports:\n            - containerPort: 8000\n"
)


def template(extra: str = "", literal: str = "") -> str:
    return CONTAINER.replace("{extra}", extra).replace("{literal}", literal)


def findings(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str, int]]:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    status, out, err = run(tmp_path, "check", "--no-cache", "--output-format", "json", ".")
    assert status in (0, 1), err
    return sorted((f["code"], f["filename"].replace("\\", "/").split("/", 1)[-1], f["location"]["row"]) for f in json.loads(out))


def chart(values: str = VALUES, deployment: str | None = None, chart_yaml: bool = True, **more: str) -> dict[str, str]:
    files = {"chart/values.yaml": values, "chart/templates/deployment.yaml": deployment if deployment is not None else template()}
    if chart_yaml:
        files["chart/Chart.yaml"] = "apiVersion: v2\nname: policy\nversion: 0.1.0\n"
    return {**files, **more}


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param(chart(), [("RPL301", "values.yaml", 6)], id="range over extraArgs"),
        pytest.param(
            chart(deployment=template(literal='            - "--port"\n            - "8000"\n')),
            [("RPL301", "values.yaml", 6)],
            id="with literal items",
        ),
        pytest.param(
            chart(deployment=template(extra="          env:\n            - name: HF_HOME\n              value: /data\n")),
            [("RPL301", "values.yaml", 6)],
            id="an env: block",
        ),
        pytest.param(chart(values=VALUES + "  - --enable-scale-out\n"), [], id="scale-out among the items"),
        pytest.param(
            chart(values=VALUES.replace("processed_logprobs", "raw_logprobs")),
            [("RPL003", "values.yaml", 8), ("RPL301", "values.yaml", 6)],
            id="RPL003",
        ),
    ],
)
def test_a_plain_template_makes_the_launch_whole(tmp_path: Path, files: dict[str, str], expected: list) -> None:
    assert findings(tmp_path, files) == expected


@pytest.mark.parametrize(
    "files",
    [
        pytest.param(chart(chart_yaml=False), id="no Chart.yaml"),
        pytest.param(chart(deployment=template(extra='          command: ["python3", "-m", "my.server"]\n')), id="a command of its own"),
        pytest.param(
            chart(
                deployment=template(
                    literal="            {{- if .Values.scaleOut }}\n            - --enable-scale-out\n            {{- end }}\n"
                )
            ),
            id="an if among the items",
        ),
        pytest.param(chart(deployment=template(literal='            {{- include "extra.args" . | nindent 12 }}\n')), id="an include"),
        pytest.param(chart(**{"chart/templates/canary.yaml": template()}), id="two templates range over it"),
        pytest.param(
            chart(
                values=VALUES + "extraArgsMore:\n  - --enable-scale-out\n",
                deployment=template().replace(
                    "          ports:",
                    "            {{- range .Values.extraArgsMore }}\n            - {{ . | quote }}\n            {{- end }}\n          ports:",
                ),
            ),
            id="a range over another list whose name starts the same",
        ),
        pytest.param(
            chart(deployment=template().replace('"{{ .Values.image.repository }}:{{ .Values.image.tag }}"', "{{ .Values.sidecar.image }}")),
            id="another image",
        ),
    ],
)
def test_anything_less_plain_stays_open_ended(tmp_path: Path, files: dict[str, str]) -> None:
    assert findings(tmp_path, files) == []


def cached_findings(tmp_path: Path) -> list[tuple[str, str, int]]:
    status, out, err = run(tmp_path, "check", "--output-format", "json", ".")
    assert status in (0, 1), err
    return sorted((f["code"], f["filename"].replace("\\", "/").split("/", 1)[-1], f["location"]["row"]) for f in json.loads(out))


def test_a_template_added_after_a_cached_run_is_read(tmp_path: Path) -> None:
    assert findings(tmp_path, chart()) == [("RPL301", "values.yaml", 6)]
    assert cached_findings(tmp_path) == [("RPL301", "values.yaml", 6)]
    (tmp_path / "chart/templates/worker.yaml").write_text(template(), encoding="utf-8")  # two containers range: open-ended
    assert cached_findings(tmp_path) == []


def test_a_chart_yaml_written_after_a_cached_run_makes_the_folder_a_chart(tmp_path: Path) -> None:
    files = chart(chart_yaml=False)
    assert findings(tmp_path, files) == []
    assert cached_findings(tmp_path) == []
    (tmp_path / "chart/Chart.yaml").write_text("apiVersion: v2\nname: policy\nversion: 0.1.0\n", encoding="utf-8")
    assert cached_findings(tmp_path) == [("RPL301", "values.yaml", 6)]
