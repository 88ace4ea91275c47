from .config import InstanceFactory
