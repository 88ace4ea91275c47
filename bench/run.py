"""replaylint benchmark: `python bench/run.py [--runs N] [--quick] [--json FILE]`.

Downloads a pinned corpus once into bench/.cache/ (vllm 0.33.0 sdist, lm-eval 0.4.13 sdist, ruff
0.17.5 in a venv), generates 10,000 YAML files without vLLM content, then times replaylint beside
`ruff check --select E9 --no-cache` on the same trees and prints a markdown table with the targets:

    cold full-tree scan   <= 0.35x ruff           warm (cached) scan   <= ruff's warm scan
    pre-commit, 10 files  <= 3x `python -c pass`  peak memory (cold)   <= 150 MB

each ratio taken in one run, the two commands' runs taking turns, with the CPU ratio beside it.

and, with `--scale 10,100` (the default), the same cold scan on synthetic monorepos of 10 and 100
copies of the vllm tree (hard links under bench/.cache/, made once): time and peak memory per
file, which must not grow with the size of the tree.

replaylint runs as an installed package does: its modules byte-compiled (PYTHONDONTWRITEBYTECODE
is removed from its environment, and the untimed warm-up run writes the .pyc files).

Exit status: 0 all targets met, 1 a target failed, 2 replaylint missing or crashed (exit 2 or a
traceback). Without replaylint the corpus and ruff parts still run, so they can be checked alone.
Stdlib only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402  (bench/corpus.py)

# Approximate sizes of the pinned trees; a count far off means a wrong or broken download.
EXPECTED = {
    "vllm": {"py": 5600, "yaml": 550, "sh": 150, "dockerfile": 13},
    "lm-eval": {"yaml": 14000},
}

# Ten ordinary files of the vllm tree with no vLLM launch in them (the pre-commit case).
PRECOMMIT_FILES = [
    "vllm/version.py",
    "vllm/sequence.py",
    "vllm/utils/__init__.py",
    "benchmarks/kernels/benchmark_relu_squared.py",
    "tests/kernels/core/test_vit_fp8_quant.py",
    ".readthedocs.yaml",
    "benchmarks/attention_benchmarks/configs/standard_decode.yaml",
    ".buildkite/test_areas/attention.yaml",
    ".buildkite/scripts/ci-clean-log.sh",
    "tools/install_triton_from_source.sh",
]
LAUNCH_MARKERS = (b"return_sampling_mask", b"vllm serve")

TARGET_COLD_RATIO = 0.35
TARGET_WARM_RATIO = 1.0  # of ruff's warm scan (its cache filled), the two taking turns
TARGET_PRECOMMIT_RATIO = 3.0  # of `python -c pass`: the interpreter's own start-up
TARGET_PEAK_MB = 150.0
# Scaling: per-file time and memory of the largest monorepo over those of the vllm tree.
TARGET_SCALE_GROWTH = 1.25
# The measured commands' environment: bytecode is written and read, as for an installed package.
RUN_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}

YAML10K_COUNT = 10_000
YAML10K_VERSION = "1"  # bump when the generator changes


# --------------------------------------------------------------------------- measuring


@dataclass
class Case:
    name: str
    tool: str  # "replaylint" or "ruff"
    files: int
    cmd: list[str]
    times: list[float] = field(default_factory=list)
    cpu_times: list[float] = field(default_factory=list)
    exit_codes: list[int] = field(default_factory=list)
    error: str | None = None
    fill_s: float | None = None  # warm cases: the run that filled the cache
    note: str = ""

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    @property
    def cpu_median(self) -> float | None:
        return statistics.median(self.cpu_times) if self.cpu_times else None

    @property
    def min(self) -> float | None:
        return min(self.times) if self.times else None


def _failure(rc: int, stderr: str) -> str | None:
    """Exit 2, a signal, or a traceback is a failure; 0 and 1 (findings) are both fine."""
    if rc in (0, 1) and "Traceback (most recent call last)" not in stderr:
        return None
    tail = "\n".join(stderr.strip().splitlines()[-6:])
    return f"exit {rc}" + (f": {tail}" if tail else "")


TIMEOUT_S = 600.0  # per run; --timeout
TIMED_OUT = 124  # the exit code reported for a run that was stopped (as coreutils' timeout does)


def _stop(proc: subprocess.Popen) -> None:
    """End a run that took too long, with the workers it started (its own process group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@dataclass
class Run:
    wall_s: float
    cpu_s: float  # user + system time of the command and the processes it waited for
    rc: int
    stderr: str


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(cmd: list[str], cwd: Path) -> Run:
    with tempfile.TemporaryFile() as err:
        cpu0 = _children_cpu()
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True, env=RUN_ENV)
        # A blocking wait: `wait(timeout=...)` polls with sleeps of up to 50 ms, which rounded
        # every figure to a multiple of them. The timeout is a timer that stops the process.
        timer = threading.Timer(TIMEOUT_S, _stop, args=(proc,))
        timer.start()
        rc = proc.wait()
        elapsed = time.perf_counter() - start
        timed_out = not timer.is_alive()
        timer.cancel()
        if timed_out:
            return Run(elapsed, _children_cpu() - cpu0, TIMED_OUT, f"timed out after {TIMEOUT_S:.0f} s")
        err.seek(0)
        return Run(elapsed, _children_cpu() - cpu0, rc, err.read().decode(errors="replace"))


