# Imitates NovaSky-AI/SkyRL examples/train/thunder_agent/skyrl_integration/ settings: one module
# holds the server's port and model, read by the launcher and by the client.
MODEL = "Qwen/Qwen3-4B-Instruct-2507"
PORT = 8012
