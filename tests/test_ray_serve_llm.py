"""Ray Serve LLM's `LLMConfig(engine_kwargs=...)`: an engine, judged as one, that `build_openai_app`
serves behind Ray's OpenAI ingress, whose routes return no masks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_helm_templates import findings

RAY_SERVE = (
    "from ray import serve\n"
    "from ray.serve.llm import LLMConfig, build_openai_app\n\n"
    "ENGINE = {{\n"
    '    "return_sampling_mask": True,\n'
    '    "logprobs_mode": "{mode}",\n'
    "}}\n"
    'config = LLMConfig(model_loading_config={{"model_id": "policy", "model_source": "Qwen/Qwen3-8B"}}, engine_kwargs=ENGINE)\n'
    "{serve}\n"
)


@pytest.mark.parametrize(
    ("mode", "served", "expected"),
    [
        pytest.param(
            "processed_logprobs", 'serve.run(build_openai_app({"llm_configs": [config]}))', [("RPL301", "serve_app.py", 5)], id="openai app"
        ),
        pytest.param(
            "raw_logprobs",
            'serve.run(build_openai_app({"llm_configs": [config]}))',
            [("RPL003", "serve_app.py", 6), ("RPL301", "serve_app.py", 5)],
            id="the engine kwargs judged as an engine",
        ),
        pytest.param("raw_logprobs", "deployment = build_llm_deployment(config)", [("RPL003", "serve_app.py", 6)], id="no openai app"),
    ],
)
def test_ray_serve_llm(tmp_path: Path, mode: str, served: str, expected: list) -> None:
    source = RAY_SERVE.format(mode=mode, serve=served)
    assert findings(tmp_path, {"serve_app.py": source}) == expected
