"""replaylint: finds vLLM launches that sampling distribution replay rejects."""

__version__ = "0.1.0"
