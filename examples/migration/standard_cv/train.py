"""ResNet-50 on ImageNet-style folders: a standard CV training script."""
import os

import torch
import torchvision
from torch.cuda.amp import GradScaler, autocast

os.environ["CUDA_VISIBLE_DEVICES"] = "0"
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # "cuda" in a comment
torch.backends.cudnn.benchmark = True

model = torchvision.models.resnet50().cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = GradScaler()
data = torchvision.datasets.FakeData(transform=torchvision.transforms.ToTensor())
loader = torch.utils.data.DataLoader(data, batch_size=32)

for images, labels in loader:
    images, labels = images.to(device), labels.cuda(non_blocking=True)
    with autocast():
        loss = torch.nn.functional.cross_entropy(model(images), labels)
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
torch.cuda.synchronize()
