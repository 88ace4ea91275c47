# Imitates skypilot-org/skypilot llm/vllm (README: `sky serve up -n vllm service.yaml`), through SkyPilot's Python API.
import sky
from sky import serve as sky_serve

task = sky.Task.from_yaml("service.yaml")
sky_serve.up(task, service_name="vllm")
