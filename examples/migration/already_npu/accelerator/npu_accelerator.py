"""The NPU side of the accelerator abstraction: device names and the collective backend."""
import torch

try:
    import torch_npu  # noqa: F401  registers the "npu" device
except ImportError:
    torch_npu = None


class NpuAccelerator:
    name = "npu"
    communication_backend = "hccl"

    def is_available(self):
        return torch_npu is not None and torch.npu.is_available()

    def device(self, index=0):
        return torch.device(f"npu:{index}")

    def synchronize(self):
        torch.npu.synchronize()
