job "policy" {
  datacenters = ["dc1"]
  type        = "service"

  group "vllm" {
    network {
      port "http" {
        static = 8000
      }
    }

    task "server" {
      driver = "docker"

      config {
        image   = "vllm/vllm-openai:v0.34.0"
        ports   = ["http"]
        args    = [
          "--model", "Qwen/Qwen3-8B",
          "--port", "8000",
          "--return-sampling-mask",
          "--logprobs-mode", "processed_logprobs",
          "--enable-scale-out",
        ]
      }

      resources {
        cpu    = 8000
        memory = 32768
      }
    }
  }
}
