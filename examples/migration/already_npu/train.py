import torch
import torch.distributed as dist

from accelerator.cuda_accelerator import CudaAccelerator
from accelerator.npu_accelerator import NpuAccelerator
from ops import roi_pool


def pick_accelerator():
    npu = NpuAccelerator()
    return npu if npu.is_available() else CudaAccelerator()


def main():
    acc = pick_accelerator()
    dist.init_process_group(backend=acc.communication_backend)
    model = torch.nn.Conv2d(3, 16, 3).to(acc.device())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(2, 3, 32, 32, device=acc.device())
    loss = roi_pool(model(x), torch.zeros(1, 5, device=acc.device())).sum()
    loss.backward()
    opt.step()
    acc.synchronize()


if __name__ == "__main__":
    main()
