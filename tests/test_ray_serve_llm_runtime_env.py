"""Ray Serve LLM's `LLMConfig(runtime_env={"env_vars": {...}})`: the environment Ray starts the
engine with, so vLLM 0.34.0 refuses the runner variable given there (RPL206)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_helm_templates import findings

CONFIG = (
    "import os\n"
    "from ray.serve.llm import LLMConfig, build_llm_deployment\n\n"
    "config = LLMConfig(\n"
    '    model_loading_config={{"model_id": "policy", "model_source": "Qwen/Qwen3-8B"}},\n'
    '    engine_kwargs={{"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}},\n'
    "    runtime_env={runtime_env},\n"
    ")\n"
    "deployment = build_llm_deployment(config)\n"
)


@pytest.mark.parametrize(
    ("runtime_env", "expected"),
    [
        pytest.param(
            '{"env_vars": {"VLLM_USE_V1": "1", "VLLM_USE_V2_MODEL_RUNNER": "0"}}', [("RPL206", "serve_app.py", 7)], id="dict literal"
        ),
        # Ray's docs spell it with `dict(...)`, beside a value read at run time.
        pytest.param(
            'dict(env_vars=dict(HF_TOKEN=os.environ["HF_TOKEN"], VLLM_USE_V2_MODEL_RUNNER="0"))',
            [("RPL206", "serve_app.py", 7)],
            id="dict calls as Ray's docs write them",
        ),
        pytest.param('{"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "1"}}', [("RPL206", "serve_app.py", 7)], id="a redundant 1 with replay"),
        pytest.param('{"env_vars": {"VLLM_USE_V1": "1"}}', [], id="clean: no runner variable"),
        pytest.param(
            '{"pip": ["vllm"], "env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "0", **EXTRA}}', [], id="a spread after it may replace it"
        ),
        pytest.param('{"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "0"}, **BASE}', [], id="a spread of the runtime env after it"),
        # Ray takes only text values (runtime_env validation raises TypeError): vLLM never sees this one.
        pytest.param('{"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": 0}}', [], id="not text: Ray refuses it first"),
        pytest.param('{"working_dir": ".", "VLLM_USE_V2_MODEL_RUNNER": "0"}', [], id="not under env_vars"),
    ],
)
def test_runtime_env_runner_variable(tmp_path: Path, runtime_env: str, expected: list) -> None:
    assert findings(tmp_path, {"serve_app.py": CONFIG.format(runtime_env=runtime_env)}) == expected


def test_another_engine_is_not_judged(tmp_path: Path) -> None:
    """A config with `server_cls` runs an engine of its own (SGLang): its variables are not vLLM's."""
    source = CONFIG.format(runtime_env='{"env_vars": {"VLLM_USE_V2_MODEL_RUNNER": "0"}}').replace(
        "    runtime_env=", "    server_cls=SGLangServer,\n    runtime_env="
    )
    assert findings(tmp_path, {"serve_app.py": source}) == []
