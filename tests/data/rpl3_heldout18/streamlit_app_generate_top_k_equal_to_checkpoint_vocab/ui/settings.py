SERVER = "http://localhost:8000"
EXPLORE = {"temperature": 1.0, "top_k": 151936, "max_tokens": 512}
