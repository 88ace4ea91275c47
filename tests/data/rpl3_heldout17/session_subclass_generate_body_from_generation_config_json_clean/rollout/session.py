import requests


class ReplaySession(requests.Session):
    """A Session that prefixes every path with the server's base URL."""

    def __init__(self, base_url: str) -> None:
        super().__init__()
        self.base_url = base_url.rstrip("/")
        self.headers.update({"Content-Type": "application/json"})

    def request(self, method, url, *args, **kwargs):
        return super().request(method, f"{self.base_url}{url}", *args, **kwargs)
