import torch
import torchvision
import fused_gelu

model = torchvision.models.vit_b_16().cuda()
x = torch.randn(8, 3, 224, 224, device="cuda")
loss = fused_gelu.forward(model(x)).sum()
loss.backward()
torch.optim.AdamW(model.parameters()).step()
