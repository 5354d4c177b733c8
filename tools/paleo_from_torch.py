#!/usr/bin/env python3
"""Writes a Paleo network spec (docs/spec-format.md) for a PyTorch nn.Module: the module is traced
with torch.fx, its shapes come from torch.fx's ShapeProp on one example input, and each traced
operation becomes a Paleo layer (docs/import.md, "PyTorch"). NCHW images become Paleo's NHWC.

Usage:
  python3 tools/paleo_from_torch.py torchvision.models:resnet50 [--input 1,3,224,224] [--out spec.json]
  (MODULE:CALLABLE builds the nn.Module with no arguments; random weights, nothing downloaded)

From Python: spec_from_module(module, example_input, name) returns the spec as a dict.
Needs PyTorch (Debian: python3-torch; torchvision models: python3-torchvision).
"""
import argparse
import dis
import importlib
import inspect
import json
import operator
import sys

import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F
from torch.fx.passes.shape_prop import ShapeProp


def broadcasts_to(shape, out):
    """Whether `shape` stretches to `out` as Paleo's Elementwise broadcasts: one rank, one batch,
    each other dimension equal or 1."""
    shape, out = list(shape), list(out)
    return (len(shape) == len(out) and bool(shape) and shape[0] == out[0]
            and all(s == o or s == 1 for s, o in zip(shape[1:], out[1:])))


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


