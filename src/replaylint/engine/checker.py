"""The engine: one file in, findings out. `Checker.check_bytes` does one file (`runs.run_checks`
walks the paths, with the result cache and worker processes).

bytes -> prefilter -> decode -> frontend.extract -> launches -> rules (per judged release)
-> merged findings with rendered fix edits -> suppressions -> severity overrides.
"""

from __future__ import annotations

import os
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

from .. import files, frontends
from ..frontends import ExtractContext, ParseError, SourceFile
from ..records import record
from ..source import Budget, NotAnalysed, OverBudget, names_in
from ..vllm.releases import is_newer_than_known, judged
from . import cache
from .config import Config
from .hierarchy import ConfigPerFile
from .own_findings import not_analysed, unparsable, unused_suppression
from .text_decoding import decode, decode_error
from .versions import ProjectPins, judgement, releases_for, unknown_release_note

if TYPE_CHECKING:  # the model is imported where findings are made: a warm run makes none
    from ..model import Finding, Launch, Span
    from ..served import Served

_BINARY_PROBE = 8192


@record
class FileResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    internal_error: str | None = None
    kind: str | None = None
    parsed: bool = False
    digest: str | None = None
    dependencies: list[str] = field(default_factory=list)
    load_dependent: bool = False  # a deadline or the memory bound ended it: another run may finish it
    served: Served | None = None  # its replay servers and clients (`served`), for `cross_file`


def _could_hold_launch(kind: str, text: str) -> bool:
    """The prefilter on a text: RPL902 is only for files that could hold a replay launch (a run
    asks the prefilter first; a fix's re-check and direct callers of `check_text` do not)."""
    return frontends.relevant(kind, text.encode("utf-8", "surrogateescape"))


# Budget units (about a microsecond each) the rules take to judge one launch in every release.
_LAUNCH_COST = 300


