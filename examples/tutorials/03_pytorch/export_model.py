"""Step 1 of tutorial 3: a PyTorch model exported to ONNX, as the seed's section 2 does.

The model is torchvision's resnet18 (random weights, seeded: nothing is downloaded) behind a
first layer that standardises raw 12-bit sensor images (values 0..4095) per image, a common
thing to fold into a deployed model. Writes:
  sensor_resnet18.onnx  input "image" [1,3,224,224] float32, output "logits" [1,1000]
  resnet18.onnx         plain resnet18 with a dynamic batch axis (input "input")
  image.npy, torch_logits.npy   one sample input and what PyTorch computes for it"""
import numpy as np
import torch
import torchvision


class Standardise(torch.nn.Module):
    """(x - mean) / std over each image, with the variance as E[x^2] - E[x]^2."""

    def forward(self, x):
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        mean_sq = (x * x).mean(dim=(1, 2, 3), keepdim=True)
        return (x - mean) / torch.sqrt(mean_sq - mean * mean + 1e-5)


torch.manual_seed(0)
backbone = torchvision.models.resnet18(weights=None).eval()
sensor_model = torch.nn.Sequential(Standardise(), backbone).eval()

rng = np.random.default_rng(0)
image = rng.integers(0, 4096, size=(1, 3, 224, 224)).astype(np.float32)
with torch.no_grad():
    logits = sensor_model(torch.from_numpy(image)).numpy()
np.save("image.npy", image)
np.save("torch_logits.npy", logits)

torch.onnx.export(sensor_model, torch.from_numpy(image), "sensor_resnet18.onnx",
                  input_names=["image"], output_names=["logits"], opset_version=11)
torch.onnx.export(backbone, torch.zeros(1, 3, 224, 224), "resnet18.onnx",
                  input_names=["input"], output_names=["output"], opset_version=11,
                  dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}})
torch.save(backbone.state_dict(), "resnet18_weights.pt")
print("exported sensor_resnet18.onnx and resnet18.onnx; PyTorch's top class:",
      int(logits.argmax()))
