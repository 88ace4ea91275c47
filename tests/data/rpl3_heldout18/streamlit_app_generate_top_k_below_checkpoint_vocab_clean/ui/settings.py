SERVER = "http://localhost:8000"
EXPLORE = {"temperature": 1.0, "top_k": 64, "max_tokens": 512}
