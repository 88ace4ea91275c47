"""Clients tied to the replay servers other files start, after a run has checked its files.

Each file's result says which replay servers it starts (their port, the names that reach them)
and which HTTP clients it holds that no server of its own serves (`served.Served`). A client is
tied to the one server of the tree on its port nearest its file, when its host reaches that server (localhost,
127.0.0.1, 0.0.0.0, or a name the server's file gives it, a compose service, or a Kubernetes
Service of its manifest, of another YAML file of its folder or of the run's in its repository); two servers on one
port as near (a server without replay, in a file read, counts), or a host nothing names, tie nothing. The
rules that read a server's clients (`_JUDGES`: RPL301, RPL102, and the request rules RPL101, RPL302, RPL303, RPL304, RPL309)
then judge the server with its clients of other files, and report at the client, the server
beside it.

Files the prefilter turned away, and the clients of checked files that start no server of their
own, are read for clients only when the tree starts a replay server (most trees start none), and
what was found is remembered by their stat. Files a run does not
check (a pre-commit run names a few) are known from the result cache: a file whose cached facts
name servers or clients is read again, and checked again when it changed.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .. import frontends
from ..engine.cache.stat_columns import stat_of
from ..engine.checker import Checker, FileResult
from ..engine.versions import judgement

if TYPE_CHECKING:  # imported when the tree starts a replay server (most start none)
    from ..engine import cache
    from ..model import Finding, Launch, Request, Span
    from ..served import ReplayServer, Served, ServerClient
    from ..vllm.releases import Release

    _Tie = tuple[ReplayServer, tuple[ServerClient, ...]]  # a server and the clients of other files it serves

_JUDGES = ("RPL101", "RPL102", "RPL301", "RPL302", "RPL303", "RPL304", "RPL309")  # the rules that read a server's clients


def tie_clients(checker: Checker, results: list[FileResult], result_cache: cache.ResultCache | None) -> list[FileResult]:
    """The results, with the findings of `_JUDGES` on clients of servers in other files (at the
    client's file when the run checked it, else at the server's)."""
    told = {os.path.abspath(result.path): result.served for result in results if result.served}
    recalled = result_cache is not None and (any(facts.servers for facts in told.values()) or result_cache.serving())
    if not recalled and not any(facts.servers for facts in told.values()):
        return results  # most trees: no replay server, and nothing read (loading the stores costs a warm run)
    in_run = {os.path.abspath(result.path): result for result in results}
    spelled = {path: result.path for path, result in in_run.items()}  # as the run names each file (the findings' paths)
    for path in result_cache.holding_served() if recalled else ():  # type: ignore[union-attr]
        if os.path.abspath(path) not in in_run and (facts := _recalled(checker, result_cache, path)):  # type: ignore[arg-type]
            told[os.path.abspath(path)] = facts
            spelled[os.path.abspath(path)] = path
    if not any(facts.servers for facts in told.values()):
        return results
    if result_cache is not None:
        result_cache.mark_serving()
    told = {
        path: _clients_read(checker, result_cache, spelled[path], facts) if facts.clients_unread else facts for path, facts in told.items()
    }
    for result in results:
        if _unread(result) and os.path.abspath(result.path) not in told:
            scanned = _scanned(checker, result_cache, result.path)
            if scanned:
                told[os.path.abspath(result.path)] = scanned
    told = _through_gateways(checker, told)
    reads_masks = any(facts.reads_masks for facts in told.values())
    services = _Services(checker, results, result_cache)
    ties = _ties(told, services)
    findings = [finding for tie in ties for finding in _judged(checker, tie, reads_masks or _read_beside(tie[0], told, services))]
    _report(checker, list({(f.code, f.span, f.message): f for f in findings}.values()), in_run)
    return results


def _through_gateways(checker: Checker, told: dict[str, Served]) -> dict[str, Served]:
    """The clients, each as the nginx gateway it reaches sends it on, when a replay server's
    compose file defines one (`frontends/yaml/compose_gateways`: `localhost:8080/policy/...` to
    `policy:8000/...`)."""
    from ..frontends.yaml.compose_gateways import Route, routes
    from ..model import LaunchKind

    paths = {server.launch.span.path for facts in told.values() for server in facts.servers if server.launch.kind is LaunchKind.COMPOSE}
    found: list[Route] = [route for path in sorted(paths) for route in routes(path, checker._read_text)]
    if not found:
        return told

    def sent_on(client: ServerClient) -> ServerClient:
        for route in found:
            to = route.sends(client.host, client.port, client.request.endpoint or "")
            if to is not None:
                return replace(client, host=to[0], port=to[1], request=replace(client.request, endpoint=to[2]))
        return client

    return {path: replace(facts, clients=tuple(map(sent_on, facts.clients))) for path, facts in told.items()}


def _unread(result: FileResult) -> bool:
    """A file whose result says nothing of what it holds: the prefilter turned it away."""
    return result.digest is None and not result.parsed and not (result.findings or result.notes or result.error or result.internal_error)


def _ties(told: dict[str, Served], beside: _Services) -> list[_Tie]:
    """Each server with the clients of the tree its port and host single out: of the servers on a
    client's port, those nearest the client's file (the most folders in common: a monorepo's
    projects each with a server on port 8000 and a client beside it)."""
    by_port: dict[int, list[ReplayServer]] = {}
    for facts in told.values():
        for server in facts.servers:
            by_port.setdefault(server.port, []).append(server)
    others: dict[int, list[str]] = {}  # a port something else of a file listens on: the files
    for path, facts in told.items():
        for port in facts.ports:
            others.setdefault(port, []).append(path)
    ties: dict[int, _Tie] = {}
    for path, facts in told.items():
        for client in facts.clients:
            servers = _nearest(by_port.get(client.port, []), path)
            if len({server.launch.span for server in servers}) != 1:
                continue  # no server, or two on one port as near: which one it reaches is not known
            near = _folders_shared(servers[0].launch.span.path, path)
            if any(_folders_shared(other, path) >= near for other in others.get(client.port, ())):
                continue  # something else listens on the port as near
            for server in servers:  # the variants of one launch (a script's branches)
                if _reaches(server, client.host, beside) and _package(server) == client.framework:
                    ties[id(server)] = (server, (*ties.get(id(server), (server, ()))[1], client))
    return list(ties.values())


def _nearest(servers: list[ReplayServer], path: str) -> list[ReplayServer]:
    shared = {id(server): _folders_shared(server.launch.span.path, path) for server in servers}
    most = max(shared.values(), default=0)
    return [server for server in servers if shared[id(server)] == most]


def _folders_shared(one: str, other: str) -> int:
    """How many folders the two files' paths have in common, from the root."""
    first = os.path.dirname(os.path.abspath(one)).split(os.sep)
    second = os.path.dirname(os.path.abspath(other)).split(os.sep)
    return len(os.path.commonprefix([first, second]))