class Checker:
    """Checks files against one configuration, or each against its own (`settings`); reads other
    files (`--config` YAMLs) on demand."""

    def __init__(
        self,
        config: Config,
        project_pins: ProjectPins | None = None,
        cached: bool = False,
        roots: tuple[str, ...] | None = None,
        settings: ConfigPerFile | None = None,
    ) -> None:
        self.config = config  # the configuration of the file being checked
        self.settings = settings
        self.roots = roots  # real paths of the folders files are read in (`files.trusted_roots`); None: anywhere
        self.budget: dict[str, float] = {}  # bounds of each file's `source.Budget` other than its defaults (work, seconds, memory)
        self.cached = cached  # results go to a result cache: their keys name the project's vLLM pin
        self.overlay: dict[str, str] = {}  # texts being fixed, read instead of the disk
        self.reads: list[str] = []  # other files the current check read (cache dependencies)
        self.real_folders: dict[str, str] = {}  # of the folders the current check read in (`files.inside`)
        self.project_pins = project_pins
        self._enabled: dict[int, tuple[Config, frozenset[str]]] = {}  # id(config): its enabled codes
        self._packaging: Any = None  # reads plugin declarations when no project pins are given
        self.launches_judged = 0  # `preflight` says when a command starts none
        self._readers: Any = None  # the programs that read YAML configs by path (`project.config_readers`)

    # The rule table is imported the first time a file needs it: a pre-commit run over files
    # without replay content never loads it.

    @property
    def enabled(self) -> frozenset[str]:
        if id(self.config) not in self._enabled:
            self._enabled[id(self.config)] = (self.config, self.config.enabled_codes())
        return self._enabled[id(self.config)][1]

    def use_config_of(self, path: str) -> None:
        """Check `path` with its own configuration, when files have theirs."""
        if self.settings is not None:
            self.config = self.settings.for_path(path)

    @property
    def rules(self) -> list:
        from ..rules import RULES

        return [rule for rule in RULES if rule.code in self.enabled]

    def read(self, path: str) -> bytes | FileResult:
        """The bytes of a file, or the result that says why it is not checked: a file that is
        not regular (a FIFO, a device) is skipped with a note, one that cannot be read is an
        RPL900 finding (a pass would hide what it holds)."""
        self.use_config_of(path)
        try:
            try:
                return files.read_regular(path, self.config.max_file_bytes, follow=self.roots is None)
            except files.Symlink:
                if not files.inside(path, self.roots or ()):
                    return FileResult(path, notes=[f"{path}: skipped, it links outside the checked tree"])
                return files.read_regular(path, self.config.max_file_bytes)
        except files.TooLarge as error:
            return self._too_large(path, error.size)
        except files.Unreadable as error:
            if error.reason.startswith("cannot"):
                return self.unreadable(path, f"file {error.reason}")
            return FileResult(path, notes=[f"{path}: skipped, it {error.reason}"])

    def unreadable(self, path: str, reason: str) -> FileResult:
        """RPL900 for a file or folder that cannot be read: a pass would hide what it holds."""
        self.use_config_of(path)
        return self._finish(FileResult(path, findings=[unparsable(path, reason)]), None)

    def check_file(self, path: str) -> FileResult:
        data = self.read(path)
        return data if isinstance(data, FileResult) else self.check_data(path, data)

    def check_data(self, path: str, data: bytes) -> FileResult:
        """check_bytes, with what the cache needs to store the result."""
        self.reads, self.real_folders = [], {}
        digest = self.cache_key(path, data)
        result = self.check_bytes(path, data)
        result.digest = digest
        result.dependencies = list(self.reads)
        return result

    def cache_key(self, path: str, data: bytes) -> str:
        """What a file's result depends on besides the configuration: its bytes and, for a
        result cache, the vLLM pin of its project (a new uv.lock changes the verdict without
        touching the file). Without a cache the pins are read only for a launch to judge: a tree
        whose relevant files start nothing never reads them (30 ms in each process)."""
        return cache.digest(data) + self.cache_context(path)

    def cache_context(self, path: str) -> str:
        """`cache_key` but the digest of the bytes: a result cache recalls an unchanged file by it."""
        pin = self.project_pins.describe_source(path) if self.cached and hasattr(self.project_pins, "describe_source") else None
        own = f"|{cache.digest(self.settings.fingerprint(path).encode())}" if self.settings is not None else ""
        return f"|{pin}{own}" if pin else own

    def _too_large(self, path: str, size: int, head: bytes | None = None) -> FileResult:
        """A file above the size limit: RPL902 when its first `max_file_bytes` (`head`, read
        here when not given) could hold a replay launch, else a note. Nothing past the limit is
        read: the prefilter decides on the head alone."""
        limit = self.config.max_file_bytes // (1024 * 1024)
        what = f"{size / 1024 / 1024:.1f} MiB is above the {limit} MiB limit"
        if head is None:
            head = files.read_head(path, self.config.max_file_bytes)
        kind = frontends.kind_for(path, head[:256])
        if kind is not None and frontends.relevant(kind, head):
            result = FileResult(path, findings=[not_analysed(path, f"{what}, so it is not read")], kind=kind)
            return self._finish(result, None)
        if kind == "json":
            return FileResult(path)  # large JSON files are data (tokenizers, datasets): no note each
        return FileResult(path, notes=[f"{path}: skipped, {what}"])

    def check_bytes(self, path: str, data: bytes) -> FileResult:
        self.use_config_of(path)
        kind = frontends.kind_for(path, data[:256])
        result = FileResult(path, kind=kind)
        if kind is None or not frontends.relevant(kind, data):
            return result
        if len(data) > self.config.max_file_bytes:
            return self._too_large(path, len(data), data[: self.config.max_file_bytes])
        if b"\0" in data[:_BINARY_PROBE] and files.wide_encoding(data) is None:
            result.findings.append(unparsable(path, "file is binary (it contains NUL bytes)"))
            return self._finish(result, None)
        try:
            text = decode(data, kind).text
        except (UnicodeError, SyntaxError, LookupError) as error:  # UnicodeError: codecs such as punycode
            if isinstance(error, UnicodeDecodeError) and files.wide_encoding(data) is None:
                message, line, col = decode_error(error, data)
            else:
                message, line, col = (str(error) if files.wide_encoding(data) else f"cannot decode file: {error}"), 1, 1
            result.findings.append(unparsable(path, message, line=line, col=col))
            return self._finish(result, None)
        return self.check_text(path, text, kind, result)

    def check_text(self, path: str, text: str, kind: str, result: FileResult | None = None) -> FileResult:
        self.use_config_of(path)
        result = result or FileResult(path, kind=kind)
        frontend = frontends.load(kind)
        if frontend is None:
            return result
        source = SourceFile(path, text)
        context = ExtractContext(
            read_text=self._read_text,
            list_folder=self._list_folder,
            root=os.path.dirname(path) or ".",
            budget=Budget(**self.budget),
            forwarded_arguments=self.config.forwarded_arguments,
        )
        try:
            worth_reading = getattr(frontend, "worth_reading", lambda source, context: True)  # a second look past the prefilter
            launches = frontend.extract(source, context) if worth_reading(source, context) else []
            found: list[tuple[Finding, str | None]] = []
            judged = []
            for launch in launches:
                context.budget.charge(_LAUNCH_COST, launch.span.start)
                if launch.framework is not None and launch.framework.editions:
                    launch = self._edition(launch, result.notes)
                own = self._check_launch(launch, frontend, source, result.notes)
                if own and (launch.config_alone or launch.source_lines_by_launchers):
                    own = self._reading().judged_by_launchers(path, own, self.reads, bool(self.overlay), launch.config_alone)
                found += [(finding, launch.condition) for finding in own]
                judged.append(launch)
            from ..vllm.unusable_masks import served  # (the model is imported by now)

            result.served = served(judged, context, lambda launch: releases_for(launch, self.config, self.project_pins))
            result.findings.extend(_on_branches(found))
            if kind == "yaml":
                result.findings.extend(self._reading().placed_by_readers(path, self.reads, bool(self.overlay)))
            if context.unread and _could_hold_launch(kind, text):
                result.findings.extend(not_analysed(path, unread.message, source.index, unread.offset) for unread in context.unread)
            # A suppression in what was not read may look unused: RPL901 waits for a whole file.
            result.parsed = not context.unread
        except NotAnalysed as error:
            result.findings = [not_analysed(path, error.message, source.index, error.offset)] if _could_hold_launch(kind, text) else []
            result.load_dependent = isinstance(error, OverBudget) and not error.steady
        except ParseError as error:
            result.findings.append(unparsable(path, error.message, source.index, error.line, error.col))
        except RecursionError:
            too_deep = "it is nested deeper than replaylint's stack can follow"
            result.findings = [not_analysed(path, too_deep, source.index)] if _could_hold_launch(kind, text) else []
        except Exception as error:  # a bug in replaylint must not stop the scan
            result.findings = []
            result.internal_error = f"{type(error).__name__}: {error}"
        return self._finish(result, source)

    def _reading(self) -> Any:
        """The programs that read YAML configs by path, and the launches that load a framework's
        config (`project.config_readers`), each checked once per run (again while fixes are applied)."""
        from .project.config_readers import ReadBy

        if self._readers is None:
            self._readers = ReadBy(self.roots, self.config.max_file_bytes, self._check_aside)
        if self.overlay:  # texts being fixed: what was checked before is stale now, and after
            self._readers.checked.clear()
        return self._readers

    def _check_aside(self, path: str) -> FileResult:
        config, reads = self.config, self.reads
        try:
            return self.check_file(path)
        finally:
            self.config, self.reads = config, reads

    def _read_text(self, path: str) -> str | None:
        if "\0" in path:  # a name a launch writes (`--config "x\x00.yaml"`) that no file can have
            return None
        if os.path.normpath(path) in self.overlay:
            return self.overlay[os.path.normpath(path)]
        self.reads.append(path)
        if self.roots is not None and not files.inside(path, self.roots, self.real_folders):
            return None  # a launch naming `--config /proc/self/environ` must not show it in a report
        try:
            return files.decode_text(files.read_regular(path, self.config.max_file_bytes))
        except (files.Unreadable, UnicodeError):
            return None

    def _list_folder(self, folder: str) -> list[str]:
        self.reads.append(folder)  # (`cache.dependency_digest`: a folder's names)
        if self.roots is not None and not files.inside(folder, self.roots, self.real_folders):
            return []
        return names_in(folder)

    # launches

    def _edition(self, launch: Launch, notes: list[str]) -> Launch:
        """The launch as the framework edition its project pins builds it (`frameworks.editions`)."""
        from ..frameworks.editions import choose

        package_pin = getattr(self.project_pins, "package_pin", None)
        framework = launch.framework
        pin = package_pin(launch.span.path, framework.package) if package_pin is not None and framework is not None else None
        chosen, note = choose(launch, pin)
        if note and note not in notes:
            notes.append(note)
        return chosen

    def _check_launch(self, launch: Launch, frontend: object, source: SourceFile, notes: list[str]) -> list[Finding]:
        from ..model import Finding

        merged: dict[tuple, tuple[Any, type, list]] = {}
        rules = self.rules
        from .project.model_folder import with_model_folder

        launch = with_model_folder(self._with_plugins(launch), self._read_text)
        self.launches_judged += 1
        for release in releases_for(launch, self.config, self.project_pins):
            rules_release = judged(release)
            if is_newer_than_known(release) and unknown_release_note(release) not in notes:
                notes.append(unknown_release_note(release))
            for rule in rules:
                if not rule.applies_to(rules_release):
                    continue
                for report in rule.reports(launch, rules_release):
                    key = (
                        rule.code,
                        report.span,
                        report.subject,
                        report.speaker,
                        report.verdict,
                        report.conditions,
                        report.severity,
                        report.fix,
                    )
                    merged.setdefault(key, (report, type(rule), []))[2].append(release)
        findings = []
        for (code, *_), (report, rule_type, releases) in merged.items():
            rule = next(r for r in rules if r.code == code)
            judged_by, note = judgement(releases)
            words = report.words(judged_by, note)
            edits: tuple = ()
            fix = report.fix
            if fix is not None and code in self.config.fixable_codes():
                edits = tuple(self._render(frontend, launch, report, source))
                fix = fix if edits else None  # no place to write it (a command put together from pieces): none offered
            findings.append(
                Finding(
                    code=code,
                    name=rule.name,
                    words=words,
                    span=report.span,
                    severity=self.config.severity.get(code, report.severity or rule.severity),
                    fix=fix,
                    related=report.related + launch.path_to((report.span, *report.related)),
                    releases=tuple(str(release) for release in sorted(set(releases))),
                    judged_by=tuple(str(release) for release in sorted({judged(r) for r in releases})),
                    launch=launch,
                    edits=edits,
                )
            )
        return findings

    def _with_plugins(self, launch: Launch) -> Launch:
        """The launch with the logits-processor plugins its project installs (`project.plugins`),
        besides those its frontend found (a Dockerfile's `RUN pip install`)."""
        if launch.get("return_sampling_mask") is None or not _runs_in_project(launch):
            return launch
        plugins = getattr(self.project_pins, "plugins", None)
        if plugins is None:  # a checker without project pins still reads the packaging
            if self._packaging is None:
                from . import project

                self._packaging = project.ProjectPins(texts={os.path.abspath(path): text for path, text in self.overlay.items()})
            plugins = self._packaging.plugins
        return replace(launch, plugins=tuple(dict.fromkeys((*launch.plugins, *plugins(launch.span.path)))))

    def _render(self, frontend: object, launch: Launch, report: Any, source: SourceFile) -> list:
        render = getattr(frontend, "render", None)
        if render is None or report.fix is None:
            return []
        edits = render(launch, report.fix, source)
        return edits or []

    def _finish(self, result: FileResult, source: SourceFile | None) -> FileResult:
        ignored = self.config.ignored_for(result.path)
        findings = [finding for finding in result.findings if finding.code in self.enabled and finding.code not in ignored]
        if source is not None:
            findings = self._suppress(findings, source, result.kind, result.parsed, self.enabled - ignored)
        findings.sort(key=lambda f: (f.span.path, f.span.start_line, f.span.start_col, f.code))
        result.findings = [_slim(finding) for finding in findings]
        return result

    def _suppress(
        self, findings: list[Finding], source: SourceFile, kind: str | None, parsed: bool, checked: frozenset[str]
    ) -> list[Finding]:
        """Findings no suppression covers, plus RPL901 for suppressions of `checked` codes (this
        file's) that silenced nothing."""
        if self.config.ignore_noqa:
            return findings
        from ..model import LineIndex
        from ..rules import UNUSED_SUPPRESSION
        from . import suppress

        # A finding placed elsewhere may be suppressed on its launch's line here.
        kept, suppressions = suppress.apply(findings, source.index, kind == "python")
        by_path: dict[str, list[Finding]] = {}
        for finding in (f for f in kept if f.span.path != source.path):
            by_path.setdefault(finding.span.path, []).append(finding)
        kept = [f for f in kept if f.span.path == source.path]
        for path, group in by_path.items():
            text = self._read_text(path)
            # A finding the value flow placed in another module honours that module's suppressions.
            python = frontends.kind_for(path) == "python"
            kept.extend(group if text is None else suppress.apply(group, LineIndex(path, text), python)[0])
        # YAML is left out: a config file's comments may serve launches in other files.
        if parsed and kind in ("python", "shell", "dockerfile") and UNUSED_SUPPRESSION[0] in checked:
            kept.extend(unused_suppression(s, source) for s in suppress.unused(suppressions, checked))
        return kept


