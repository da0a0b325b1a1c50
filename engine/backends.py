"""Where a recorded run's model computes: numpy on the CPU (always there) or PyTorch (on a CUDA GPU when
one is usable, else on the CPU).

PyTorch is optional: `make test` never installs it, `make test-peer` does (.venv-peer), and a GPU
machine brings its own. The engine around the model (scheduler, block pool, sampler) is the same
for both, so a run recorded with torch differs from the numpy one only in the header and in measured
times; the traces' header names the backend and the device, and the pages label the times with them.
"""

from __future__ import annotations

from dataclasses import dataclass

NAMES = ("numpy", "torch")


@dataclass(frozen=True)
class Backend:
    name: str = "numpy"
    device: str | None = None  # torch only: "cpu", "cuda", "cuda:1"; None = the GPU where there is one

    def model(self, model):
        """``model`` (an ``engine.model.LlamaModel``) on this backend, with the same weights."""
        if self.name == "numpy":
            return model
        return _torch().TorchLlamaModel.from_numpy(model, self.device)

    def gpu(self) -> str | None:
        """The GPU this backend computes on, in words (name, memory, CUDA version); None on a CPU."""
        return None if self.name == "numpy" else _torch().describe_gpu(self.device)


NUMPY = Backend()


def get(name: str, device: str | None = None) -> Backend:
    if name not in NAMES:
        raise ValueError(f"unknown backend {name!r}; choose one of {', '.join(NAMES)}")
    if name == "numpy":
        if device not in (None, "cpu"):
            raise ValueError(f"the numpy backend computes on the CPU only, not on {device!r}")
        return NUMPY
    torch = _torch()
    backend = Backend(name, device)
    try:
        torch.torch.device(device or "cpu")
    except RuntimeError as e:
        raise ValueError(f"unknown device {device!r}: {e}") from None
    if device and device.startswith("cuda") and not torch.torch.cuda.is_available():
        raise ValueError(f"device {device!r} asked for, but PyTorch finds no usable CUDA GPU")
    return backend


def _torch():
    try:
        from engine import torch_backend
    except ImportError as e:
        raise ValueError(f"the torch backend needs PyTorch ({e.name or e} is missing): `make test-peer` sets up "
                         ".venv-peer with it") from None
    return torch_backend