def _read_beside(server: ReplayServer, told: dict[str, Served], services: _Services) -> bool:
    """Whether a client the server does not take as its own reads the masks from its port (a
    `requests` spot check beside a TRL trainer): the masks reach the tree, as they do when a file
    names their route."""
    from ..vllm.unusable_masks import client_gets_mask

    own = _package(server)
    return any(
        client.framework != own
        and client.port == server.port
        and client_gets_mask(client.request, server.launch) is True
        and _reaches(server, client.host, services)
        for facts in told.values()
        for client in facts.clients
    )


class _Services:
    """The names Kubernetes Services of other manifests give a server's launch (read once per
    launch, whatever its variants, and each manifest once per run): those beside its file, and
    those of the tree's YAML files, the run's and those the cache remembers turned away (a run
    that names a few files knows the others by them), listed when first asked."""

    def __init__(self, checker: Checker, results: list[FileResult], result_cache: cache.ResultCache | None) -> None:
        self.checker = checker
        self.results = results
        self.result_cache = result_cache
        self.manifests: list[str] | None = None
        self.names: dict[Span, tuple[str, ...]] = {}
        self.read: dict[str, list[Any]] = {}  # a YAML file: its Services

    def _manifests(self) -> list[str]:
        if self.manifests is None:
            run = [result.path for result in self.results if result.kind == "yaml"]
            remembered = self.result_cache.turned_away((".yaml", ".yml")) if self.result_cache is not None else []
            self.manifests = list({os.path.abspath(path): path for path in (*run, *remembered)}.values())
        return self.manifests

    def of(self, launch: Launch) -> tuple[str, ...]:
        span = launch.span
        if span not in self.names:
            from ..frontends.yaml.k8s_services import hosts_beside

            try:
                self.names[span] = hosts_beside(span.path, span.start, self.checker._read_text, self.read, self._manifests())
            except Exception:  # a manifest that cannot be read as YAML after all: no Service is claimed
                self.names[span] = ()
        return self.names[span]


