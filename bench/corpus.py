"""Pinned corpus downloads for the benchmark and the real-world corpus scan (stdlib only).

Everything lands in bench/.cache/ (git-ignored) and is reused on later runs:

    bench/.cache/downloads/<archive>          the files as served by the package index
    bench/.cache/trees/<name>-<version>/      unpacked trees (a `.complete` stamp marks a good one)
    bench/.cache/venv/                        ruff, pinned, for the reference timings

Archives are found through the index pip is configured with (PEP 691 JSON "simple" API) and
checked against the index's sha256. If that fails, `pip download` is the fallback; for an sdist
whose metadata cannot be built here (vllm needs torch for that), pip is run with
`--no-build-isolation --no-clean` and a private TMPDIR, and the source tree it unpacked is kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
CACHE = BENCH_DIR / ".cache"
DOWNLOADS = CACHE / "downloads"
TREES = CACHE / "trees"
VENV = CACHE / "venv"

VLLM_VERSION = "0.33.0"
LM_EVAL_VERSION = "0.4.13"
RUFF_VERSION = "0.17.5"

# Kinds of file replaylint looks at (DESIGN.md: python, shell, dockerfile, yaml).
KINDS = ("py", "yaml", "sh", "dockerfile")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- index look-ups


def index_url() -> str:
    """The index pip uses here: PIP_INDEX_URL, pip's config, else PyPI."""
    url = os.environ.get("PIP_INDEX_URL")
    if not url:
        try:
            out = subprocess.run(
                [sys.executable, "-m", "pip", "config", "get", "global.index-url"],
                capture_output=True,
                text=True,
                timeout=60,
            )
            url = out.stdout.strip() if out.returncode == 0 else ""
        except (OSError, subprocess.TimeoutExpired):
            url = ""
    return (url or "https://pypi.org/simple").rstrip("/")


@dataclass
class Dist:
    name: str
    version: str
    filename: str
    url: str
    sha256: str | None
    size: int | None

    @property
    def is_sdist(self) -> bool:
        return self.filename.endswith((".tar.gz", ".zip")) and not self.filename.endswith(".whl")


def _wheel_fits(filename: str) -> bool:
    """A wheel this interpreter could install (pure, or this CPython on this machine)."""
    if filename.endswith("-none-any.whl"):
        return True
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    return tag in filename and platform.machine() in filename and "linux" in filename


def find_dists(name: str, version: str) -> list[Dist]:
    """The non-yanked files of name==version on the index: sdists first, then fitting wheels."""
    url = f"{index_url()}/{name}/"
    req = urllib.request.Request(url, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(req, timeout=60) as resp:
        data = json.load(resp)
    norm = name.replace("-", "_").lower()
    found = []
    for f in data.get("files", []):
        fn = f["filename"]
        if f.get("yanked"):
            continue
        if fn.endswith(".whl"):
            file_version = fn.split("-")[1]
            if not _wheel_fits(fn):
                continue
        elif fn.endswith((".tar.gz", ".zip")):
            stem = fn.removesuffix(".tar.gz").removesuffix(".zip")
            file_version = stem[len(norm) + 1 :] if stem.lower().replace("-", "_").startswith(norm + "_") else ""
        else:
            continue
        if file_version != version:  # e.g. 0.4.13.dev0 when 0.4.13 is asked for
            continue
        found.append(Dist(name, version, fn, f["url"], f.get("hashes", {}).get("sha256"), f.get("size")))
    found.sort(key=lambda d: (not d.is_sdist, d.filename))
    return found


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@dataclass
class Download:
    path: Path
    seconds: float  # 0.0 when it came from the cache
    how: str  # "cache", "index", "pip"


def _download_from_index(dist: Dist) -> Download:
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    dest = DOWNLOADS / dist.filename
    if dest.exists() and (dist.sha256 is None or _sha256(dest) == dist.sha256):
        return Download(dest, 0.0, "cache")
    tmp = dest.with_name(dest.name + ".part")
    start = time.perf_counter()
    with urllib.request.urlopen(dist.url, timeout=300) as resp, tmp.open("wb") as out:
        shutil.copyfileobj(resp, out, 1 << 20)
    seconds = time.perf_counter() - start
    if dist.sha256 and _sha256(tmp) != dist.sha256:
        tmp.unlink()
        raise RuntimeError(f"sha256 mismatch for {dist.filename}")
    tmp.replace(dest)
    return Download(dest, seconds, "index")


def _pip_download(name: str, version: str, want_sdist: bool, workdir: Path) -> Path | None:
    """Fallback: let pip fetch it. Returns an archive, or a source tree pip left behind."""
    dl = workdir / "dl"
    tmp = workdir / "tmp"
    dl.mkdir(parents=True, exist_ok=True)
    tmp.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "-d",
        str(dl),
        f"{name}=={version}",
    ]
    if want_sdist:
        cmd += ["--no-binary", ":all:", "--no-build-isolation", "--no-clean"]
    else:
        cmd += ["--only-binary", ":all:"]
    env = dict(os.environ, TMPDIR=str(tmp))
    log(f"  pip fallback: {' '.join(cmd[2:])}")
    subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
    archives = sorted(p for p in dl.iterdir() if p.is_file())
    if archives:
        DOWNLOADS.mkdir(parents=True, exist_ok=True)
        dest = DOWNLOADS / archives[0].name
        shutil.move(str(archives[0]), dest)
        return dest
    if want_sdist:  # metadata failed to build, but the unpacked sdist stays in TMPDIR
        prefix = name.replace("-", "_").lower() + "_"
        for d in sorted(tmp.glob("pip-*/*")):
            if d.is_dir() and d.name.lower().startswith(prefix) and (d / "PKG-INFO").exists():
                return d
    return None


