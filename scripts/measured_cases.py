#!/usr/bin/env python3
"""Turns the GPU measurements of docs/measurements/*.json (written by scripts/measure_gpu.py)
into validation cases: presets/validation/measured_hopper_cases.json.

Each case sets what the measurement run states (device, precision, memory format, batch, the
software of its environment) and nothing fitted. Usage: measured_cases.py [--check]
(--check fails when the case file differs from what the measurements give).
"""
import argparse
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "presets", "validation", "measured_hopper_cases.json")
DEVICES = {"NVIDIA H100 80GB HBM3": "H100_SXM", "NVIDIA H200": "H200_SXM"}
NETS = {"alexnet": "alexnet_owt", "vgg16": "vgg16", "resnet18": "resnet18", "resnet50": "resnet50_v1_5",
        "resnet101": "resnet101_v1_5", "resnet152": "resnet152_v1_5", "inception_v3": "inception_v3",
        "mobilenet_v2": "mobilenet_v2"}
SCRIPT = "scripts/measure_gpu.py"
ERA = "pytorch_cudnn9_2025"


def source(run, what, env):
    return {
        "title": "Paleo's own measurements (" + SCRIPT + ")",
        "authors": "Paleo project",
        "year": int(run["date"][:4]),
        "url": "docs/measurements.md",
        "location": os.path.relpath(run["path"], ROOT) + ": " + what,
        "quote": f"{env['device']}, {env['sm_count']} SMs, PyTorch {env['torch']}, CUDA {env['cuda']}, "
                 f"cuDNN {env['cudnn']}; " + (env.get("nvidia_smi") or ""),
    }


def short(device_key):
    return device_key.replace("_SXM", "")


def case(case_id, category, family, src, request, compare, measured, as_reported, missing, notes):
    return {"id": case_id, "category": category, "family": family, "source": src, "request": request,
            "compare": compare, "measured": measured, "measured_as_reported": as_reported, "expressible": True,
            "missing_inputs": missing, "notes": notes}


def era_request(device, fmt, net, **extra):
    return dict({"command": "estimate", "precision": fmt, "device": device, "software_era": ERA}, **extra, net=net)


def kernel_request(device, fmt, net, **extra):
    """A kernel timed in a loop of back-to-back calls: the device time of its kernels, each launch
    overlapping the kernel before it (the request's "timing": "kernel")."""
    return era_request(device, fmt, net, timing="kernel", **extra)


def gemm_case(run, env, device, g):
    m, rows, k, fmt = g["m"], g["rows"], g["k"], g["precision"]
    net = {"name": f"GEMM M={m} N={rows} K={k} as one fully connected layer",
           "layers": {"data": {"parents": [], "type": "Input", "tensor": [rows, k]},
                      "gemm": {"parents": ["data"], "type": "InnerProduct", "num_outputs": m}}}
    return case(f"PM-GEMM-{short(device)}-{fmt}-{m}x{rows}x{k}", "kernel_gemm", "kernels",
                source(run, f"gemm precision={fmt} m={m} rows={rows} k={k}", env), kernel_request(device, fmt, net),
                "/totals/forward_ms", round(g["forward_ms"], 5),
                f"{g['forward_ms']:.4f} ms, {g['tflops']:.1f} TFLOP/s",
                ["operand alignment (the library's kernel choice)"],
                "F.linear of a [N, K] input and an [M, K] weight, no bias (2MNK FLOPs), timed with CUDA "
                "events: median of 5 repeats of 20 calls after 3 warm-up calls. Against the forward pass "
                "of one InnerProduct layer. tf32 is an fp32 GEMM with TF32 tensor cores allowed; fp32 with "
                "them disallowed.")


def conv_case(run, env, device, c):
    fmt, s = c["precision"], c["stride"]
    net = {"name": f"convolution N={c['n']} C={c['c']} H={c['h']} W={c['w']} K={c['k']} "
                   f"{c['r']}x{c['r']} stride {s} pad {c['pad']}",
           "layers": {"data": {"parents": [], "type": "Input", "tensor": [c["n"], c["h"], c["w"], c["c"]]},
                      "previous_layer": {"parents": ["data"], "type": "Generic"},
                      "conv": {"parents": ["previous_layer"], "type": "Convolution",
                               "filter": [c["r"], c["r"], c["c"], c["k"]], "strides": [1, s, s, 1],
                               "padding": "SAME", "activation_fn": None, "bias": False}}}
    return case(f"PM-CONV-{short(device)}-{fmt}-{c['name']}", "kernel_conv", "kernels",
                source(run, f"conv {c['name']} precision={fmt}", env),
                kernel_request(device, fmt, net, memory_format=c["memory_format"]),
                ["/totals/forward_ms", "/totals/backward_ms"], round(c["forward_backward_ms"], 5),
                f"forward + backward {c['forward_backward_ms']:.4f} ms (forward {c['forward_ms']:.4f} ms)",
                ["the algorithm cuDNN's autotuner picked"],
                "F.conv2d, then the gradients of input and weights (torch.autograd.grad), cudnn.benchmark on, "
                "median of 5 repeats of 10 calls. Against forward_ms + backward_ms of one convolution fed by "
                "a zero-cost Generic layer (so its data gradient is priced, as it was timed). SAME padding "
                "equals the stated pad at these sizes.")


