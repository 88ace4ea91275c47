"""Words several frontends share, between the frontends (above) and the framework adapters
(below): shell scripts, wherever they are written (`shell`: a whole `.sh` file, a Dockerfile
`RUN`, `sh -c` in YAML, `os.system` in Python), YAML nodes and words with positions
(`yaml_nodes`, `yaml_text`, `yaml_scalars`, `yaml_words`), vLLM `--config` files (`vllm_config`), and env files
(`env_file`)."""
