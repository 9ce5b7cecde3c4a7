"""Write device-memory samples for ``npu-doctor mem analyze`` from inside a training loop.

Three lines::

    from npu_doctor_mem import MemoryLogger
    mem = MemoryLogger("mem-rank{rank}.jsonl", every=10)
    ...
        mem.step(step)            # in the loop, e.g. after optimizer.step()

Each call with a step divisible by ``every`` appends one JSON line (bytes)::

    {"step": 120, "time": 1718000000.5, "device": 0, "allocated": 41234567168,
     "reserved": 45097156608, "max_allocated": 43000000000, "capacity": 65452113920}

It needs only the Python standard library and, when it runs, torch with torch_npu
(``torch.npu``) or, where that is what is present, CUDA (``torch.cuda``). The format is
documented in docs/mem.md of npu-doctor.
"""

import json
import os
import time

__all__ = ["MemoryLogger", "find_backend"]
__version__ = "1"


def find_backend():
    """torch.npu when torch_npu is installed and a device is there, else torch.cuda."""
    import torch  # imported here so that importing this module never needs torch

    try:
        import torch_npu  # noqa: F401  (registers torch.npu)
    except ImportError:
        pass
    for name in ("npu", "cuda"):
        backend = getattr(torch, name, None)
        if backend is not None and _available(backend):
            return backend
    raise RuntimeError("npu_doctor_mem: neither torch.npu (torch_npu) nor torch.cuda has a device")


def _available(backend):
    try:
        return bool(backend.is_available())
    except Exception:  # a half-installed backend counts as absent
        return False


class MemoryLogger:
    """Appends one memory sample per ``every`` steps to ``path`` and flushes it.

    path        file to write; ``{rank}`` is replaced by $RANK (else $LOCAL_RANK, else 0)
    every       write a sample when ``step % every == 0``
    device      device index; default: the backend's current device at each sample
    phase       "training" or "inference" (``mem analyze`` reads the OOM table by it)
    append      keep what the file already has (a resumed run) instead of truncating it
    reset_peak  after each sample, reset the peak so that max_allocated is the peak of
                the last ``every`` steps (this changes what max_memory_allocated()
                returns to your own code)
    backend     torch.npu / torch.cuda or a stand-in; default: find_backend()
    """

    def __init__(self, path="npu-doctor-mem-rank{rank}.jsonl", every=1, device=None, phase=None,
                 append=False, reset_peak=False, backend=None):
        if int(every) < 1:
            raise ValueError("every must be at least 1")
        if phase not in (None, "training", "inference"):
            raise ValueError("phase must be 'training' or 'inference'")
        self.every = int(every)
        self.device = device
        self.phase = phase
        self.reset_peak = reset_peak
        self._backend = backend if backend is not None else find_backend()
        self._capacity = {}
        rank = os.environ.get("RANK", os.environ.get("LOCAL_RANK", "0"))
        self.path = str(path).format(rank=rank)
        self._file = open(self.path, "a" if append else "w", encoding="utf-8")

    def step(self, step):
        """Writes a sample when ``step`` is due; returns it (a dict) or None."""
        if int(step) % self.every != 0:
            return None
        sample = self.sample(step)
        self._file.write(json.dumps(sample) + "\n")
        self._file.flush()
        if self.reset_peak and hasattr(self._backend, "reset_peak_memory_stats"):
            self._backend.reset_peak_memory_stats(sample["device"])
        return sample

    def sample(self, step):
        """The sample for ``step`` without writing it."""
        b = self._backend
        device = self.device if self.device is not None else int(b.current_device())
        sample = {
            "step": int(step),
            "time": round(time.time(), 3),
            "device": int(device),
            "allocated": int(b.memory_allocated(device)),
            "reserved": int(b.memory_reserved(device)),
            "max_allocated": int(b.max_memory_allocated(device)),
        }
        capacity = self._capacity_of(device)
        if capacity:
            sample["capacity"] = capacity
        if self.phase:
            sample["phase"] = self.phase
        return sample

    def _capacity_of(self, device):
        if device not in self._capacity:
            total = None
            try:
                total = int(self._backend.mem_get_info(device)[1])
            except Exception:
                try:
                    total = int(self._backend.get_device_properties(device).total_memory)
                except Exception:
                    total = None
            self._capacity[device] = total
        return self._capacity[device]

    def close(self):
        if not self._file.closed:
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