WARMUP = 1  # untimed runs before each timed series (they fill the OS file cache); 0 with --quick


def measure(case: Case, cwd: Path, runs: int, warmup: int | None = None) -> Case:
    """warmup untimed runs first, then runs timed ones; stops at the first failure."""
    warmup = WARMUP if warmup is None else warmup
    for _ in range(warmup):
        run = run_once(case.cmd, cwd)
        case.error = _failure(run.rc, run.stderr)
        if case.error:
            case.exit_codes.append(run.rc)
            return case
    for _ in range(runs):
        if not _timed(case, cwd):
            break
    return case


def measure_pair(first: Case, second: Case, cwd: Path, runs: int) -> None:
    """`measure` of two cases whose ratio is a target, their runs taking turns: a machine whose
    load drifts during the series then slows both alike instead of the one timed later."""
    for case in (first, second):
        if measure(case, cwd, 0).error:  # the untimed warm-up runs
            return
    for _ in range(runs):
        if not (_timed(first, cwd) and _timed(second, cwd)):
            return


def _timed(case: Case, cwd: Path) -> bool:
    """One timed run of `case`, recorded; False when it failed."""
    run = run_once(case.cmd, cwd)
    case.exit_codes.append(run.rc)
    case.error = _failure(run.rc, run.stderr)
    if case.error:
        return False
    case.times.append(run.wall_s)
    case.cpu_times.append(run.cpu_s)
    return True


