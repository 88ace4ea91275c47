# Imitates THUDM/AgentBench src/client/agents/http_agent.py (HTTPAgent: a requests POST of self.body + the prompter's messages).
import time
from typing import Any, Dict, List

import requests

from ..agent import AgentClient


def role_content_dict(message_key="messages", role_key="role", content_key="content", user_role="user", agent_role="assistant"):
    def prompter(messages: List[Dict[str, str]]):
        role_dict = {"user": user_role, "agent": agent_role}
        return {message_key: [{role_key: role_dict[item["role"]], content_key: item["content"]} for item in messages]}

    return prompter


class HTTPAgent(AgentClient):
    def __init__(self, url, proxies=None, body=None, headers=None, return_format="{response}", prompter=None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.url = url
        self.proxies = proxies or {}
        self.headers = headers or {}
        self.body = body or {}
        self.return_format = return_format
        self.prompter = role_content_dict(**(prompter or {}))
        if not self.url:
            raise Exception("Please set 'url' parameter")

    def _handle_history(self, history: List[dict]) -> Dict[str, Any]:
        return self.prompter(history)

    def inference(self, history: List[dict]) -> str:
        for _ in range(3):
            body = self.body.copy()
            body.update(self._handle_history(history))
            resp = requests.post(  # expect: RPL301
                self.url,
                json=body,
                headers=self.headers,
                proxies=self.proxies,
                timeout=120,
            )
            if resp.status_code == 200:
                return self.return_format.format(response=resp.json())
            time.sleep(_ + 2)
        raise Exception("Failed.")