def _reaches(server: ReplayServer, host: str, services: _Services) -> bool:
    """Whether `host` reaches the server: a name its file gives it, or (a Kubernetes workload's)
    a Service of another manifest beside its file or in its repository (`k8s_services.hosts_beside`)."""
    from ..model import LaunchKind

    if server.reached_by(host):
        return True
    return server.launch.kind is LaunchKind.KUBERNETES and host in services.of(server.launch)


def _package(server: ReplayServer) -> str | None:
    """Whose clients the server takes: "" any HTTP client's (vLLM's own server, SkyRL's
    standalone one), "trl" a TRL trainer's (`unusable_masks.clients_of`)."""
    from ..vllm.unusable_masks import clients_of

    return clients_of(server.launch)


def _report(checker: Checker, findings: list[Finding], in_run: dict[str, FileResult]) -> None:
    """Each client file's findings added to its result, else to the result of its server's file."""
    by_path: dict[str, list[Finding]] = {}
    for finding in findings:
        by_path.setdefault(finding.launch.span.path, []).append(finding)  # type: ignore[union-attr]
    for path, found in by_path.items():
        kept = _unsuppressed(checker, path, found)
        server_paths = [os.path.abspath(finding.related[-1].path) for finding in kept if finding.related]
        result = next((in_run[p] for p in (os.path.abspath(path), *server_paths) if p in in_run), None)
        if result is None or not kept:
            continue
        result.findings = sorted(
            [*_still_unused(result, found, kept), *kept], key=lambda f: (f.span.path, f.span.start_line, f.span.start_col, f.code)
        )


def _judged(checker: Checker, tie: _Tie, reads_masks: bool) -> list[Finding]:
    """`_JUDGES` on the server with its clients of other files, at those clients only,
    each judged by the configuration of the client's file."""
    from ..engine.project.model_folder import with_model_folder
    from ..model import Request
    from ..rules import RULES

    server, clients = tie
    extra = tuple(client.request for client in clients)
    if reads_masks:  # some file reads the masks' route where no client was read: it may be this server's
        extra += (Request("http", server.launch.span, {}, open_ended=True),)
    launch = replace(server.launch, clients=server.launch.clients + extra)
    # The server kept across files holds its `model`, not what its folder says: read for the
    # clients here (RPL304's vocabulary for their `top_k`, the generation config's defaults for
    # the fields they leave out: RPL102).
    launch = with_model_folder(launch, checker._read_text)
    findings: list[Finding] = []
    for client in clients:
        checker.use_config_of(client.request.span.path)
        rules = [rule for rule in RULES if rule.code in _JUDGES and rule.code in checker.enabled]
        for (rule, report), releases in _reports(launch, server.releases, rules, _places(client.request)).items():
            findings.append(_finding(checker, rule, report, releases, server, client))
    return findings