def _tree_rss_kb(pid: int) -> int:
    """Resident memory of pid and all its descendants, from /proc."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return total


@dataclass
class Memory:
    name: str
    peak_mb: float | None = None  # the larger of the two figures below
    maxrss_mb: float | None = None  # largest single process (GNU time %M, else wait4)
    tree_sampled_mb: float | None = None  # sum over the process tree, sampled every 10 ms
    error: str | None = None


def measure_memory(name: str, cmd: list[str], cwd: Path) -> Memory:
    # GNU time reports the child's max RSS from a small process; getrusage in this Python
    # process would also count the ~25 MB it had when it forked, before the exec.
    gnu_time = Path("/usr/bin/time")
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as rss:
        if gnu_time.exists():
            cmd = [str(gnu_time), "-f", "%M", "-o", rss.name, *cmd]
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True, env=RUN_ENV)
        sampled, deadline, late = 0, time.monotonic() + TIMEOUT_S, False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            sampled = max(sampled, _tree_rss_kb(proc.pid))
            if not late and time.monotonic() > deadline:
                _stop(proc)
                late = True
            time.sleep(0.01)
        proc.returncode = TIMED_OUT if late else os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
        if late:
            stderr = f"timed out after {TIMEOUT_S:.0f} s"
        maxrss_kb = usage.ru_maxrss
        figure = rss.read().split()
        if gnu_time.exists() and figure and figure[-1].isdigit():
            maxrss_kb = int(figure[-1])
    mem = Memory(name, maxrss_mb=maxrss_kb / 1024, tree_sampled_mb=sampled / 1024)
    mem.peak_mb = max(mem.maxrss_mb, mem.tree_sampled_mb)
    mem.error = _failure(proc.returncode, stderr)
    return mem


# --------------------------------------------------------------------------- corpus pieces


def check_counts(name: str, counts: dict[str, int]) -> list[str]:
    problems = []
    for kind, want in EXPECTED.get(name, {}).items():
        if abs(counts[kind] - want) > 0.05 * want:
            problems.append(f"{name}: {counts[kind]} {kind} files, expected about {want}")
    return problems


def precommit_files(tree: Path) -> list[Path]:
    """The pinned ten, checked to exist and to hold no launch content."""
    files = []
    for rel in PRECOMMIT_FILES:
        p = tree / rel
        data = p.read_bytes()
        if any(m in data for m in LAUNCH_MARKERS):
            raise SystemExit(f"pre-commit file {rel} holds vLLM launch content; pick another")
        files.append(p)
    return files


_YAML_TEMPLATES = [
    # GitHub Actions workflow
    """name: ci-{i}
on:
  push:
    branches: [main, release-{m}]
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python: ["3.10", "3.11", "3.12"]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: ${{{{ matrix.python }}}}
      - run: pip install -e .[test]
      - run: pytest -q tests/unit_{m}
""",
    # lm-eval-style task
    """task: synthetic_task_{i}
dataset_path: example/synthetic_{m}
dataset_name: subset_{k}
output_type: multiple_choice
training_split: train
validation_split: validation
test_split: test
doc_to_text: "Question: {{{{question}}}}\\nAnswer:"
doc_to_target: "{{{{answer}}}}"
doc_to_choice: ["A", "B", "C", "D"]
metric_list:
  - metric: acc
    aggregation: mean
    higher_is_better: true
metadata:
  version: {k}.0
""",
    # Kubernetes deployment of an ordinary web service
    """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-{i}
  labels:
    app: web-{m}
spec:
  replicas: {k}
  selector:
    matchLabels:
      app: web-{m}
  template:
    metadata:
      labels:
        app: web-{m}
    spec:
      containers:
        - name: web
          image: nginx:1.27.{k}
          args: ["-g", "daemon off;"]
          ports:
            - containerPort: 80
          env:
            - name: WORKERS
              value: "{k}"
""",
    # docker-compose
    """services:
  db:
    image: postgres:16
    environment:
      POSTGRES_PASSWORD: example
      POSTGRES_DB: app_{m}
  app:
    build: .
    command: ["gunicorn", "app:create_app()", "--workers", "{k}", "--bind", "0.0.0.0:{port}"]
    ports:
      - "{port}:{port}"
    depends_on: [db]
""",
    # training config (hydra-like)
    """defaults:
  - optimizer: adamw
  - scheduler: cosine
seed: {i}
trainer:
  max_steps: {steps}
  precision: bf16
  gradient_accumulation: {k}
model:
  name: tiny-transformer-{m}
  hidden_size: {hidden}
  num_layers: {k}
data:
  batch_size: {batch}
  paths:
    - data/shard_{m}.jsonl
    - data/shard_{k}.jsonl
