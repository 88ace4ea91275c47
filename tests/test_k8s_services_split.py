"""A Kubernetes manifest split by kind (`deployment.yaml` beside `service.yaml`, as kustomize
bases and Helm charts lay them out): the Service of the other file reaches the replay server the
Deployment's pods run, so a client on `http://<service>:8000` is judged as its client."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_cross_file_clients import ROLLOUT, at_client, check, tree

DEPLOYMENT = (
    "apiVersion: apps/v1\nkind: {kind}\nmetadata:\n  name: policy\n{namespace}spec:\n  replicas: 1\n"
    "  selector:\n    matchLabels:\n      app.kubernetes.io/name: policy\n"
    "  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: policy\n        tier: rollout\n"
    "    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.34.0\n"
    "          args:\n            - Qwen/Qwen3-8B\n            - --return-sampling-mask\n"
    "            - --logprobs-mode\n            - processed_logprobs\n"
    "          ports:\n            - containerPort: 8000\n"
)
SERVICE = (
    "apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\n{namespace}spec:\n"
    "  selector:\n    app.kubernetes.io/name: {app}\n  ports:\n    - name: http\n      port: {port}\n      targetPort: {target}\n"
)


def manifests(
    *,
    kind: str = "Deployment",
    name: str = "policy-svc",
    app: str = "policy",
    port: int = 8000,
    target: int = 8000,
    ns: str = "",
    svc_ns: str = "",
) -> dict[str, str]:
    def spelled(namespace: str) -> str:
        return f"  namespace: {namespace}\n" if namespace else ""

    return {
        "deploy/deployment.yaml": DEPLOYMENT.format(kind=kind, namespace=spelled(ns)),
        "deploy/service.yaml": SERVICE.format(name=name, app=app, port=port, target=target, namespace=spelled(svc_ns)),
    }


@pytest.mark.parametrize(
    ("files", "url"),
    [
        pytest.param(manifests(), "http://policy-svc:8000/v1", id="Deployment and Service"),
        pytest.param(manifests(kind="StatefulSet", name="rollout"), "http://rollout:8000/v1", id="a StatefulSet"),
        pytest.param(manifests(ns="rl", svc_ns="rl"), "http://policy-svc.rl.svc.cluster.local:8000/v1", id="its cluster name"),
        pytest.param(manifests(svc_ns="rl"), "http://policy-svc.rl:8000/v1", id="the namespace set on one of them"),
        pytest.param(
            {
                **manifests(),
                "deploy/service.yaml": "# the rollout server\n---\n"
                + SERVICE.format(name="policy-svc", app="policy", port=8000, target=8000, namespace=""),
            },
            "http://policy-svc:8000/v1",
            id="after another document",
        ),
        pytest.param(
            {"deploy/deployment.yaml": manifests()["deploy/deployment.yaml"], "deploy/networking.yml": manifests()["deploy/service.yaml"]},
            "http://policy-svc:8000/v1",
            id="any YAML file of the folder",
        ),
        pytest.param(
            {
                "k8s/workloads/policy.yaml": manifests()["deploy/deployment.yaml"],
                "k8s/network/policy.yml": manifests()["deploy/service.yaml"],
            },
            "http://policy-svc:8000/v1",
            id="a Service in another folder of the tree",
        ),
        pytest.param(
            {
                ".git/HEAD": "ref: refs/heads/main\n",
                "deploy/base/deployment.yaml": manifests(ns="rl")["deploy/deployment.yaml"],
                "ops/services.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n"
                + manifests(svc_ns="rl")["deploy/service.yaml"].replace("kind: Service", "kind: 'Service'"),
            },
            "http://policy-svc.rl.svc:8000/v1",
            id="in the repository, after a ConfigMap, the kind quoted",
        ),
    ],
)
def test_a_service_of_another_file_reaches_the_replay_server(tmp_path: Path, files: dict, url: str) -> None:
    tree(tmp_path, {**files, "rollout.py": ROLLOUT.format(url=url, penalty="0.3")})
    found = check(tmp_path, cache=False)
    assert at_client(found, "rollout.py") == [("RPL301", 7), ("RPL302", 7)]
    [workload] = [name for name, text in files.items() if "containers:" in text]
    assert all(related == [workload] for path, _, _, _, related in found if path == "rollout.py")


@pytest.mark.parametrize(
    ("files", "url"),
    [
        pytest.param(manifests(app="judge"), "http://policy-svc:8000/v1", id="it selects other pods"),
        pytest.param(manifests(port=80), "http://policy-svc:80/v1", id="it forwards 80 to 8000"),
        pytest.param(manifests(ns="rl", svc_ns="eval"), "http://policy-svc.eval:8000/v1", id="another namespace"),
        pytest.param(manifests(), "http://other-svc:8000/v1", id="a name no Service has"),
        pytest.param(
            {
                "deploy/deployment.yaml": manifests(ns="rl")["deploy/deployment.yaml"],
                "net/service.yaml": manifests(svc_ns="eval")["deploy/service.yaml"],
            },
            "http://policy-svc.eval:8000/v1",
            id="in another folder, another namespace",
        ),
        pytest.param(
            {
                ".git/HEAD": "ref: refs/heads/main\n",
                "deploy/deployment.yaml": manifests()["deploy/deployment.yaml"],
                "vendor/chart/.git": "gitdir: ../../.git/modules/chart\n",
                "vendor/chart/service.yaml": manifests()["deploy/service.yaml"],
            },
            "http://policy-svc:8000/v1",
            id="in another repository (a submodule)",
        ),
        pytest.param(
            {"deploy/deployment.yaml": manifests()["deploy/deployment.yaml"], "docs/service.md": manifests()["deploy/service.yaml"]},
            "http://policy-svc:8000/v1",
            id="a Service in a file that is no YAML",
        ),
        pytest.param(
            {**manifests(), "deploy/service.yaml": "{{- if .Values.service }}\n" + manifests()["deploy/service.yaml"] + "{{- end }}\n"},
            "http://policy-svc:8000/v1",
            id="a Helm template, not read as YAML",
        ),
    ],
)
def test_a_service_that_does_not_reach_it_ties_nothing(tmp_path: Path, files: dict, url: str) -> None:
    tree(tmp_path, {**files, "rollout.py": ROLLOUT.format(url=url, penalty="0.3")})
    assert at_client(check(tmp_path, cache=False), "rollout.py") == []


def test_a_warm_run_sees_the_service_file_change(tmp_path: Path) -> None:
    """The Services beside the server's manifest are looked for when clients are tied, on every
    run: a `service.yaml` added after the first run, or renamed, is seen by the next one (the
    Deployment's own cached result does not hold them)."""
    client = ROLLOUT.format(url="http://policy-svc:8000/v1", penalty="0.3")
    tree(tmp_path, {"deploy/deployment.yaml": manifests()["deploy/deployment.yaml"], "rollout.py": client})
    assert at_client(check(tmp_path), "rollout.py") == []
    tree(tmp_path, {"deploy/service.yaml": manifests()["deploy/service.yaml"]})
    assert at_client(check(tmp_path), "rollout.py") == [("RPL301", 7), ("RPL302", 7)]
    tree(tmp_path, {"deploy/service.yaml": manifests(name="renamed")["deploy/service.yaml"]})
    assert at_client(check(tmp_path), "rollout.py") == []


def test_a_run_naming_files_knows_the_tree_s_other_manifests_from_the_cache(tmp_path: Path, settled_at_once: None) -> None:
    """A Service in another folder is one of the run's files. A run that names the client alone,
    without a cache, does not know it (no finding rests on what was not read); naming it, or an
    earlier run over the tree that remembered it turned away, ties the client, and a Service
    edited since is read as it is now."""
    files = {
        "k8s/workloads/policy.yaml": manifests()["deploy/deployment.yaml"],
        "k8s/network/policy.yaml": manifests()["deploy/service.yaml"],
    }
    tree(tmp_path, {**files, "rollout.py": ROLLOUT.format(url="http://policy-svc:8000/v1", penalty="0.3")})
    tied = [("RPL301", 7), ("RPL302", 7)]
    assert at_client(check(tmp_path, "rollout.py", "k8s/workloads/policy.yaml", cache=False), "rollout.py") == []
    assert (
        at_client(check(tmp_path, "rollout.py", "k8s/workloads/policy.yaml", "k8s/network/policy.yaml", cache=False), "rollout.py") == tied
    )
    assert at_client(check(tmp_path), "rollout.py") == at_client(check(tmp_path), "rollout.py") == tied
    assert at_client(check(tmp_path, "rollout.py"), "rollout.py") == tied
    tree(tmp_path, {"k8s/network/policy.yaml": manifests(app="judge")["deploy/service.yaml"]})
    assert at_client(check(tmp_path, "rollout.py"), "rollout.py") == []


def test_the_tree_s_services_are_looked_at_nearest_first_and_bounded(tmp_path: Path) -> None:
    from replaylint.frontends.yaml import k8s_services

    far = [f"a/b/c/d/n{i}.yaml" for i in range(k8s_services.MAX_TREE_FILES)]
    near = "deploy/net/service.yaml"
    picked = k8s_services._elsewhere(str(tmp_path / "deploy/deployment.yaml"), [str(tmp_path / p) for p in (*far, near, "deploy/x.json")])
    assert len(picked) == k8s_services.MAX_TREE_FILES and picked[0] == str(tmp_path / near)
