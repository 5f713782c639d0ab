import tensorrt as trt
import torch
from apex.optimizers import FusedAdam
from flash_attn import flash_attn_func
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("llama-7b", attn_implementation="flash_attention_2")
model = model.to("cuda:0")
opt = FusedAdam(model.parameters())
out = flash_attn_func(torch.randn(1, 8, 64, 64, device="cuda"), None, None)
out.sum().backward()
torch.onnx.export(model, (out,), "model.onnx")