""",
]


def generate_yaml10k() -> Path:
    """10,000 small YAML files with no vLLM content, deterministic, made once."""
    root = corpus.CACHE / "yaml10k"
    stamp = root / ".complete"
    if stamp.exists() and stamp.read_text() == YAML10K_VERSION:
        corpus.make_checkout(root)
        return root
    shutil.rmtree(root, ignore_errors=True)
    for i in range(YAML10K_COUNT):
        d = root / f"group_{i // 100:03d}"
        d.mkdir(parents=True, exist_ok=True)
        template = _YAML_TEMPLATES[i % len(_YAML_TEMPLATES)]
        text = template.format(
            i=i,
            m=i % 97,
            k=i % 7 + 1,
            port=8000 + i % 50,
            steps=1000 * (i % 13 + 1),
            hidden=64 * (i % 8 + 1),
            batch=2 ** (i % 6),
        )
        ext = ".yml" if i % 3 == 0 else ".yaml"
        (d / f"config_{i:05d}{ext}").write_text(text)
    corpus.make_checkout(root)
    stamp.write_text(YAML10K_VERSION)
    return root


def generate_monorepo(tree: Path, copies: int) -> Path:
    """`copies` copies of `tree` side by side (hard links: no data is copied), one git checkout,
    made once: a monorepo `copies` times the size of the tree."""
    root = corpus.CACHE / f"monorepo-{copies}x"
    stamp = root / ".complete"
    if stamp.exists():
        return root
    shutil.rmtree(root, ignore_errors=True)
    for copy in range(copies):
        target = root / f"service_{copy:03d}"
        for folder, dirs, files in os.walk(tree):
            dirs[:] = [d for d in dirs if d != ".git"]
            relative = Path(folder).relative_to(tree)
            (target / relative).mkdir(parents=True, exist_ok=True)
            for name in files:
                os.link(Path(folder) / name, target / relative / name)
    corpus.make_checkout(root)
    stamp.write_text(str(copies))
    return root


@dataclass
class ScaleRow:
    name: str
    files: int
    wall_s: float | None
    cpu_s: float | None
    peak_mb: float | None
    ruff_wall_s: float | None
    error: str | None = None

    def per_file_us(self) -> float | None:
        return None if self.wall_s is None or not self.files else self.wall_s / self.files * 1e6

    def mb_per_kfile(self) -> float | None:
        return None if self.peak_mb is None or not self.files else self.peak_mb / self.files * 1000


def measure_scale(name: str, root: Path, files: int, rl_cmd: list[str], ruff: Path) -> ScaleRow:
    """One cold scan of each tool (the trees are large) and replaylint's peak memory."""
    ruff_run = run_once([str(ruff), "check", "--select", "E9", "--no-cache", "."], root)
    run = run_once(rl_cmd + [".", "--no-cache", "--output-format", "concise"], root)
    mem = measure_memory(name, rl_cmd + [".", "--no-cache", "--output-format", "concise"], root)
    error = _failure(run.rc, run.stderr) or mem.error
    return ScaleRow(name, files, run.wall_s, run.cpu_s, mem.peak_mb, ruff_run.wall_s, error)


