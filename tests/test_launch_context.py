"""A launch's context reaches every launch built from a command, and a launch says why it is open-ended."""

from __future__ import annotations

from replaylint.frontends import ExtractContext, SourceFile, dockerfile
from replaylint.model import UNNAMED_REASON, Launch, LaunchKind, Span

DOCKERFILE = """FROM vllm/vllm-openai:v0.32.0
ENV VLLM_LOGGING_LEVEL=DEBUG
ENTRYPOINT ["python", "-m", "verl.trainer.main_ppo", "actor_rollout_ref.rollout.name=vllm", \\
     "+actor_rollout_ref.rollout.engine_kwargs.vllm.return_sampling_mask=true"]
"""


def test_a_framework_launch_runs_where_its_image_says() -> None:
    """verl, started by an image's ENTRYPOINT, runs on the image's vLLM with its environment."""
    [launch] = dockerfile.extract(SourceFile("Dockerfile", DOCKERFILE), ExtractContext())
    assert launch.framework is not None and launch.framework.name == "verl"
    assert launch.version_hint is not None and launch.version_hint.releases == ("0.32.0",)
    assert launch.value("return_sampling_mask") is True
    assert launch.env["VLLM_LOGGING_LEVEL"].value == "DEBUG"


def test_open_reasons_each_kept_and_none_without_words() -> None:
    span = Span("x.sh", 1, 1, 1, 2, 0, 1)
    assert not Launch(LaunchKind.CLI, span, {}).open_ended
    launch = Launch(LaunchKind.CLI, span, {}, open_reasons=("**{a: b, c: d}", ""))
    assert launch.open_ended and launch.open_reasons == ("**{a: b, c: d}", UNNAMED_REASON)
