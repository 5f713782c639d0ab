import lightning as L
import torch
import torch.nn.functional as F
import torchvision
from lightning.pytorch.cli import LightningCLI


class Classifier(L.LightningModule):
    def __init__(self, lr: float = 1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = torchvision.models.resnet18(num_classes=10)

    def training_step(self, batch, _):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)


class Data(L.LightningDataModule):
    def __init__(self, batch_size: int = 64):
        super().__init__()
        self.batch_size = batch_size

    def train_dataloader(self):
        ds = torchvision.datasets.CIFAR10(".", download=True, transform=torchvision.transforms.ToTensor())
        return torch.utils.data.DataLoader(ds, batch_size=self.batch_size, num_workers=4)


if __name__ == "__main__":
    LightningCLI(Classifier, Data)