def print_scale(rows: list[ScaleRow]) -> bool:
    """The scaling table; True when per-file time and memory stay within TARGET_SCALE_GROWTH of
    the smallest tree's."""
    print("\n## Scaling: synthetic monorepos of the vllm tree (cold, 1 run each)\n")
    print("| tree | files | replaylint | CPU | ruff | replaylint/ruff | per file | peak memory | per 1,000 files |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        ratio = f"{r.wall_s / r.ruff_wall_s:.2f}" if r.wall_s and r.ruff_wall_s else "—"
        per = f"{r.per_file_us():.0f} µs" if r.per_file_us() is not None else "—"
        mem = f"{r.peak_mb:.0f} MB" if r.peak_mb is not None else "—"
        per_k = f"{r.mb_per_kfile():.1f} MB" if r.mb_per_kfile() is not None else "—"
        print(
            f"| {r.name} | {r.files:,} | {fmt_s(r.wall_s)} | {fmt_s(r.cpu_s)} | {fmt_s(r.ruff_wall_s)} | {ratio} | {per} | {mem} | {per_k} |"
        )
    base, largest = rows[0], rows[-1]
    if any(r.error for r in rows) or None in (base.per_file_us(), largest.per_file_us(), base.mb_per_kfile(), largest.mb_per_kfile()):
        return False
    time_growth = largest.per_file_us() / base.per_file_us()  # type: ignore[operator]
    memory_growth = largest.mb_per_kfile() / base.mb_per_kfile()  # type: ignore[operator]
    ok = time_growth <= TARGET_SCALE_GROWTH and memory_growth <= TARGET_SCALE_GROWTH
    print(
        f"\nPer file, {largest.name} against {base.name}: time x{time_growth:.2f}, memory x{memory_growth:.2f} "
        f"(target: no more than x{TARGET_SCALE_GROWTH}, that is, growth no faster than the number of files): {verdict(ok)}"
    )
    return ok


# --------------------------------------------------------------------------- report


def machine_info(rl: corpus.Replaylint | None, ruff: Path) -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    ruff_version = subprocess.run([str(ruff), "--version"], capture_output=True, text=True).stdout.strip()
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "usable_cores": str(len(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else "?",
        "python": platform.python_version(),
        "platform": platform.platform(),
        "replaylint": rl.version if rl else "not available",
        "replaylint_cmd": " ".join(rl.cmd) if rl else "",
        "ruff": ruff_version,
        "load_average_at_start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def fmt_s(x: float | None) -> str:
    return "—" if x is None else (f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s")


@dataclass
class Row:
    case: str
    files: str
    median: str
    min: str
    cpu: str
    ratio: str
    target: str
    result: str


def row(case: Case, ratio: float | str | None, target: str, result: str) -> Row:
    if not isinstance(ratio, str):
        ratio = "—" if ratio is None else f"{ratio:.2f}"
    return Row(
        case.name,
        str(case.files),
        fmt_s(case.median),
        fmt_s(case.min),
        fmt_s(case.cpu_median),
        ratio,
        target,
        "ERROR" if case.error else result,
    )


def ratio_of(case: Case, ref: Case) -> float | None:
    """Median wall time over the reference's."""
    return case.median / ref.median if case.median and ref.median else None


def ratios(case: Case, ref: Case) -> str:
    """The wall-clock ratio, and the CPU ratio (user + system, steadier on a busy machine)."""
    wall = ratio_of(case, ref)
    cpu = case.cpu_median / ref.cpu_median if case.cpu_median and ref.cpu_median else None
    return ("—" if wall is None else f"{wall:.2f}") + ("" if cpu is None else f" (CPU {cpu:.2f})")


def verdict(ok: bool | None) -> str:
    return "—" if ok is None else ("PASS" if ok else "FAIL")


def print_table(rows: list[Row]) -> None:
    head = Row("case", "files", "median", "min", "median CPU", "replaylint/ruff", "target", "result")
    cols = list(asdict(head))
    table = [asdict(head)] + [asdict(r) for r in rows]
    widths = {c: max(len(str(t[c])) for t in table) for c in cols}

    def line(t: dict) -> str:
        return "| " + " | ".join(str(t[c]).ljust(widths[c]) for c in cols) + " |"

    print(line(table[0]))
    print("|" + "|".join("-" * (widths[c] + 2) for c in cols) + "|")
    for t in table[1:]:
        print(line(t))


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="timed runs per case (default 5)")
    ap.add_argument("--quick", action="store_true", help="1 run per case, for smoke tests")
    ap.add_argument("--json", metavar="FILE", help="write the raw figures to FILE")
    ap.add_argument(
        "--replaylint",
        metavar="CMD",
        help="command to run replaylint (default: $REPLAYLINT, `replaylint` on PATH, else `python -m replaylint`)",
    )
    ap.add_argument("--no-combined", action="store_true", help="skip the vllm+lm-eval row")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a run is stopped (default 600)")
    ap.add_argument("--scale", default="10,100", help="monorepo sizes in copies of the vllm tree (default 10,100; '' for none)")
    args = ap.parse_args(argv)
    runs = 1 if args.quick else max(1, args.runs)
    global WARMUP, TIMEOUT_S
    WARMUP = 0 if args.quick else 1
    TIMEOUT_S = args.timeout

    # 1. corpus and tools
    corpus.log("Preparing the corpus in bench/.cache/ ...")
    vllm = corpus.fetch_tree("vllm", corpus.VLLM_VERSION)
    lmeval = corpus.fetch_tree("lm-eval", corpus.LM_EVAL_VERSION)
    ruff = corpus.ensure_ruff()
    yaml10k = generate_yaml10k()
    trees = {"vllm": vllm.path, "lm-eval": lmeval.path}
    counts = {n: corpus.count_files(p) for n, p in trees.items()}
    counts["yaml10k"] = corpus.count_files(yaml10k)
    problems = check_counts("vllm", counts["vllm"]) + check_counts("lm-eval", counts["lm-eval"])
    pc_files = precommit_files(vllm.path)

    rl, why = corpus.find_replaylint(args.replaylint)
    info = machine_info(rl, ruff)

    print("## Machine\n")
    for k, v in info.items():
        if v:
            print(f"- {k}: {v}")
    print("\n## Corpus\n")
    for t in (vllm, lmeval):
        c = counts[t.name]
        size = f"{t.size_bytes / 1e6:.1f} MB" if t.size_bytes else "size unknown"
        got = "cached" if not t.download_s else f"downloaded in {t.download_s:.1f} s"
        print(
            f"- {t.name} {t.version} ({t.source}, {size}, {got}): {c['py']} .py, {c['yaml']} YAML, "
            f"{c['sh']} shell, {c['dockerfile']} Dockerfiles; {c['total']} files in all"
        )
    print(f"- yaml10k (generated): {counts['yaml10k']['yaml']} YAML files")
    for p in problems:
        print(f"- WARNING: {p}")
    print()
    if rl is None:
        print(f"**replaylint missing**: {why}\nOnly the ruff reference timings are run.\n")
    sys.stdout.flush()

    # 2. measurements
    cases: list[Case] = []
    memory: list[Memory] = []
    rows: list[Row] = []
    crashed = False
    failed = False

    def rl_cmd(*extra: str) -> list[str]:
        assert rl is not None
        return rl.cmd + ["check", *extra]

    scan_sets = [("vllm", [vllm.path]), ("lm-eval", [lmeval.path])]
    if not args.no_combined:
        scan_sets.append(("vllm+lm-eval", [vllm.path, lmeval.path]))
    for label, paths in scan_sets:
        cwd = paths[0] if len(paths) == 1 else corpus.TREES
        names = label.split("+")
        n_py = sum(counts[n]["py"] for n in names)
        n_all = sum(counts[n]["lintable"] for n in names)
        trees_args = [str(p) for p in paths]
        corpus.log(f"Timing {label} ...")
        ruff_cmd = [str(ruff), "check", "--select", "E9", "--no-cache", *trees_args]
        ref = Case(f"{label}: ruff --select E9 cold", "ruff", n_py, ruff_cmd)
        if rl is None:
            cases.append(measure(ref, cwd, runs))
            rows.append(row(ref, "1.00 (reference)", "", ""))
            continue
        cold_cmd = rl_cmd(*trees_args, "--no-cache", "--output-format", "concise")
        cold = Case(f"{label}: replaylint cold", "replaylint", n_all, cold_cmd)
        measure_pair(ref, cold, cwd, runs)
        cases += [ref, cold]
        rows.append(row(ref, "1.00 (reference)", "", ""))
        # ruff reads only the .py files: beyond the vllm tree the ratio is for information
        strict = label == "vllm"
        ratio = ratio_of(cold, ref)
        ok = None if ratio is None else ratio <= TARGET_COLD_RATIO
        target = f"<= {TARGET_COLD_RATIO:.2f}x ruff" + ("" if strict else " (info)")
        rows.append(row(cold, ratios(cold, ref), target, verdict(ok) if strict else "info"))
        crashed |= cold.error is not None
        failed |= strict and ok is False

        corpus.clear_caches(*paths)
        warm_cmd = rl_cmd(*trees_args, "--output-format", "concise")
        warm = Case(f"{label}: replaylint warm", "replaylint", n_all, warm_cmd)
        ruff_warm = Case(f"{label}: ruff --select E9 warm", "ruff", n_py, [str(ruff), "check", "--select", "E9", *trees_args])
        fill = run_once(warm.cmd, cwd)  # fills the cache
        warm.fill_s = fill.wall_s
        warm.error = _failure(fill.rc, fill.stderr)
        if not warm.error:
            run_once(ruff_warm.cmd, cwd)  # fills ruff's
            measure_pair(ruff_warm, warm, cwd, runs)
        found = corpus.find_caches(*paths)
        warm.note = "cache: " + ", ".join(map(str, found)) if found else "no cache folder found"
        cases += [ruff_warm, warm]
        rows.append(row(ruff_warm, "1.00 (reference)", "", ""))
        warm_ratio = ratio_of(warm, ruff_warm)
        ok = None if warm_ratio is None else warm_ratio <= TARGET_WARM_RATIO
        target = f"<= {TARGET_WARM_RATIO:.1f}x ruff warm" + ("" if strict else " (info)")
        rows.append(row(warm, ratios(warm, ruff_warm), target, verdict(ok) if strict else "info"))
        crashed |= warm.error is not None
        failed |= strict and ok is False

        if len(paths) == 1:
            mem = measure_memory(f"{label}: replaylint cold", cold.cmd, cwd)
            memory.append(mem)
            crashed |= mem.error is not None
            failed |= mem.peak_mb is not None and mem.peak_mb > TARGET_PEAK_MB

    # pre-commit: ten ordinary files named on the command line, no cache to help
    corpus.log("Timing pre-commit and --version ...")
    pc_args = [str(p) for p in pc_files]
    pc_py = [p for p in pc_args if p.endswith(".py")]
    ruff_cmd = [str(ruff), "check", "--select", "E9", "--no-cache", *pc_py]
    ref = measure(
        Case("pre-commit: ruff --select E9 (the .py ones)", "ruff", len(pc_py), ruff_cmd),
        vllm.path,
        runs,
    )
    cases.append(ref)
    rows.append(row(ref, "1.00 (reference)", "", ""))
    if rl is not None:
        pc_cmd = rl_cmd(*pc_args, "--no-cache", "--output-format", "concise")
        pc = Case("pre-commit: replaylint, 10 files", "replaylint", len(pc_args), pc_cmd)
        bare = Case("python -c pass (the interpreter's start-up)", "python", 0, [sys.executable, "-c", "pass"])
        measure_pair(bare, pc, vllm.path, runs)
        cases += [bare, pc]
        rows.append(row(bare, "—", "", "info"))
        pc_ratio = ratio_of(pc, bare)
        ok = None if pc_ratio is None else pc_ratio <= TARGET_PRECOMMIT_RATIO
        target = f"<= {TARGET_PRECOMMIT_RATIO:.0f}x python -c pass (here {pc_ratio or 0:.2f}x)"
        rows.append(row(pc, ratios(pc, ref), target, verdict(ok)))
        crashed |= pc.error is not None
        failed |= ok is False

        ver = measure(Case("replaylint --version", "replaylint", 0, rl.cmd + ["--version"]), vllm.path, runs)
        cases.append(ver)
        rows.append(row(ver, "—", "", "info"))
        crashed |= ver.error is not None

        corpus.log("Timing yaml10k ...")
        y_cmd = rl_cmd(str(yaml10k), "--no-cache", "--output-format", "concise")
        y = measure(
            Case("yaml10k: replaylint cold", "replaylint", counts["yaml10k"]["yaml"], y_cmd),
            yaml10k,
            runs,
        )
        cases.append(y)
        y.note = f"{y.files / y.median:,.0f} files/s" if y.median else "—"
        rows.append(row(y, "—", y.note, "info"))
        crashed |= y.error is not None

    scale_rows: list[ScaleRow] = []
    copies = [int(part) for part in args.scale.split(",") if part.strip()]
    if rl is not None and copies:
        scale_rows.append(measure_scale("vllm (1x)", vllm.path, counts["vllm"]["lintable"], rl_cmd(), ruff))
        for factor in copies:
            corpus.log(f"Timing a monorepo of {factor} vllm trees ...")
            root = generate_monorepo(vllm.path, factor)
            scale_rows.append(measure_scale(f"monorepo {factor}x", root, counts["vllm"]["lintable"] * factor, rl_cmd(), ruff))

    # 3. report
    info["load_average_at_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"Load average at start {info['load_average_at_start']}, "
        f"at end {info['load_average_at_end']} "
        "(other work on this machine skews wall-clock figures).\n"
    )
    print(f"## Timings ({runs} run{'s' if runs > 1 else ''} each; wall clock)\n")
    print_table(rows)
    if memory:
        print("\n## Peak memory of the cold full-tree scan\n")
        print("| case | peak RSS | largest process | whole process tree (sampled) | target | result |")
        print("|---|---|---|---|---|---|")
        for m in memory:
            res = "ERROR" if m.error else verdict(m.peak_mb is not None and m.peak_mb <= TARGET_PEAK_MB)
            print(
                f"| {m.name} | {m.peak_mb:.0f} MB | {m.maxrss_mb:.0f} MB | {m.tree_sampled_mb:.0f} MB | <= {TARGET_PEAK_MB:.0f} MB | {res} |"
            )
    notes = [f"- {c.name}: {c.note}" for c in cases if c.note and c.tool == "replaylint" and "cache" in c.note]
    notes += [f"- {c.name}: first run (filling the cache) took {fmt_s(c.fill_s)}" for c in cases if c.fill_s]
    errors = [f"- {c.name}: {c.error}" for c in cases if c.error] + [f"- {m.name} (memory): {m.error}" for m in memory if m.error]
    if scale_rows:
        failed |= not print_scale(scale_rows)
        crashed |= any(r.error is not None for r in scale_rows)
    if notes:
        print("\nNotes:\n" + "\n".join(notes))
    print(
        "\nruff reads only the .py files (its files column); replaylint's column counts .py, "
        "YAML, shell and Dockerfiles.\nmedian CPU is user + system time of the command and its "
        "children: steadier than wall clock when the machine is busy.\nThe cold-ratio and warm "
        "targets are judged on the vllm tree; on lm-eval, where ruff sees only a few hundred .py "
        "files, and on both trees at once they are shown for information (a warm scan stats each "
        "file: the scaling rows show how the work grows with the files)."
    )
    if errors:
        print("\nErrors:\n" + "\n".join(errors))
    if rl is None:
        print(f"\nreplaylint missing: {why}")

    if args.json:
        raw = {
            "machine": info,
            "runs": runs,
            "corpus": {
                t.name: {
                    "version": t.version,
                    "source": t.source,
                    "size_bytes": t.size_bytes,
                    "path": str(t.path),
                    "counts": counts[t.name],
                }
                for t in (vllm, lmeval)
            }
            | {"yaml10k": {"path": str(yaml10k), "counts": counts["yaml10k"]}},
            "precommit_files": PRECOMMIT_FILES,
            "cases": [asdict(c) | {"median": c.median, "min": c.min} for c in cases],
            "memory": [asdict(m) for m in memory],
            "targets": {
                "cold_ratio": TARGET_COLD_RATIO,
                "warm_ratio": TARGET_WARM_RATIO,
                "precommit_ratio": TARGET_PRECOMMIT_RATIO,
                "peak_mb": TARGET_PEAK_MB,
                "scale_growth": TARGET_SCALE_GROWTH,
            },
            "scale": [asdict(row) for row in scale_rows],
            "replaylint_missing": why or None,
            "warnings": problems,
        }
        Path(args.json).write_text(json.dumps(raw, indent=2) + "\n")
        corpus.log(f"raw figures written to {args.json}")

    if rl is None or crashed:
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
