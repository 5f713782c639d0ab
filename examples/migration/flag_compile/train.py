"""Trains a small GPT. Every setting below can be overridden: python train.py --compile=False"""
import os
import time

import torch
from torch.distributed import destroy_process_group, init_process_group
from torch.nn.parallel import DistributedDataParallel as DDP

from model import GPT

batch_size = 12
block_size = 1024
compile = True  # use PyTorch 2.0 to compile the model to be faster
backend = "nccl"
dtype = "bfloat16" if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else "float16"

ddp = int(os.environ.get("RANK", -1)) != -1
if ddp:
    init_process_group(backend=backend)
    ddp_local_rank = int(os.environ["LOCAL_RANK"])
    device = f"cuda:{ddp_local_rank}"
    torch.cuda.set_device(device)
else:
    device = "cuda"
device_type = "cuda" if "cuda" in device else "cpu"
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
ctx = torch.amp.autocast(device_type=device_type, dtype=ptdtype)
scaler = torch.cuda.amp.GradScaler(enabled=(dtype == "float16"))

model = GPT(block_size=block_size).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
if compile:
    print("compiling the model... (takes a ~minute)")
    model = torch.compile(model)
if ddp:
    model = DDP(model, device_ids=[ddp_local_rank])

for it in range(100):
    x = torch.randint(0, 50304, (batch_size, block_size), device=device)
    t0 = time.time()
    with ctx:
        loss = model(x, x)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    print(f"iter {it}: loss {loss.item():.4f}, {(time.time() - t0) * 1000:.1f} ms")
if ddp:
    destroy_process_group()