class _Mapper:
    """Walks the traced graph in order, keeping each value's Paleo layer and torch shape."""

    def __init__(self, gm, name):
        self.gm = gm
        self.modules = dict(gm.named_modules())
        self.layers = {}
        self.values = {}  # fx node -> (paleo layer, torch shape, is NCHW image)
        self.unmapped = {}
        self.loose_params = {}  # parameters used outside a module: name -> values
        self.attention_outputs = set()  # MultiheadAttention nodes: (output, weights) tuples
        self.warnings = []
        self.name = name

    # ---- shapes ----
    @staticmethod
    def shape_of(node):
        meta = node.meta.get("tensor_meta")
        return list(meta.shape) if meta is not None and hasattr(meta, "shape") else None

    @staticmethod
    def paleo_shape(shape, image):
        if image:
            n, c, h, w = shape
            return [n, h, w, c]
        return list(shape)

    def emit(self, node, params, parents, image):
        shape = self.shape_of(node)
        name = node.name
        params = dict(params)
        params["parents"] = [self.values[p][0] for p in parents]
        self.layers[name] = params
        self.values[node] = (name, shape, image)

    def alias(self, node, source):
        self.values[node] = self.values[source]

    def tensor_args(self, node):
        """The node's activation arguments, those in a list (torch.cat's) included."""
        flat = [b for a in node.args for b in (a if isinstance(a, (list, tuple)) else [a])]
        return [a for a in flat if isinstance(a, torch.fx.Node) and a in self.values]

    def generic(self, node, what):
        self.unmapped[what] = self.unmapped.get(what, 0) + 1
        parents = self.tensor_args(node) or [v for v in node.kwargs.values()
                                             if isinstance(v, torch.fx.Node) and v in self.values]
        if not parents:
            return
        shape = self.shape_of(node)
        image = shape is not None and len(shape) == 4 and self.values[parents[0]][2]
        params = {"type": "Generic"}
        if shape is not None:
            params["output_shape"] = self.paleo_shape(shape, image)
        self.emit(node, params, parents[:1], image)

    def reshape(self, node, source):
        shape = self.shape_of(node)
        _, src_shape, src_image = self.values[source]
        if not src_image and shape == src_shape:
            return self.alias(node, source)
        self.emit(node, {"type": "Reshape", "output_shape": list(shape)}, [source], False)

    # ---- layers ----
    def padding(self, node, x_shape, kernel, stride, pad):
        """Paleo's SAME/VALID for torch's symmetric padding, with a warning when sizes differ."""
        out = self.shape_of(node)
        choice = "SAME" if any(pad) else "VALID"
        for i in range(2):
            size = x_shape[2 + i]
            want = -(-size // stride[i]) if choice == "SAME" else (size - kernel[i] + stride[i]) // stride[i]
            if out[2 + i] != want:
                self.warnings.append(f"layer '{node.name}': torch's padding gives {out[2]}x{out[3]}, "
                                     f"which Paleo's {choice} padding does not; sizes differ")
                break
        return choice

    def conv(self, node, m):
        x = node.args[0]
        x_shape = self.values[x][1]
        kh, kw = _pair(m.kernel_size)
        stride = _pair(m.stride)
        if isinstance(m.padding, str):
            pad = (0, 0) if m.padding == "valid" else (1, 1)
        else:
            pad = _pair(m.padding)
        if _pair(m.dilation) != (1, 1):
            self.warnings.append(f"layer '{node.name}': dilation is priced as an undilated convolution")
        params = {"type": "Convolution", "filter": [kh, kw, m.in_channels, m.out_channels],
                  "strides": [1, stride[0], stride[1], 1], "padding": self.padding(node, x_shape, (kh, kw), stride, pad),
                  "activation_fn": None, "bias": m.bias is not None}
        if m.groups != 1:
            params["group"] = m.groups
        self.emit(node, params, [x], True)

    def pool(self, node, x, kernel, stride, pad, kind):
        x_shape = self.values[x][1]
        kernel, stride, pad = _pair(kernel), _pair(stride if stride else kernel), _pair(pad)
        self.emit(node, {"type": kind, "ksize": [1, kernel[0], kernel[1], 1], "strides": [1, stride[0], stride[1], 1],
                         "padding": self.padding(node, x_shape, kernel, stride, pad)}, [x], True)

    def global_pool(self, node, x, kind):
        _, x_shape, _ = self.values[x]
        out = self.shape_of(node)
        if out[2:] != [1, 1]:
            return self.generic(node, "adaptive pooling to " + "x".join(map(str, out[2:])))
        self.emit(node, {"type": kind, "ksize": [1, x_shape[2], x_shape[3], 1], "strides": [1, 1, 1, 1],
                         "padding": "VALID"}, [x], True)

    def linear(self, node, x, out_features):
        params = {"type": "InnerProduct", "num_outputs": out_features}
        if len(self.values[x][1]) > 2:
            params["axis"] = -1
        self.emit(node, params, [x], False)

    def same_kind(self, node, kind, x):
        self.emit(node, {"type": kind}, [x], self.values[x][2])

    def call_module(self, node):
        m = self.modules[node.target]
        x = node.args[0] if node.args and isinstance(node.args[0], torch.fx.Node) else None
        if isinstance(m, nn.Conv2d):
            return self.conv(node, m)
        if isinstance(m, (nn.BatchNorm2d, nn.BatchNorm1d)):
            return self.same_kind(node, "BatchNorm", x)
        if isinstance(m, (nn.LayerNorm, nn.GroupNorm)):
            return self.same_kind(node, "LayerNorm", x)
        if isinstance(m, nn.ReLU6) or (isinstance(m, nn.Hardtanh) and m.min_val == 0 and m.max_val == 6):
            return self.same_kind(node, "ReLU6", x)
        if isinstance(m, (nn.ReLU, nn.LeakyReLU)):
            return self.same_kind(node, "ReLU", x)
        if isinstance(m, (nn.Sigmoid, nn.Tanh, nn.Hardsigmoid, nn.SiLU, nn.Hardswish)):
            return self.same_kind(node, "Sigmoid", x)
        if isinstance(m, nn.GELU):
            return self.same_kind(node, "GELU", x)
        if isinstance(m, nn.MaxPool2d):
            return self.pool(node, x, m.kernel_size, m.stride, m.padding, "Pooling")
        if isinstance(m, nn.AvgPool2d):
            return self.pool(node, x, m.kernel_size, m.stride, m.padding, "AvgPool")
        if isinstance(m, nn.AdaptiveAvgPool2d):
            return self.global_pool(node, x, "AvgPool")
        if isinstance(m, nn.AdaptiveMaxPool2d):
            return self.global_pool(node, x, "Pooling")
        if isinstance(m, nn.Linear):
            return self.linear(node, x, m.out_features)
        if isinstance(m, nn.Dropout):
            return self.same_kind(node, "Dropout", x) if m.p > 0 else self.alias(node, x)
        if isinstance(m, nn.Identity):
            return self.alias(node, x)
        if isinstance(m, nn.Flatten):
            return self.reshape(node, x)
        if isinstance(m, nn.Softmax):
            return self.softmax(node, x)
        if isinstance(m, nn.MultiheadAttention):
            return self.attention(node, m)
        self.unmapped_weights(node, m)
        return self.generic(node, type(m).__name__)

    def attention(self, node, m):
        """nn.MultiheadAttention as the ONNX import lays out its exported graph: the Q/K/V projection
        (one InnerProduct of 3E outputs), the heads' Q K^T and weighted sum of V (MatMul layers of
        [N, heads, T, d] x [N, heads, d, T] and [N, heads, T, T] x [N, heads, T, d], with free
        Generic layers that split the heads), Softmax over the keys and the output projection."""
        names = ("query", "key", "value")
        args = list(node.args) + [node.kwargs.get(k) for k in names[len(node.args):]]
        query, key, value = args[:3]
        shape = self.values[query][1] if query in self.values else None
        if shape is None or len(shape) != 3:  # not [N, T, E] or [T, N, E]
            self.unmapped_weights(node, m)
            return self.generic(node, "MultiheadAttention")
        if key is not query or value is not query:
            self.warnings.append(f"layer '{node.name}': MultiheadAttention whose key or value is not its query "
                                 "is priced as self-attention on the query")
        if m.bias_k is not None or m.add_zero_attn or not m._qkv_same_embed_dim:
            self.warnings.append(f"layer '{node.name}': MultiheadAttention's bias_k / bias_v, add_zero_attn and "
                                 "separate key / value sizes are priced as plain self-attention")
        n, t = (shape[0], shape[1]) if m.batch_first else (shape[1], shape[0])
        e, heads = m.embed_dim, m.num_heads
        d = e // heads
        base = node.name

        def layer(suffix, params, parents):
            name = f"{base}_{suffix}"
            params = dict(params)
            params["parents"] = parents
            self.layers[name] = params
            return name

        # Paleo's batch is the first dimension. Batch first, [N, T, E]: the heads' [N, heads, T, d].
        # Sequence first, [T, N, E]: each position's query is a row of its own, [T, N x heads, 1, d],
        # against all T keys, [T, N x heads, d, T]: the same products, FLOPs and parameters.
        if m.batch_first:
            q_shape, k_shape, v_shape = [n, heads, t, d], [n, heads, d, t], [n, heads, t, d]
        else:
            q_shape, k_shape, v_shape = [t, n * heads, 1, d], [t, n * heads, d, t], [t, n * heads, t, d]
        qkv = layer("in_proj", {"type": "InnerProduct", "num_outputs": 3 * e, "axis": -1,
                                "bias": m.in_proj_bias is not None}, [self.values[query][0]])
        q = layer("q", {"type": "Generic", "output_shape": q_shape}, [qkv])
        k_t = layer("k_t", {"type": "Generic", "output_shape": k_shape}, [qkv])
        v = layer("v", {"type": "Generic", "output_shape": v_shape}, [qkv])
        scores = layer("scores", {"type": "MatMul"}, [q, k_t])
        weights = layer("softmax", {"type": "Softmax", "axis": -1}, [scores])
        context = layer("context", {"type": "MatMul"}, [weights, v])
        merged = layer("merge_heads", {"type": "Reshape", "output_shape": list(shape)}, [context])
        out = layer("out_proj", {"type": "InnerProduct", "num_outputs": e, "axis": -1,
                                 "bias": m.out_proj.bias is not None}, [merged])
        self.values[node] = (out, list(shape), False)
        self.attention_outputs.add(node)

    def unmapped_weights(self, node, m):
        """A warning of its own for an unmapped module with weights: the estimate misses its compute
        and its parameters, not just a free reshape."""
        params = sum(p.numel() for p in m.parameters())
        if not params:
            return
        self.warnings.append(f"layer '{node.name}': {type(m).__name__} is not mapped: a free Generic layer, without "
                             f"its compute or its {params} parameters")

    def softmax(self, node, x):
        params = {"type": "Softmax"}
        if len(self.values[x][1]) > 2:
            params["axis"] = -1
        self.emit(node, params, [x], False)

    def elementwise(self, node, product=False):
        tensors = self.tensor_args(node)
        out = self.shape_of(node)
        same = [t for t in tensors if self.values[t][1] == out]
        if not same:
            return self.generic(node, str(node.target))
        image = self.values[same[0]][2]
        # An activation broadcast over the others (a squeeze-and-excitation's [N, C, 1, 1] scale):
        # a parent too, as Paleo's Elementwise broadcasts a dimension of 1 past the batch.
        same += [t for t in tensors if t not in same and self.values[t][2] == image and broadcasts_to(self.values[t][1], out)]
        params = {"type": "Elementwise"}
        if product and len(same) > 1:
            params["operation"] = "product"
        self.emit(node, params, same, image)

    def concat(self, node):
        inputs = [t for t in node.args[0] if t in self.values]
        dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
        _, shape, image = self.values[inputs[0]]
        if len(inputs) < len(node.args[0]):  # with a learned tensor (ViT's class token)
            return self.emit(node, {"type": "Generic", "output_shape": self.paleo_shape(self.shape_of(node), image)},
                             inputs[:1], image)
        dim = dim % len(shape)
        paleo_dim = [0, 3, 1, 2][dim] if image else dim
        self.emit(node, {"type": "Concatenate", "dim": paleo_dim}, inputs, image)

    def call_function(self, node):
        f = node.target
        tensors = self.tensor_args(node)
        if not tensors:
            return
        x = tensors[0]
        if f in (operator.add, torch.add, operator.mul, torch.mul, operator.sub, torch.sub):
            return self.elementwise(node, f in (operator.mul, torch.mul))
        if f in (torch.flatten, torch.reshape):
            return self.reshape(node, x)
        if f in (torch.cat, torch.concat):
            return self.concat(node)
        if f in (F.relu, torch.relu):
            return self.same_kind(node, "ReLU", x)
        if f is F.relu6 or (f is F.hardtanh and node.args[1:3] == (0.0, 6.0)):
            return self.same_kind(node, "ReLU6", x)
        if f in (torch.sigmoid, torch.tanh, F.silu, F.hardswish, F.hardsigmoid):
            return self.same_kind(node, "Sigmoid", x)
        if f is F.gelu:
            return self.same_kind(node, "GELU", x)
        if f is F.adaptive_avg_pool2d:
            return self.global_pool(node, x, "AvgPool")
        if f in (F.dropout,):
            return self.alias(node, x)
        if f in (torch.matmul, torch.bmm, operator.matmul) and len(tensors) == 2:
            return self.emit(node, {"type": "MatMul"}, tensors, False)
        if f in (F.softmax, torch.softmax):
            return self.softmax(node, x)
        if f is operator.getitem and node.args[0] in self.attention_outputs:
            if node.args[1] == 0:
                self.alias(node, node.args[0])
            return  # [1]: attention weights, None with need_weights=False
        if self.shape_of(node) is None:
            return  # a size, an int of a size
        if f is operator.getitem:  # x[:, 0] (ViT's class token): selects, free
            image = len(self.shape_of(node)) == 4 and self.values[x][2]
            return self.emit(node, {"type": "Generic", "output_shape": self.paleo_shape(self.shape_of(node), image)},
                             [x], image)
        return self.generic(node, getattr(f, "__name__", str(f)))

    def call_method(self, node):
        tensors = self.tensor_args(node)
        if not tensors or self.shape_of(node) is None:
            return  # size(), dim(): numbers, no layer
        x = tensors[0]
        method = node.target
        if method in ("view", "reshape", "flatten", "permute", "transpose", "contiguous", "squeeze", "unsqueeze"):
            return self.reshape(node, x)
        if method in ("relu", "relu_"):
            return self.same_kind(node, "ReLU", x)
        if method in ("add", "add_", "mul", "mul_"):
            return self.elementwise(node, method in ("mul", "mul_"))
        if method == "softmax":
            return self.softmax(node, x)
        return self.generic(node, "." + method)

    def learned_tensor(self, node):
        """A parameter used outside a module (ViT's class token, position embedding): noted, since
        no Paleo layer holds it."""
        value = self.gm
        for part in node.target.split("."):
            value = getattr(value, part)
        if isinstance(value, nn.Parameter):
            self.loose_params[node.target] = value.numel()

    def run(self):
        inputs = 0
        for node in self.gm.graph.nodes:
            if node.op == "placeholder":
                inputs += 1
                if inputs > 1:
                    raise ValueError("only modules with one tensor input are mapped")
                shape = self.shape_of(node)
                image = len(shape) == 4
                self.layers["data"] = {"parents": [], "type": "Input", "tensor": self.paleo_shape(shape, image)}
                self.values[node] = ("data", shape, image)
            elif node.op == "get_attr":
                self.learned_tensor(node)
            elif node.op == "call_module":
                self.call_module(node)
            elif node.op == "call_function":
                self.call_function(node)
            elif node.op == "call_method":
                self.call_method(node)
        if self.loose_params:
            listed = ", ".join(self.loose_params)
            count = sum(self.loose_params.values())
            self.warnings.append(f"parameters held in tensors outside a layer ({listed}: {count} values) are not "
                                 "counted: Paleo's layers have no place for them")
        if self.unmapped:
            listed = ", ".join(f"{k} x{v}" for k, v in sorted(self.unmapped.items()))
            self.warnings.append("operations without a Paleo layer, priced as free Generic layers: " + listed)
        return {"name": self.name, "layers": self.layers}


def _unpacking_iter(proxy):
    """Proxy.__iter__ for `a, b = x.shape` (torchvision's ViT): torch.fx unpacks a proxy when the
    caller's instruction is UNPACK_SEQUENCE, but some releases find that instruction by an index
    Python 3.11 changed; this finds it by its offset."""
    frame = inspect.currentframe()
    caller = frame.f_back if frame is not None else None
    if caller is not None:
        for inst in dis.get_instructions(caller.f_code):
            if inst.offset == caller.f_lasti and inst.opname == "UNPACK_SEQUENCE":
                return (proxy[i] for i in range(inst.argval))
    return proxy.tracer.iter(proxy)


def _trace(module):
    saved = torch.fx.Proxy.__iter__
    torch.fx.Proxy.__iter__ = _unpacking_iter
    try:
        return torch.fx.symbolic_trace(module)
    finally:
        torch.fx.Proxy.__iter__ = saved


def spec_from_module(module, example_input, name="torch"):
    """The Paleo spec (a dict) of `module` traced on `example_input`, and the mapping's warnings."""
    module = module.eval()
    gm = _trace(module)
    with torch.no_grad():
        ShapeProp(gm).propagate(example_input)
    mapper = _Mapper(gm, name)
    spec = mapper.run()
    return spec, mapper.warnings


def _build(target):
    module_name, _, attr = target.partition(":")
    if not attr:
        raise SystemExit("name the module as MODULE:CALLABLE, e.g. torchvision.models:resnet50")
    return getattr(importlib.import_module(module_name), attr)()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="MODULE:CALLABLE that builds the nn.Module, e.g. torchvision.models:resnet50")
    parser.add_argument("--input", default="1,3,224,224", help="the example input's shape (default 1,3,224,224)")
    parser.add_argument("--out", help="write the spec here (default: standard output)")
    args = parser.parse_args(argv)
    torch.manual_seed(0)
    shape = [int(d) for d in args.input.split(",")]
    spec, warnings = spec_from_module(_build(args.model), torch.randn(*shape), args.model.partition(":")[2])
    for w in warnings:
        print("paleo_from_torch: warning:", w, file=sys.stderr)
    text = json.dumps(spec, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
