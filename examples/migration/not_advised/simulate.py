"""A quantum circuit simulation with GPU data loading."""
import cuquantum
from cuquantum import custatevec
from nvidia.dali import pipeline_def

import torch

state = torch.zeros(2**20, dtype=torch.complex64, device="cuda")
