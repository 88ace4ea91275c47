import asyncio
import os


async def resolve_model_path(url_or_local_path: str) -> str:
    """Download a weights tarball to ./models, or return a local folder as is."""
    if os.path.exists(url_or_local_path):
        return url_or_local_path
    target = os.path.join("models", os.path.basename(url_or_local_path).split(".")[0])
    proc = await asyncio.create_subprocess_exec("pget", "-x", url_or_local_path, target)
    await proc.wait()
    return target