# --------------------------------------------------------------------------- unpacking


def _tar_filter(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
    try:
        return tarfile.data_filter(member, path)
    except tarfile.FilterError:
        return None  # skip links out of the tree and the like; keep the rest


def _unpack(archive: Path, dest: Path) -> None:
    """Unpack into dest (an sdist's single top-level folder is stripped)."""
    work = dest.with_name(dest.name + ".unpacking")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    if archive.name.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(work)
    else:
        with tarfile.open(archive) as tf:
            if hasattr(tarfile, "data_filter"):
                tf.extractall(work, filter=_tar_filter)
            else:  # Python without extraction filters
                tf.extractall(work)
    entries = list(work.iterdir())
    root = entries[0] if len(entries) == 1 and entries[0].is_dir() and not archive.name.endswith(".whl") else work
    shutil.rmtree(dest, ignore_errors=True)
    root.rename(dest)
    shutil.rmtree(work, ignore_errors=True)


@dataclass
class Tree:
    name: str
    version: str
    path: Path
    source: str  # archive file name, or "pip source tree"
    size_bytes: int  # of the archive (0 if unknown)
    download_s: float  # 0.0 when cached


def fetch_tree(name: str, version: str, prefer_sdist: bool = True, root: Path = TREES) -> Tree:
    """Download name==version (sdist preferred) and unpack it once into root/<name>-<version>/."""
    dest = root / (f"{name}-{version}" + ("" if prefer_sdist else "-wheel"))
    stamp = dest / ".complete"
    if stamp.exists():
        info = json.loads(stamp.read_text())
        make_checkout(dest)  # trees unpacked before checkouts were made
        return Tree(name, version, dest, info["source"], info["size_bytes"], 0.0)
    root.mkdir(parents=True, exist_ok=True)
    source, size, seconds = "", 0, 0.0
    archive: Path | None = None
    try:
        dists = find_dists(name, version)
        if not prefer_sdist:
            dists.sort(key=lambda d: d.is_sdist)
        if not dists:
            raise RuntimeError(f"no fitting files for {name}=={version} on {index_url()}")
        dl = _download_from_index(dists[0])
        archive, seconds = dl.path, dl.seconds
        log(f"  {name}=={version}: {dl.path.name} ({dl.path.stat().st_size / 1e6:.1f} MB, {dl.how}, {seconds:.1f} s)")
    except Exception as exc:  # noqa: BLE001 - any index trouble: try pip
        log(f"  {name}=={version}: index download failed ({exc}); trying pip")
        work = CACHE / "pip-work" / f"{name}-{version}"
        shutil.rmtree(work, ignore_errors=True)
        start = time.perf_counter()
        got = None
        for want_sdist in (True, False) if prefer_sdist else (False, True):
            got = _pip_download(name, version, want_sdist, work)
            if got:
                break
        seconds = time.perf_counter() - start
        if got is None:
            raise RuntimeError(f"could not download {name}=={version} (index and pip both failed)") from exc
        if got.is_dir():
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(got, dest, symlinks=True)
            source = "pip source tree"
        else:
            archive = got
        shutil.rmtree(work, ignore_errors=True)
    if archive is not None:
        _unpack(archive, dest)
        source, size = archive.name, archive.stat().st_size
    make_checkout(dest)
    stamp.write_text(json.dumps({"source": source, "size_bytes": size}))
    return Tree(name, version, dest, source, size, seconds)


def make_checkout(tree: Path) -> None:
    """Give the tree its own (empty) git repository, so it reads like a user's checkout: tools that
    honour .gitignore then apply the package's own .gitignore, not this repo's (which ignores all
    of bench/.cache/ and would hide every file from them)."""
    if (tree / ".git").exists() or not shutil.which("git"):
        return
    subprocess.run(["git", "init", "-q", str(tree)], check=True)


# --------------------------------------------------------------------------- file counts


def file_kind(path: Path) -> str | None:
    name = path.name
    if name.endswith(".py"):
        return "py"
    if name.endswith((".yaml", ".yml")):
        return "yaml"
    if name.endswith(".sh"):
        return "sh"
    if name == "Dockerfile" or name.startswith("Dockerfile.") or name.endswith(".Dockerfile"):
        return "dockerfile"
    return None


def iter_files(tree: Path):
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = sorted(d for d in dirnames if d not in (".git", ".replaylint_cache", ".ruff_cache"))
        for fn in sorted(filenames):
            if fn == ".complete" and dirpath == str(tree):
                continue
            yield Path(dirpath, fn)


def count_files(tree: Path) -> dict[str, int]:
    counts = dict.fromkeys(KINDS, 0)
    total = 0
    for p in iter_files(tree):
        total += 1
        kind = file_kind(p)
        if kind:
            counts[kind] += 1
    counts["lintable"] = sum(counts[k] for k in KINDS)
    counts["total"] = total
    return counts


# --------------------------------------------------------------------------- tools


def ensure_ruff(version: str = RUFF_VERSION) -> Path:
    """ruff==version in bench/.cache/venv (created once)."""
    ruff = VENV / "bin" / "ruff"
    if ruff.exists():
        out = subprocess.run([str(ruff), "--version"], capture_output=True, text=True)
        if out.stdout.split()[-1:] == [version]:
            return ruff
    if not (VENV / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    log(f"  installing ruff=={version} into {VENV}")
    subprocess.run([str(VENV / "bin" / "python"), "-m", "pip", "install", "-q", f"ruff=={version}"], check=True)
    return ruff


@dataclass
class Replaylint:
    cmd: list[str]
    version: str


def find_replaylint(override: str | None = None) -> tuple[Replaylint | None, str]:
    """The replaylint to measure: --replaylint/REPLAYLINT, `replaylint` on PATH, or
    `python -m replaylint`. Returns (None, why) when none of them answers `--version`."""
    import shlex

    candidates: list[list[str]] = []
    override = override or os.environ.get("REPLAYLINT")
    if override:
        candidates.append(shlex.split(override))
    else:
        exe = shutil.which("replaylint")
        if exe:
            candidates.append([exe])
        # Not `python -m replaylint`: it runs in the scanned tree and would import from there first.
        # The installed one, then the repo's own (not installed); the working folder off the path.
        run = "from replaylint.cli.main import entry; sys.argv[0] = 'replaylint'; entry()"
        candidates.append([sys.executable, "-c", f"import sys; del sys.path[0]; {run}"])
        src = BENCH_DIR.parent / "src"
        if (src / "replaylint" / "__main__.py").exists():
            candidates.append([sys.executable, "-c", f"import sys; sys.path[0] = {str(src)!r}; {run}"])
    tried = []
    for cmd in candidates:
        try:
            out = subprocess.run(cmd + ["--version"], capture_output=True, text=True, timeout=60)
        except OSError as exc:
            tried.append(f"`{' '.join(cmd)}`: {exc}")
            continue
        if out.returncode == 0 and out.stdout.strip():
            return Replaylint(cmd, out.stdout.strip()), ""
        last = (out.stderr.strip().splitlines() or ["no output"])[-1]
        tried.append(f"`{' '.join(cmd)} --version` exited {out.returncode}: {last}")
    why = (
        "replaylint is not available (install it with `pip install -e .` from the repo root, "
        "or pass --replaylint CMD / set REPLAYLINT). Tried: " + "; ".join(tried)
    )
    return None, why


def find_caches(*roots: Path) -> list[Path]:
    """`.replaylint_cache` folders in or beside the given roots (never outside bench/.cache)."""
    seen = []
    for root in roots:
        for base in (root, root.parent):
            c = base / ".replaylint_cache"
            if c.exists() and c not in seen and CACHE in c.parents:
                seen.append(c)
    return seen


def clear_caches(*roots: Path) -> None:
    for c in find_caches(*roots):
        shutil.rmtree(c, ignore_errors=True)