# Launches run where their project is installed; those that run in an image (a Dockerfile's, a
# pod's, `docker run`'s) get only the plugins the image is seen to install.
_PROJECT_KINDS = frozenset(("python-call", "cli", "framework"))
_CONTAINER_RUNNERS = ("docker ", "podman ", "nerdctl ")


def _runs_in_project(launch: Launch) -> bool:
    return launch.kind.value in _PROJECT_KINDS and not launch.label.startswith(_CONTAINER_RUNNERS)


def _on_branches(found: list[tuple[Finding, str | None]]) -> list[Finding]:
    """Each finding once, saying the branch it holds on (`when `[ "$MODE" = fast ]``) when only
    launches on that branch make it: the same finding on every path of a script is unconditional."""
    conditions: dict[tuple, set[str | None]] = {}
    launches: dict[tuple, dict[Span, None]] = {}  # a suppression at a launch covers only its own findings
    for finding, condition in found:
        conditions.setdefault((finding.code, finding.span, finding.message), set()).add(condition)
        launches.setdefault((finding.code, finding.span, finding.message), {})[finding.launch.span if finding.launch else finding.span] = (
            None
        )
    findings, seen = [], set()
    for finding, condition in found:
        key = (finding.code, finding.span, finding.message)
        if key in seen:
            continue
        seen.add(key)
        if condition is not None and conditions[key] == {condition}:
            finding = replace(finding, words=finding.words.on(condition))
        others = tuple(span for span in launches[key] if finding.launch is None or span != finding.launch.span)
        findings.append(replace(finding, shared_with=others) if others else finding)
    return findings


def _slim(finding: Finding) -> Finding:
    """A finding that keeps only what reports need of its launch (kind, span): picklable for
    the cache and worker processes, and light on memory over large trees."""
    from ..model import Launch

    launch = finding.launch
    if launch is None:
        return finding
    return replace(finding, launch=Launch(launch.kind, launch.span, {}, label=launch.label))
