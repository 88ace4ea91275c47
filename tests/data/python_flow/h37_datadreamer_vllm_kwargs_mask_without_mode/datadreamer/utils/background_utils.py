# Imitates datadreamer-dev/DataDreamer src/utils/background_utils.py (trimmed: the resource is built in this
# process instead of a background one; callers reach it through `.proxy` as upstream).
import os


class _ResourceProxy:
    def __init__(self, resource):
        self.proxy = resource


def proxy_resource_in_background(resource_cls, env=None):
    if env is not None:
        os.environ.update(env)
    return _ResourceProxy(resource_cls())
