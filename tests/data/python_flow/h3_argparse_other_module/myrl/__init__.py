# Imitates huggingface/trl trl/scripts/vllm_serve.py, with the parser built in its own module
# (myrl/cli.py) and `main()` run under `if __name__ == "__main__":` in another.
