#!/usr/bin/env python3
"""Record and judge the vLLM launches a Python file makes, by running it. Runs in the judge's
virtualenv (it loads `tests/differential/vllm_judge.py`, whose import sets up the CPU-only vLLM).

Input: JSON lines `{"id", "file", "text"}` on stdin (`text` is run as `file`, as `__main__`,
with `sys.argv = [file]`), optionally with "root" (a program's folder: engine arguments built by
any of its files are recorded, and it is importable), "cwd" (where it runs; else a new temporary
folder) and "path" (folders put first on `sys.path`: stand-ins for packages the judge lacks). Each file runs in a forked child, without network, with `vllm.LLM`
replaced by a recorder that returns a stand-in engine, `EngineArgs(...)`/`AsyncEngineArgs(...)`
written in the file recorded as they are built, `subprocess.Popen`, `os.system`/`os.popen` and
`os.exec*` recorded instead of run, and `time.sleep` a no-op. The parent judges every recorded
engine that asks for the mask with the judge's own `judge_case` (keyword values may be any
picklable object; the models it names stand in as large ones, stand_in.py) and prints one JSON
line per file:
  {"id", "status": "finished"|"exception"|"timeout"|"crashed", "detail",
   "engines": [{"via", "verdict", "mask"}], "commands": [{"argv"|"shell", "env"}]}
Command line: --release X.Y.Z [--vllm-path DIR] [--seconds N].
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import pickle
import select
import signal
import sys
import tempfile
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
JUDGE = HERE.parent / "differential" / "vllm_judge.py"


def _load_beside(name: str):
    """A module beside this script (which runs in the judge's environment, without replaylint)."""
    spec = importlib.util.spec_from_file_location(f"realworld_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


stand_in = _load_beside("stand_in")
GPUS = 8


def load_judge(release: str, vllm_path: str | None):
    sys.argv = [str(JUDGE), "--quiet", "--release", release, *(["--vllm-path", vllm_path] if vllm_path else [])]
    spec = importlib.util.spec_from_file_location("vllm_judge", JUDGE)
    judge = importlib.util.module_from_spec(spec)
    sys.modules["vllm_judge"] = judge
    spec.loader.exec_module(judge)
    for case in judge.WARMUP_CASES:
        judge.judge_case(case)
    return judge


class _Stop(Exception):
    """Raised in the child to stop a file that replaced itself (os.exec*)."""


def _record_child(file: str, text: str, seconds: int, out, root: str | None = None, path: tuple[str, ...] = ()) -> None:
    import asyncio
    import subprocess
    import time
    from unittest import mock

    import vllm
    import vllm.engine.arg_utils as arg_utils
    import vllm.entrypoints.llm as llm_module

    records: list[dict] = []
    engines: list[dict] = []

    def vllm_env():
        return {k: v for k, v in os.environ.items() if k.startswith("VLLM_")}

    class RecordingLLM:
        def __new__(cls, *args, **kwargs):
            if args:
                kwargs = {"model": args[0], **kwargs}
            engines.append({"via": "LLM", "kwargs": kwargs, "env": vllm_env()})
            return mock.MagicMock(name="LLM")

    def recording(real, via):
        class Recording(real):
            def __init__(self, *args, **kwargs):
                caller = sys._getframe(1).f_code.co_filename
                if caller == file or (root is not None and caller.startswith(root + os.sep)):
                    if args:
                        kwargs = {"model": args[0], **kwargs}
                    engines.append({"via": via, "kwargs": kwargs, "env": vllm_env()})
                super().__init__(*args, **kwargs)

        Recording.__name__ = real.__name__
        return Recording

    engine_args = recording(arg_utils.EngineArgs, "EngineArgs")
    async_engine_args = recording(arg_utils.AsyncEngineArgs, "AsyncEngineArgs")
    for module in (vllm, llm_module):
        module.LLM = RecordingLLM
    for module in (vllm, arg_utils):
        module.EngineArgs = engine_args
        module.AsyncEngineArgs = async_engine_args

    class FakePopen:
        def __init__(self, args, *rest, **kwargs):
            shell = kwargs.get("shell", False)
            env = kwargs.get("env")
            env = dict(os.environ if env is None else env)
            if shell or isinstance(args, str):
                records.append({"shell": args if isinstance(args, str) else " ".join(map(str, args)), "env": env})
            else:
                records.append({"argv": [os.fspath(a) for a in args], "env": env})
            text_mode = kwargs.get("text") or kwargs.get("universal_newlines") or kwargs.get("encoding")
            self.args, self.returncode, self.pid = args, 0, 4242
            self._empty = "" if text_mode else b""
            self.stdin = None
            self.stdout = self.stderr = None

        def communicate(self, input=None, timeout=None):
            return (self._empty, self._empty)

        def wait(self, timeout=None):
            return 0

        def poll(self):
            return 0

        def kill(self):
            pass

        terminate = kill

        def send_signal(self, sig):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    def fake_system(command):
        records.append({"shell": command, "env": dict(os.environ)})
        return 0

    def fake_popen(command, *args, **kwargs):
        import io

        fake_system(command)
        return io.StringIO("")

    def fake_exec(path, args, *rest):
        env = rest[-1] if rest and isinstance(rest[-1], dict) else dict(os.environ)
        records.append({"argv": [os.fspath(a) for a in args], "env": dict(env)})
        raise _Stop()

    async def fake_exec_async(program, *args, **kwargs):
        FakePopen([program, *args], **kwargs)
        return mock.AsyncMock()

    subprocess.Popen = FakePopen
    os.system = fake_system
    os.popen = fake_popen
    for name in ("execv", "execve", "execvp", "execvpe"):
        setattr(os, name, fake_exec)
    asyncio.create_subprocess_exec = fake_exec_async
    time.sleep = lambda seconds: None

    status, detail = "finished", ""

    def on_alarm(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    sys.argv = [file]
    sys.path[:0] = [*path, os.path.dirname(file), *([root] if root else [])]
    try:
        code = compile(text, file, "exec")
        exec(code, {"__name__": "__main__", "__file__": file, "__builtins__": __builtins__})
    except _Stop:
        pass
    except SystemExit as exit_:
        if exit_.code not in (None, 0):
            status, detail = "exception", f"SystemExit({exit_.code!r})"
    except TimeoutError as error:
        status, detail = "timeout", str(error)
    except BaseException as error:  # noqa: BLE001 - the file's own failure is the result
        status, detail = "exception", f"{type(error).__name__}: {str(error)[:300]}"
    signal.alarm(0)
    payload = {"status": status, "detail": detail, "engines": [], "commands": records}
    for engine in engines:
        try:
            pickle.dumps(engine)
        except Exception as error:  # noqa: BLE001
            engine = {
                "via": engine["via"],
                "unpicklable": f"{type(error).__name__}: {error}",
                "kwargs": {"return_sampling_mask": engine["kwargs"].get("return_sampling_mask")},
                "env": engine["env"],
            }
        payload["engines"].append(engine)
    try:
        data = pickle.dumps(payload)
    except Exception as error:  # noqa: BLE001
        data = pickle.dumps({"status": "crashed", "detail": f"records not picklable: {error}", "engines": [], "commands": []})
    out.write(data)
    out.flush()


def missing_imports(file: str, text: str, path: tuple[str, ...] = ()) -> list[str]:
    """Top-level imports the judge's environment lacks (the file would stop there): checked
    before running, so such files cost nothing."""
    import ast
    import importlib.util

    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    names = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.extend(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module.split(".")[0])
    folders = [os.path.dirname(file), *path]
    missing = []
    for name in dict.fromkeys(names):
        local = any(os.path.exists(os.path.join(folder, name + ".py")) or os.path.isdir(os.path.join(folder, name)) for folder in folders)
        if not local and importlib.util.find_spec(name) is None:
            missing.append(name)
    return missing


def run_file(file: str, text: str, seconds: int, root: str | None = None, cwd: str | None = None, path: tuple[str, ...] = ()) -> dict:
    missing = missing_imports(file, text, (*path, *([root] if root else [])))
    if missing:
        return {
            "status": "exception",
            "detail": f"ModuleNotFoundError: the judge's environment has no {', '.join(missing)} (checked before running)",
            "engines": [],
            "commands": [],
        }
    read_end, write_end = os.pipe()
    workdir = cwd or tempfile.mkdtemp(prefix="rw-py-")
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            os.chdir(workdir)
            with os.fdopen(write_end, "wb") as out:
                _record_child(file, text, seconds, out, root, path)
        except BaseException:  # noqa: BLE001
            traceback.print_exc()
        os._exit(0)
    os.close(write_end)
    chunks, deadline = [], seconds + 15
    with os.fdopen(read_end, "rb") as pipe:
        while True:
            ready, _, _ = select.select([pipe], [], [], deadline)
            if not ready:
                os.kill(pid, signal.SIGKILL)
                break
            chunk = os.read(pipe.fileno(), 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    os.waitpid(pid, 0)
    try:
        return pickle.loads(b"".join(chunks))
    except Exception:  # noqa: BLE001
        return {"status": "crashed", "detail": "the recording process died", "engines": [], "commands": []}


def judge_engines(judge, engines: list[dict]) -> list[dict]:
    judged = []
    for number, engine in enumerate(engines):
        mask = engine["kwargs"].get("return_sampling_mask")
        entry = {"via": engine["via"], "mask": repr(mask)}
        if mask is None:
            judged.append(entry)
            continue
        if "unpicklable" in engine:
            entry["unjudgeable"] = "a keyword value cannot be carried to the judge: " + engine["unpicklable"]
        else:
            via = "EngineArgs" if engine["via"] != "LLM" else "LLM"
            case = {"id": f"engine{number}", "engine_kwargs": engine["kwargs"], "via": via, "env": engine["env"], "gpus": GPUS}
            entry["verdict"] = judge.judge_case({**case, "hf_configs": stand_in.for_kwargs(engine["kwargs"])})
        judged.append(entry)
    return judged


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--release", required=True)
    parser.add_argument("--vllm-path")
    parser.add_argument("--seconds", type=int, default=15)
    options = parser.parse_args()
    judge = load_judge(options.release, options.vllm_path)
    out = judge._VERDICT_OUT
    for line in sys.stdin:
        if not line.strip():
            continue
        item = json.loads(line)
        result = run_file(item["file"], item["text"], options.seconds, item.get("root"), item.get("cwd"), tuple(item.get("path", ())))
        result["engines"] = judge_engines(judge, result["engines"])
        result["id"] = item["id"]
        out.write(json.dumps(result, default=repr) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
