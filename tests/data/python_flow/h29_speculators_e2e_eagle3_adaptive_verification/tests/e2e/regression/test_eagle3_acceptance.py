# Imitates vllm-project/speculators tests/e2e/regression/test_eagle3_conversion_acceptance.py: a converted
# Eagle3 speculator run behind its verifier through `run_vllm_engine`, with adaptive verification on.
import pytest

from tests.e2e.utils import run_vllm_engine

PROMPTS = [[{"role": "user", "content": "Write a haiku about speculative decoding."}]]


@pytest.mark.smoke
def test_convert_run_vllm_engine_eagle3(tmp_path):
    converted_path = tmp_path / "eagle3-llama3.1-8b-converted"
    results = run_vllm_engine(
        model_path="meta-llama/Llama-3.1-8B-Instruct",
        tmp_path=tmp_path,
        prompts=PROMPTS,
        max_model_len=2048,
        speculative_config={
            "method": "eagle3",
            "model": str(converted_path),
            "num_speculative_tokens": 3,
            "enable_adaptive_verification": True,  # expect: RPL002
        },
    )
    assert results["metrics"]["total_num_output_tokens"] > 0
