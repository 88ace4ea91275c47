BASE_SAMPLING = {
    "temperature": 1.0,
    "top_k": 20,
    "max_tokens": 2048,
}