def _reports(launch: Launch, releases: tuple[str, ...], rules: list, places: set[Span]) -> dict[tuple, list[Release]]:
    """The reports of `rules` at `places`, each with the releases that make it."""
    from ..vllm.releases import Release, judged

    merged: dict[tuple, list[Release]] = {}
    for release in filter(None, map(Release.parse, releases)):
        for rule in rules:
            if rule.applies_to(judged(release)):
                for report in rule.reports(launch, judged(release)):
                    if report.span in places:
                        merged.setdefault((rule, report), []).append(release)
    return merged


def _finding(checker: Checker, rule: Any, report: Any, releases: list[Release], server: ReplayServer, client: ServerClient) -> Finding:
    """A report at a client as `api.Checker` makes its findings: the releases named, the
    conditions of the tie said (`_tie_conditions`), the client's own launch (its span) for
    suppressions above it."""
    from ..model import Finding, Launch
    from ..vllm.releases import judged

    said, note = judgement(releases)
    request = client.request
    report = _tie_conditions(report, server, client)
    return Finding(
        rule.code,
        rule.name,
        report.words(said, note),
        report.span,
        checker.config.severity.get(rule.code, report.severity or rule.severity),
        related=report.related,
        releases=tuple(str(release) for release in sorted(set(releases))),
        judged_by=tuple(str(release) for release in sorted({judged(release) for release in releases})),
        launch=Launch(server.launch.kind, request.span, {}, label=f"client of {server.launch.label}".strip()),
    )


def _tie_conditions(report: Any, server: ReplayServer, client: ServerClient) -> Any:
    """The report with the defaults the tie rests on, as the server's own findings say them: its
    port's (and, for a client on a local name, its published port's) after where it starts, and
    its mask's (a Makefile's `REPLAY ?= --return-sampling-mask`) among the report's conditions."""
    from ..rules.requests_shape import started_at
    from ..served import LOCAL_HOSTS

    local = server.local_condition if client.host in LOCAL_HOSTS else ""
    port = " and ".join(dict.fromkeys(filter(None, (server.condition, local))))
    if port:
        where = started_at(server.launch, client.request)
        tied = started_at(server.launch, client.request, server.port, port)
        report = replace(report, subject=report.subject.replace(where, tied, 1))
    replay = server.replay_condition
    if replay and replay not in port.split(" and "):
        report = replace(report, conditions=(*report.conditions, f"when {replay}"))
    return report


def _places(request: Request) -> set[Span]:
    """Where a report on the client's request may sit: its settings, and the places their values
    passed through (RPL304's top_k that is the model's own `vocab_size`, at the request's key)."""
    return {request.span, *(span for setting in request.settings.values() for span in (setting.span, *setting.via))}


def _unsuppressed(checker: Checker, path: str, findings: list[Finding]) -> list[Finding]:
    """The findings of one client file its own configuration and suppression comments keep."""
    from ..engine import suppress
    from ..model import LineIndex

    checker.use_config_of(path)
    ignored = checker.config.ignored_for(path)
    findings = [finding for finding in findings if finding.code not in ignored]
    kept: list[Finding] = []
    for span_path in dict.fromkeys(finding.span.path for finding in findings):
        group = [finding for finding in findings if finding.span.path == span_path]
        text = None if checker.config.ignore_noqa else checker._read_text(span_path)
        python = frontends.kind_for(span_path) == "python"
        kept += group if text is None else suppress.apply(group, LineIndex(span_path, text), python)[0]
    return kept


def _still_unused(result: FileResult, found: list[Finding], kept: list[Finding]) -> list[Finding]:
    """The file's findings, less RPL901 on a line whose suppression silenced a finding found here
    (its own check could not see it)."""
    silenced = {(finding.span.path, finding.span.start_line, finding.code) for finding in found if finding not in kept}
    return [
        finding
        for finding in result.findings
        if not (
            finding.code == "RPL901"
            and any((finding.span.path, line, code) in silenced for line in _near(finding) for code in _named(finding))
        )
    ]


def _near(finding: Finding) -> tuple[int, int]:
    return (finding.span.start_line, finding.span.start_line + 1)  # a comment alone on its line covers the line below


