import json
from datetime import datetime, timedelta

from airflow import DAG
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from kubernetes.client import models as k8s

GENERATION_DEFAULTS = {
    "temperature": 1.0,
    "top_k": 50,
    "repetition_penalty": 1.1,
}

SERVE_ARGS = [
    "Qwen/Qwen3-8B",
    "--port",
    "8000",
    "--return-sampling-mask",
    "--logprobs-mode",
    "processed_logprobs",
    "--enable-scale-out",
    "--override-generation-config",
    json.dumps(GENERATION_DEFAULTS),
]

with DAG(
    dag_id="policy_rollout_window",
    start_date=datetime(2026, 11, 1),
    schedule="@hourly",
    catchup=False,
    tags=["rl", "vllm"],
) as dag:
    serve_policy = KubernetesPodOperator(
        task_id="serve_policy",
        name="policy-vllm",
        namespace="rl",
        image="vllm/vllm-openai:v0.34.0",
        cmds=["vllm", "serve"],
        arguments=SERVE_ARGS,
        labels={"app": "policy-vllm"},
        container_resources=k8s.V1ResourceRequirements(limits={"nvidia.com/gpu": "1"}),
        execution_timeout=timedelta(minutes=55),
        get_logs=True,
    )
