import torch
import torchvision

model = torchvision.models.resnet50(weights=None).eval()
torch.jit.trace(model, torch.rand(1, 3, 224, 224)).save("resnet50.pt")
