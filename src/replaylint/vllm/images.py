"""vLLM container images and pip pins: which ones start `vllm serve`, which release they hold."""

from __future__ import annotations

import re

from ..regexes import on_use
from .releases import Release

# The vLLM project's image under any registry (docker.io/vllm/vllm-openai:v0.31.0, a mirror's
# .../vllm/vllm-openai) and its public ECR copy (public.ecr.aws/q9t5s3a7/vllm-openai). Other
# owners' `vllm-openai` images (lmcache/vllm-openai) carry their own versions and entrypoints.
_IMAGE = on_use(
    r"^(?:(?:[^/]+\.[^/]+|localhost(?::\d+)?)/)?(?:[\w.\-]+/)*?(?:vllm/|public\.ecr\.aws/q9t5s3a7/|q9t5s3a7/)"
    r"(?P<name>vllm-openai)(?P<variant>-[\w\-]+)?(?::(?P<tag>[\w.\-]+))?(?:@sha256:[0-9a-f]+)?$"
)
_TAG_RELEASE = on_use(r"^v?(\d+\.\d+(?:\.\d+)?)")
_PIP_PIN = on_use(r"^vllm(?:\[[\w,\-]+\])?\s*==\s*v?(\d+\.\d+(?:\.\d+)?)", re.IGNORECASE)


# vLLM's own Dockerfiles build these from a `vllm-openai` stage with `ENTRYPOINT ["vllm", "serve"]`
# (docker/Dockerfile.rocm, .cpu, .xpu of the 0.33.0 sdist); `-nonroot` runs a wrapper that ends
# with `exec vllm serve "$@"` (docker/entrypoints/vllm-nonroot-entrypoint.sh). Their `base-*` tags
# are build bases (`ARG BASE_IMAGE=vllm/vllm-openai-rocm:base-nightly-rocm72`), not servers.
_SERVING_VARIANTS = frozenset(("-rocm", "-cpu", "-xpu", "-nonroot"))


def is_vllm_image(image: str, tag_known: bool = True) -> bool:
    """An image of the vLLM project (any registry, any tag) whose entrypoint is `vllm serve`:
    `vllm-openai` and its `-rocm`, `-cpu`, `-xpu` and `-nonroot` variants (not their `base-*`
    build images, nor other variants, whose entrypoints are not known). `tag_known=False`: the
    tag is not known statically (`${TAG}`), so a variant may be a build image."""
    match = _IMAGE.match(image.strip().strip("'\""))
    if match is None:
        return False
    variant, tag = match.group("variant"), match.group("tag") or ""
    if variant is None:
        return True
    return tag_known and variant in _SERVING_VARIANTS and not tag.startswith("base")


def release_from_image(image: str) -> Release | None:
    """`vllm/vllm-openai:v0.31.0` -> 0.31.0; `latest`, `nightly`, digests -> None."""
    match = _IMAGE.match(image.strip().strip("'\""))
    if match is None or not match.group("tag"):
        return None
    tag = _TAG_RELEASE.match(match.group("tag"))
    return Release.parse(tag.group(1)) if tag else None


def release_from_pin(requirement: str) -> Release | None:
    """`vllm==0.31.0` (as in `pip install vllm==0.31.0`) -> 0.31.0."""
    match = _PIP_PIN.match(requirement.strip().strip("'\""))
    return Release.parse(match.group(1)) if match else None
