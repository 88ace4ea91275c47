# Imitates skypilot-org/skypilot llm/vllm (README: `sky launch -c vllm-llama2 serve-openai-api.yaml`), through SkyPilot's Python API.
import sky

task = sky.Task.from_yaml("serve-openai-api.yaml")
sky.launch(task, cluster_name="vllm-llama2")
