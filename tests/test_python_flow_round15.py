"""What held-out round 15 (tests/data/python_flow/h15_*) made the value flow follow: Ray Data's
engine arguments kept in a module of their own and completed there by `setdefault`, whose user
(`vLLMEngineProcessorConfig(engine_kwargs=ENGINE_KWARGS)`, a `preprocess` lambda's
`sampling_params`) names no mask and no `vllm`. Each stop keeps the launch open or silent: a value
from the environment, a key the dict already holds, a config of another library."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# Ray Data's engine kwargs completed in a settings module, the request a preprocess lambda's row

RAY_SETTINGS = "import os\n\nENGINE_KWARGS = dict({base})\n{fill}\nENGINE_KWARGS.setdefault('logprobs_mode', 'processed_logprobs')\n"
RAY_BATCH = (
    "import ray\n"
    "from ray.data.llm import build_llm_processor, vLLMEngineProcessorConfig\n\n"
    "from engine_settings import ENGINE_KWARGS\n\n"
    "config = vLLMEngineProcessorConfig(model_source='m', engine_kwargs=ENGINE_KWARGS, batch_size=64)\n"
    "processor = build_llm_processor(\n"
    "    config,\n"
    "    preprocess=lambda row: dict(messages=[{{'role': 'user', 'content': row['item']}}], sampling_params={params}),\n"
    ")\n"
)


@pytest.mark.parametrize(
    "fill",
    [
        "ENGINE_KWARGS.setdefault('return_sampling_mask', True)",
        'ENGINE_KWARGS.setdefault("return_sampling_mask", True)',
        "ENGINE_KWARGS.update(return_sampling_mask=True)",
        "ENGINE_KWARGS['return_sampling_mask'] = True",
    ],
)
@pytest.mark.parametrize("params", ["dict(temperature=0.3, max_tokens=250)", "{'temperature': 0.3}"])
def test_ray_data_engine_kwargs_completed_in_their_module_reach_the_preprocess_request(tmp_path: Path, fill: str, params: str) -> None:
    files = {"engine_settings.py": RAY_SETTINGS.format(base="max_model_len=16384", fill=fill), "batch.py": RAY_BATCH.format(params=params)}
    assert check(tmp_path, files) == [("batch.py", 9, "RPL102")]


def test_ray_data_request_with_top_k_is_clean(tmp_path: Path) -> None:
    files = {
        "engine_settings.py": RAY_SETTINGS.format(
            base="max_model_len=16384", fill="ENGINE_KWARGS.setdefault('return_sampling_mask', True)"
        ),
        "batch.py": RAY_BATCH.format(params="dict(temperature=0.3, top_k=20)"),
    }
    assert check(tmp_path, files) == []


@pytest.mark.parametrize(
    ("base", "fill"),
    [
        ("max_model_len=16384, return_sampling_mask=False", "ENGINE_KWARGS.setdefault('return_sampling_mask', True)"),
        ("max_model_len=16384", "ENGINE_KWARGS.setdefault('return_sampling_mask', os.environ.get('REPLAY') == '1')"),
        ("max_model_len=16384", "if os.environ.get('REPLAY'):\n    ENGINE_KWARGS.setdefault('return_sampling_mask', True)"),
    ],
)
def test_ray_data_mask_kept_off_or_decided_at_run_time_says_nothing(tmp_path: Path, base: str, fill: str) -> None:
    files = {"engine_settings.py": RAY_SETTINGS.format(base=base, fill=fill), "batch.py": RAY_BATCH.format(params="dict(temperature=0.3)")}
    assert check(tmp_path, files) == []


def test_a_config_of_another_library_given_the_same_kwargs_says_nothing(tmp_path: Path) -> None:
    batch = RAY_BATCH.format(params="dict(temperature=0.3)").replace(
        "from ray.data.llm import build_llm_processor, vLLMEngineProcessorConfig",
        "from mylib import build_llm_processor, vLLMEngineProcessorConfig",
    )
    files = {
        "engine_settings.py": RAY_SETTINGS.format(
            base="max_model_len=16384", fill="ENGINE_KWARGS.setdefault('return_sampling_mask', True)"
        ),
        "batch.py": batch,
    }
    assert check(tmp_path, files) == []
