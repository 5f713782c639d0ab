"""The six reference models: PyTorch -> ONNX -> atc -> .om -> AscendCL, against PyTorch."""
import os

import numpy as np
import pytest

from conftest import atc, export_model

MODELS = [
    ("resnet18", 11), ("resnet50", 11), ("mobilenet_v2", 11), ("efficientnet_b0", 11),
    ("vit_b_16", 11), ("bert_encoder", 11),
    # opset 13 changes Softmax's axis semantics and moves Squeeze/Unsqueeze/Split axes to
    # inputs; opset 17 brings LayerNormalization
    ("vit_b_16", 13), ("bert_encoder", 13), ("mobilenet_v2", 13),
    ("resnet18", 17), ("efficientnet_b0", 17), ("mobilenet_v2", 17), ("vit_b_16", 17),
    ("bert_encoder", 17),
]


def shape_flag(name, x):
    input_name = "input_ids" if name == "bert_encoder" else "input"
    return f"{input_name}:{','.join(map(str, x.shape))}"


@pytest.mark.parametrize("name,opset", MODELS, ids=[f"{n}-opset{o}" for n, o in MODELS])
def test_model_matches_pytorch(name, opset, acl_session, tmp_path):
    from acl_helpers import OmModel
    onnx_path, x, ref = export_model(name, opset)
    out = str(tmp_path / name)
    r = atc(f"--model={onnx_path}", "--framework=5", f"--output={out}",
            "--soc_version=Ascend910B3", f"--input_shape={shape_flag(name, x)}")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ATC run success, welcome to the next use." in r.stdout
    model = OmModel(out + ".om")
    try:
        y = model.run([x])[0]
    finally:
        model.close()
    assert y.shape == ref.shape
    rel = np.abs(y - ref).max() / np.abs(ref).max()
    assert np.abs(ref).max() > 0
    assert rel < 1e-4, f"max |diff| / max |ref| = {rel}"
