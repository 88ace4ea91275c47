module.exports = {
  apps: [
    {
      name: "policy",
      script: "vllm",
      args: "serve Qwen/Qwen3-8B --port 8012 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out",
      interpreter: "none",
      autorestart: true,
    },
    {
      name: "worker",
      script: "worker/rollout.py",
      interpreter: "python3",
    },
  ],
};
