# Imitates vllm-project/speculators tests/e2e/regression/test_eagle3_conversion_acceptance.py: the verifier
# alone run through `run_vllm_engine` (no speculative config) to record its reference outputs.
import pytest

from tests.e2e.utils import run_vllm_engine

PROMPTS = [[{"role": "user", "content": "Summarize the idea of speculative decoding in one sentence."}]]


@pytest.mark.smoke
def test_verifier_reference_outputs(tmp_path):
    results = run_vllm_engine(
        model_path="meta-llama/Llama-3.1-8B-Instruct",
        tmp_path=tmp_path,
        prompts=PROMPTS,
        max_model_len=2048,
    )
    assert len(results["outputs"]) == len(PROMPTS)
