"""The CUDA side of the accelerator abstraction."""
import torch


class CudaAccelerator:
    name = "cuda"
    communication_backend = "nccl"

    def is_available(self):
        return torch.cuda.is_available()

    def device(self, index=0):
        return torch.device("cuda", index)

    def synchronize(self):
        torch.cuda.synchronize()
