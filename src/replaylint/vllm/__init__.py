"""What replaylint knows about vLLM, as data and small functions (from ../shared/spec)."""
