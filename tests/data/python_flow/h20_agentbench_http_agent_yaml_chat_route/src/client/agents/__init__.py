from .http_agent import HTTPAgent
