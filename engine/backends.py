"""Where a recorded run's model computes: numpy on the CPU (always there) or PyTorch (on a CUDA GPU when
one is usable, else on the CPU).

PyTorch is optional: `make test` never installs it, `make test-peer` does (.venv-peer), and a GPU
machine brings its own. The engine around the model (scheduler, block pool, sampler, tracer) is the same
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

    def device_text(self) -> str | None:
        """The machine in words for the trace header; None lets the tracer describe this CPU."""
        return None if self.name == "numpy" else _torch().describe_device(self.device)


NUMPY = Backend()


def get(name: str, device: str | None = None) -> Backend:
    if name not in NAMES:
        raise ValueError(f"unbekanntes Backend {name!r}; vorhanden: {', '.join(NAMES)}")
    if name == "numpy":
        if device not in (None, "cpu"):
            raise ValueError(f"das numpy-Backend rechnet nur auf der CPU, nicht auf {device!r}")
        return NUMPY
    torch = _torch()
    backend = Backend(name, device)
    try:
        torch.torch.device(device or "cpu")
    except RuntimeError as e:
        raise ValueError(f"unbekanntes Gerät {device!r}: {e}") from None
    if device and device.startswith("cuda") and not torch.torch.cuda.is_available():
        raise ValueError(f"Gerät {device!r} verlangt, aber PyTorch findet keine nutzbare CUDA-GPU")
    return backend


def _torch():
    try:
        from engine import torch_backend
    except ImportError as e:
        raise ValueError(f"das torch-Backend braucht PyTorch ({e.name or e} fehlt): `make test-peer` richtet "
                         ".venv-peer damit ein, dann `.venv-peer/bin/python -m engine record … --backend torch`") from None
    return torch_backend
