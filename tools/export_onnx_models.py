#!/usr/bin/env python3
"""Exports torchvision's ResNet-50, MobileNetV2 and ViT-B/16 to ONNX with random weights and
strips the weights (each initializer keeps its name, type and dims; only small integer tensors,
shape targets and axes, keep their values), for tests/data/onnx/.

Needs Debian's python3-torch, python3-torchvision and python3-onnx; no weights are downloaded.
Usage: python3 tools/export_onnx_models.py OUT_DIR
"""
import io
import os
import sys

import onnx
import torch
import torchvision

SMALL_TENSOR_VALUES = 64
MODELS = {
    "resnet50": lambda: torchvision.models.resnet50(weights=None),
    "mobilenet_v2": lambda: torchvision.models.mobilenet_v2(weights=None),
    "vit_b_16": lambda: torchvision.models.vit_b_16(weights=None),
}


def strip_weights(model):
    for t in model.graph.initializer:
        count = 1
        for d in t.dims:
            count *= d
        integer = t.data_type in (onnx.TensorProto.INT64, onnx.TensorProto.INT32)
        if integer and count <= SMALL_TENSOR_VALUES:
            continue
        t.ClearField("raw_data")
        t.ClearField("float_data")
        t.ClearField("int64_data")
        t.ClearField("int32_data")
        t.ClearField("double_data")


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "tests/data/onnx"
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(0)
    for name, build in MODELS.items():
        net = build().eval()
        buffer = io.BytesIO()
        torch.onnx.export(net, torch.randn(1, 3, 224, 224), buffer, opset_version=17,
                          input_names=["input"], output_names=["logits"])
        model = onnx.load_from_string(buffer.getvalue())
        strip_weights(model)
        path = os.path.join(out_dir, name + ".onnx")
        onnx.save(model, path)
        print(path, os.path.getsize(path), "bytes,", len(model.graph.node), "nodes")


if __name__ == "__main__":
    main()
