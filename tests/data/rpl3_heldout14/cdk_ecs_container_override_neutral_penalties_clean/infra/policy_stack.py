"""An ECS service on one GPU instance running the vLLM replay server."""

from aws_cdk import Stack
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_ecs as ecs
from constructs import Construct

GENERATION_DEFAULTS = '{"temperature": 1.0, "top_k": 20, "repetition_penalty": 1.0, "presence_penalty": 0.0}'


class PolicyServerStack(Stack):
    def __init__(self, scope: Construct, construct_id: str, **kwargs) -> None:
        super().__init__(scope, construct_id, **kwargs)
        vpc = ec2.Vpc(self, "Vpc", max_azs=2)
        cluster = ecs.Cluster(self, "Cluster", vpc=vpc)
        cluster.add_capacity(
            "GpuCapacity",
            instance_type=ec2.InstanceType("g6e.xlarge"),
            machine_image=ecs.EcsOptimizedImage.amazon_linux2(ecs.AmiHardwareType.GPU),
            desired_capacity=1,
        )
        task = ecs.Ec2TaskDefinition(self, "PolicyTask")
        task.add_container(
            "vllm",
            image=ecs.ContainerImage.from_registry("vllm/vllm-openai:v0.34.0"),
            entry_point=["vllm", "serve"],
            command=[
                "Qwen/Qwen3-1.7B",
                "--port",
                "8000",
                "--return-sampling-mask",
                "--logprobs-mode",
                "processed_logprobs",
                "--enable-scale-out",
                "--override-generation-config",
                GENERATION_DEFAULTS,
            ],
            memory_limit_mib=30000,
            gpu_count=1,
            port_mappings=[ecs.PortMapping(container_port=8000)],
            logging=ecs.LogDrivers.aws_logs(stream_prefix="vllm"),
        )
        ecs.Ec2Service(self, "PolicyService", cluster=cluster, task_definition=task)