def _named(finding: Finding) -> list[str]:
    return [code for code in _JUDGES if code in finding.message]


def _scanned(checker: Checker, result_cache: cache.ResultCache | None, path: str) -> Served | None:
    """The clients of a file the prefilter turned away, from the cache while its stat holds."""
    kind = frontends.kind_for(path) if "." in os.path.basename(path) else frontends.kind_for(path, _head(path))
    stat = stat_of(path) if kind in ("python", "shell") else None
    if stat is None:
        return None
    settings = _scan_settings(checker, path)
    if result_cache is not None and (remembered := result_cache.scanned(path, stat, settings)) is not None:
        return remembered
    checker.reads = []
    found = _read_clients(checker, path, kind)  # type: ignore[arg-type]
    if result_cache is not None and found is not None:
        result_cache.remember_scan(path, stat, found, checker.reads, settings)  # a `--config` YAML, a trainer's program
    return found


def _clients_read(checker: Checker, result_cache: cache.ResultCache | None, path: str, facts: Served) -> Served:
    """What a checked file says, with the clients its check left unread (it starts no server)."""
    from ..served import distinct

    scanned = _scanned(checker, result_cache, path)
    if scanned is None:
        return replace(facts, clients_unread=False)
    clients = distinct((*facts.clients, *scanned.clients))
    return replace(facts, clients=clients, reads_masks=facts.reads_masks or scanned.reads_masks, clients_unread=False)


def _scan_settings(checker: Checker, path: str) -> str:
    """What a scan of `path` for clients reads of the configuration (its file's own): a scan
    remembered under other settings is done again."""
    checker.use_config_of(path)
    return repr((checker.config.forwarded_arguments, checker.config.max_file_bytes, sorted(checker.budget.items())))


def _read_clients(checker: Checker, path: str, kind: str) -> Served | None:
    """What a file the prefilter turned away holds of clients: read only when it holds a word
    without which it holds none (None: it cannot be read)."""
    from ..engine.text_decoding import decode
    from ..served import Served, distinct
    from ..source import Budget, ExtractContext, SourceFile
    from ..vllm.unusable_masks import other_ports

    data = checker.read(path)
    if not isinstance(data, bytes):
        return None
    if not frontends.may_hold_client(kind, data):
        return Served()
    checker.use_config_of(path)  # its `forwarded-arguments` decides what its functions' callers may pass
    context = ExtractContext(
        read_text=checker._read_text,
        list_folder=checker._list_folder,
        root=os.path.dirname(path) or ".",
        budget=Budget(**checker.budget),
        forwarded_arguments=checker.config.forwarded_arguments,
    )
    try:
        launches = frontends.load(kind).clients(SourceFile(path, decode(data, kind).text), context)  # type: ignore[union-attr, arg-type]
    except Exception:  # unreadable text, over its budget, a bug: no client is claimed
        return Served()
    return Served(clients=distinct(context.clients), reads_masks=context.reads_masks, ports=other_ports(launches))


def _recalled(checker: Checker, result_cache: cache.ResultCache, path: str) -> Served | None:
    """What a file the run did not check says, from the cache while it holds, else read again."""
    stat = stat_of(path)
    if stat is None:
        return None
    remembered = result_cache.scanned(path, stat, _scan_settings(checker, path))
    if remembered is not None:
        return remembered
    data = checker.read(path)
    if not isinstance(data, bytes):
        return None
    kind = frontends.kind_for(path, data[:256])
    if kind is None or not frontends.relevant(kind, data):
        return _scanned(checker, result_cache, path)
    entry = result_cache.lookup(path, checker.cache_key(path, data))
    if entry is not None:
        return entry.served
    result = checker.check_data(path, data)
    if result.digest is not None and not (result.internal_error or result.error or result.load_dependent):
        result_cache.store(path, result.digest, result.findings, result.notes, result.kind, result.dependencies, result.served)
    return result.served


def _head(path: str) -> bytes | None:
    from ..workspace.discovery import read_head

    return read_head(path)
