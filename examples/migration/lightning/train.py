import pytorch_lightning as pl
import torch
import torchvision


class Model(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = torchvision.models.resnet18()

    def training_step(self, batch, idx):
        x, y = batch
        return torch.nn.functional.cross_entropy(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())


trainer = pl.Trainer(accelerator="gpu", devices=4, strategy="ddp")
trainer.fit(Model())
