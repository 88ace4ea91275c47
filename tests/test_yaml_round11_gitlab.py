"""GitLab CI pipelines (round 11, beside dstack): `.gitlab-ci.yml` is walked although its name is
hidden, and a job's `before_script:` and `script:` are read as the one script the runner runs,
with the pipeline's and the job's `variables:` exported, in the job's (or `default:`'s) `image:`.
A value the runner expands (`$OTHER`), the pipeline's variables under a job that `extends:` a
template or has `inherit:`, a `!reference` and hidden jobs stay unknown or unread."""

from __future__ import annotations

import pytest

from tests.test_yaml_round11_dstack import checked, messages

SERVE = "vllm serve $MODEL --port 8000 --return-sampling-mask --enable-scale-out --logprobs-mode $MODE &"
THE_PIPELINE = f"""stages: [test]

variables:
  MODEL: Qwen/Qwen3-8B
  MODE: raw_logprobs

default:
  image: vllm/vllm-openai:v0.33.0
  before_script:
    - pip install -r requirements-eval.txt

eval:
  stage: test
  script:
    - {SERVE}
    - python -m evals.run --base-url http://localhost:8000
"""


def test_a_pipeline_variable_in_a_job_script_is_found_by_the_walk(tmp_path) -> None:
    assert checked(tmp_path, {".gitlab-ci.yml": THE_PIPELINE}) == [("RPL003", ".gitlab-ci.yml", 5)]


def test_the_default_image_gives_the_release(tmp_path) -> None:
    (tmp_path / ".gitlab-ci.yml").write_text(THE_PIPELINE)
    assert [message for message in messages(tmp_path, ".gitlab-ci.yml") if "vLLM 0.33.0 says" in message]


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        pytest.param(
            {".gitlab-ci.yml": "serve:\n  image:\n    name: vllm/vllm-openai:v0.34.0\n  script: vllm serve m --return-sampling-mask\n"},
            [("RPL003", ".gitlab-ci.yml", 4), ("RPL301", ".gitlab-ci.yml", 4)],
            id="a script given as one string, an image mapping",
        ),
        pytest.param(
            {
                ".gitlab-ci.yml": "include:\n  - local: .gitlab/ci/serve.yml\n",
                ".gitlab/ci/serve.yml": "smoke:\n  stage: test\n  before_script:\n    - export MODE=raw_logprobs\n"
                f"  script:\n    - {SERVE.replace('$MODEL', 'm')}\n",
            },
            [("RPL003", ".gitlab/ci/serve.yml", 4)],
            id="an included file's job, a variable its before_script exports",
        ),
        pytest.param(
            {
                ".gitlab-ci.yml": ".setup: &setup\n  - export MODE=raw_logprobs\n\nsmoke:\n  script:\n    - *setup\n"
                f"    - {SERVE.replace('$MODEL', 'm')}\n"
            },
            [("RPL003", ".gitlab-ci.yml", 2)],
            id="a nested list from an anchor",
        ),
    ],
)
def test_other_spellings_of_a_gitlab_launch(tmp_path, files: dict[str, str], expected: list) -> None:
    assert checked(tmp_path, files) == expected


@pytest.mark.parametrize(
    "pipeline",
    [
        pytest.param(THE_PIPELINE.replace("MODE: raw_logprobs", "MODE: $DEFAULT_MODE"), id="a value the runner expands"),
        pytest.param(
            THE_PIPELINE.replace("  stage: test\n", "  stage: test\n  extends: .gpu\n"), id="a template's variables win over the pipeline's"
        ),
        pytest.param(THE_PIPELINE.replace("  stage: test\n", "  stage: test\n  inherit:\n    variables: false\n"), id="inherit"),
        pytest.param(THE_PIPELINE.replace(f"    - {SERVE}\n", "    - !reference [.serve, script]\n"), id="a !reference"),
        pytest.param(THE_PIPELINE.replace("eval:", ".eval:"), id="a hidden job"),
        pytest.param(THE_PIPELINE.replace("  script:\n", "  script:\n    - echo\n  after_script:\n"), id="after_script only"),
        pytest.param(THE_PIPELINE.replace("MODE: raw_logprobs", "MODE: processed_logprobs"), id="a replay server as vLLM wants it"),
    ],
)
def test_what_stays_silent(tmp_path, pipeline: str) -> None:
    assert checked(tmp_path, {".gitlab-ci.yml": pipeline}) == []


def test_a_mapping_with_a_script_key_elsewhere_is_no_pipeline(tmp_path) -> None:
    tasks = f"eval:\n  script:\n    - {SERVE.replace('$MODEL', 'm').replace('$MODE', 'raw_logprobs')}\n"
    assert checked(tmp_path, {"tasks.yml": tasks}) == []
    assert checked(tmp_path, {".gitlab-ci.yml": tasks}) == [("RPL003", ".gitlab-ci.yml", 3)]
