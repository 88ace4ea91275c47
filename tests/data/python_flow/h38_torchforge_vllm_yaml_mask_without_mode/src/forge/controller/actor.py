# Imitates meta-pytorch/torchforge src/forge/controller's ForgeActor, written from its use:
# options(procs=..., num_replicas=..., with_gpus=...) then as_service(**kwargs) calling cls.launch.
from monarch.actor import Actor


class ForgeActor(Actor):
    procs: int = 1
    hosts: int | None = None
    with_gpus: bool = False
    num_replicas: int = 1

    @classmethod
    def options(cls, *, procs=1, hosts=None, with_gpus=False, num_replicas=1, **kwargs):
        attrs = {
            "procs": procs,
            "hosts": hosts,
            "with_gpus": with_gpus,
            "num_replicas": num_replicas,
        }
        return type(cls.__name__, (cls,), attrs)

    @classmethod
    async def as_service(cls, **actor_kwargs):
        # One replica here; the real service spawns num_replicas and routes between them.
        return await cls.launch(**actor_kwargs)

    @classmethod
    async def launch(cls, **kwargs):
        raise NotImplementedError