def relu_case(run, env, device, e):
    n, c, h, w = e["shape"]
    fmt = e["precision"]
    net = {"name": f"ReLU of a {n}x{c}x{h}x{w} tensor",
           "layers": {"data": {"parents": [], "type": "Input", "tensor": [n, h, w, c]},
                      "previous_layer": {"parents": ["data"], "type": "Generic"},
                      "relu": {"parents": ["previous_layer"], "type": "ReLU"}}}
    return case(f"PM-RELU-{short(device)}-{fmt}-{n}x{c}x{h}x{w}", "kernel_elementwise", "kernels",
                source(run, f"eltwise relu {e['shape']} precision={fmt}", env), kernel_request(device, fmt, net),
                "/totals/forward_ms", round(e["forward_ms"], 5),
                f"{e['forward_ms']:.4f} ms, {e['gb_per_s']:.0f} GB/s read + written", [],
                "torch.relu (out of place), median of 5 repeats of 20 calls: one read and one write of the tensor.")


def cnn_cases(run, env, device, r):
    net, fmt = NETS[r["net"]], r["precision"]
    base = f"PM-{r['net']}-{short(device)}-{fmt}-b{r['batch']}"
    request = era_request(device, fmt, net, batch_size=r["batch"], memory_format=r["memory_format"])
    notes = (f"torchvision.models.{r['net']} (weights=None{', aux_logits=False' if r['net'] == 'inception_v3' else ''}) "
             f"against the preset '{net}', batch {r['batch']} of {r['image_size']}x{r['image_size']} images "
             "resident on the GPU, cross-entropy loss, SGD with momentum; "
             + ("autocast to " + fmt + " with channels-last tensors" if fmt in ("bf16", "fp16") else
                ("fp32 with TF32 tensor cores allowed (cuDNN and cuBLAS), NCHW" if fmt == "tf32" else
                 "fp32 with TF32 disallowed, NCHW"))
             + "; cudnn.benchmark on. Median of 3 repeats of 8 steps after warm-up.")
    src = source(run, f"cnn {r['net']} batch={r['batch']} precision={fmt}", env)
    missing = ["the algorithms cuDNN's autotuner picked"]
    step = case(base, "cnn_single_gpu_total", "cnn_single_gpu", src, request, "/totals/step_ms",
                round(r["step_ms"], 4), f"step {r['step_ms']:.3f} ms ({r['images_per_s']:.0f} images/s)", missing,
                "Compared value: one whole training step (zero_grad, forward, backward, optimizer step). " + notes)
    fwd = case(base + "-fwd", "cnn_single_gpu_forward", "cnn_single_gpu", src, request, "/totals/forward_ms",
               round(r["forward_ms"], 4), f"forward {r['forward_ms']:.3f} ms (training mode, with the loss)", missing,
               "Compared value: the forward pass in training mode, loss included. " + notes)
    return [step, fwd]


def build():
    cases = []
    for path in sorted(glob.glob(os.path.join(ROOT, "docs", "measurements", "*.json"))):
        doc = json.load(open(path))
        env = doc["environment"]
        device = DEVICES[env["device"]]
        run = {"path": path, "date": doc["date"]}
        if any("kernel_device_ms" in probe for probe in doc.get("launch", [])):
            # The runs of 2026-11-27 profiled their launch probes before their loops, and the
            # profiler's activity slowed the later launches: their loop timings are not cases. Their
            # sweep, by the kernels' own durations, set kernel-model parameters (docs/measurements.md).
            continue
        cases += [gemm_case(run, env, device, g) for g in doc.get("gemm", [])]
        cases += [conv_case(run, env, device, c) for c in doc.get("conv", [])]
        cases += [relu_case(run, env, device, e) for e in doc.get("eltwise", [])]
        for r in doc.get("cnn", []):
            cases += cnn_cases(run, env, device, r)
    return {"note": "Generated by scripts/measured_cases.py from docs/measurements/*.json (scripts/measure_gpu.py "
                    "runs, docs/measurements.md). Do not edit by hand.",
            "cases": cases}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = json.dumps(build(), indent=1) + "\n"
    if args.check:
        if not os.path.exists(OUT) or open(OUT).read() != text:
            sys.exit(f"{OUT} is out of date: run scripts/measured_cases.py")
        return
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {len(json.loads(text)['cases'])} cases to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
