# Imitates IBM/unitxt src/unitxt/dataclass.py: classes declared with annotations become keyword
# dataclasses through the metaclass, and to_dict(classes) keeps the fields those classes declare.
import dataclasses


class DataclassMeta(type):
    def __new__(mcs, name, bases, attrs):
        cls = super().__new__(mcs, name, bases, attrs)
        return dataclasses.dataclass(kw_only=True)(cls)


class Dataclass(metaclass=DataclassMeta):
    def __post_init__(self):
        pass

    def to_dict(self, classes=None):
        if classes is None:
            names = [f.name for f in dataclasses.fields(self)]
        else:
            names = [f.name for cls in classes for f in dataclasses.fields(cls)]
        return {name: getattr(self, name) for name in names}
