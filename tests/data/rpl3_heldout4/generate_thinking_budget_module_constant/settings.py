THINKING_BUDGET = 1024
GENERATE_URL = "http://localhost:8000/inference/v1/generate"
