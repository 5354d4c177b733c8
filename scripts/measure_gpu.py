#!/usr/bin/env python3
"""Measures kernel, layer and training-step times on the CUDA GPU at hand, for the validation suite.

What it times, each with CUDA events after warm-up (median of repeats):
  - GEMMs (F.linear: rows x K times K x M) in bf16, fp16, tf32 and fp32;
  - single convolution layers (forward, and backward data + weights) in bf16, channels-last;
  - memory-bound element-wise kernels (ReLU);
  - training steps of torchvision CNNs (forward, forward + backward, whole SGD step) with
    autocast bf16 + channels-last and with TF32, cuDNN autotuned (cudnn.benchmark);
  - training steps of GPT-style decoders (bf16 autocast, fused AdamW, PyTorch's fused attention).
Prints one JSON document (also written to --out): the environment (device, clocks, library
versions) and every measurement. scripts/measured_cases.py turns it into validation cases.

Optional parts: "profile", per-module forward times and the step's kernel times by kernel name;
"launch", the interval between back-to-back calls of an add, a GEMM and a ReLU on tiny operands
(the host's floor);
"sweep", GEMMs that probe tile, wave and alignment effects, each with the kernels it ran and their
device time (PyTorch's profiler, run after every loop of the run: put "sweep" last in --only).

Usage: measure_gpu.py [--out FILE] [--only gemm,conv,eltwise,cnn,gpt,profile,launch,sweep] [--smoke]
--smoke runs tiny shapes on the CPU, to check the script itself.
"""
import argparse
import json
import math
import statistics
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

ARGS = None
DEV = "cuda"


def sync():
    if DEV == "cuda":
        torch.cuda.synchronize()


def time_ms(fn, warmup=3, iters=10, repeats=5):
    """Median over repeats of the mean time of `iters` calls, in ms."""
    if ARGS.smoke:
        warmup, iters, repeats = 1, 1, 1
    for _ in range(warmup):
        fn()
    sync()
    samples = []
    for _ in range(repeats):
        if DEV == "cuda":
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(iters):
                fn()
            stop.record()
            stop.synchronize()
            samples.append(start.elapsed_time(stop) / iters)
        else:
            t0 = time.perf_counter()
            for _ in range(iters):
                fn()
            samples.append((time.perf_counter() - t0) * 1e3 / iters)
    return statistics.median(samples)


def set_tf32(on):
    torch.backends.cuda.matmul.allow_tf32 = on
    torch.backends.cudnn.allow_tf32 = on


DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32, "fp32": torch.float32}


def environment():
    env = {"torch": torch.__version__, "python": sys.version.split()[0]}
    if DEV == "cuda":
        p = torch.cuda.get_device_properties(0)
        env.update({"device": torch.cuda.get_device_name(0), "sm_count": p.multi_processor_count,
                    "memory_bytes": p.total_memory, "cuda": torch.version.cuda,
                    "cudnn": torch.backends.cudnn.version()})
        try:
            env["nvidia_smi"] = subprocess.run(
                ["nvidia-smi", "--query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit",
                 "--format=csv,noheader"], capture_output=True, text=True, timeout=20).stdout.strip()
        except Exception as e:  # noqa: BLE001 - the clocks are informative only
            env["nvidia_smi"] = repr(e)
    return env


def clocks_now():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw",
                               "--format=csv,noheader"], capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception as e:  # noqa: BLE001
        return repr(e)


GEMMS = {  # (M outputs, rows, K)
    "bf16": [(8192, 8192, 8192), (4096, 4096, 4096), (2048, 2048, 2048), (1024, 1024, 1024),
             (12288, 8192, 4096), (16384, 8192, 4096), (4096, 8192, 16384), (5124, 9124, 2560),
             (35, 8457, 2560), (1760, 128, 1760), (7680, 64, 2560), (3072, 16, 1024)],
    "fp16": [(8192, 8192, 8192), (4096, 4096, 4096), (5124, 9124, 2560), (1760, 128, 1760)],
    "tf32": [(8192, 8192, 8192), (4096, 4096, 4096), (2048, 2048, 2048), (5124, 9124, 2560)],
    "fp32": [(8192, 8192, 8192), (4096, 4096, 4096), (5124, 9124, 2560), (1760, 128, 1760)],
}


def time_linears(shapes_by_format, out, keep=False):
    """Times F.linear on each (M outputs, rows, K) shape of each format into `out`; with `keep`,
    returns the operands, (format, input, weight) per entry, else frees each after its timing."""
    kept = []
    for fmt, shapes in shapes_by_format.items():
        set_tf32(fmt == "tf32")
        for m, rows, k in shapes:
            if ARGS.smoke:
                m, rows, k = max(1, m // 64), max(1, rows // 64), max(1, k // 64)
            x = torch.randn(rows, k, device=DEV, dtype=DTYPES[fmt])
            w = torch.randn(m, k, device=DEV, dtype=DTYPES[fmt])
            ms = time_ms(lambda: F.linear(x, w), iters=20)
            out.append({"precision": fmt, "m": m, "rows": rows, "k": k, "forward_ms": ms,
                        "tflops": 2.0 * m * rows * k / ms / 1e9})
            if keep:
                kept.append((fmt, x, w))
            del x, w
    set_tf32(False)
    return kept


def measure_gemms(out):
    time_linears(GEMMS, out)


# Shapes that probe the library's tile and kernel choice: products too small in one dimension to
# fill the device with whole tiles, and output or inner dimensions off the 16-byte alignment.
SWEEP = {  # (M outputs, rows, K)
    "bf16": [(4096, r, 4096) for r in (16, 32, 64, 128, 256, 512, 1024, 2048)]
            + [(m, 8192, 2560) for m in (16, 32, 35, 64, 128, 256)]
            + [(n, n, 4096) for n in (1536, 2560, 3072, 3584, 5120, 6144)]
            + [(m, 8456, 2560) for m in (33, 34, 36, 40)] + [(35, 8456, 2560), (35, 2048, 2560), (35, 32768, 2560)]
            + [(4097, 4096, 4096), (4098, 4096, 4096), (4100, 4096, 4096), (4096, 4096, 4097), (4096, 4097, 4096),
               (1025, 8192, 2560), (1028, 8192, 2560), (1024, 8192, 2561)],
    "fp32": [(1760, r, 1760) for r in (16, 32, 64, 256, 512, 1024)]
            + [(4096, r, 4096) for r in (64, 128, 512)] + [(n, n, n) for n in (512, 1024, 2048)],
    "tf32": [(1760, 128, 1760), (4096, 128, 4096), (4096, 512, 4096)],
}


def kernel_profile(fn, calls=10):
    """The CUDA kernels `calls` calls launch, by name (the library's choice of tile and alignment),
    and their device time per call in ms (kernel durations alone, without the host's issue time)."""
    if DEV != "cuda":
        return [], None
    from torch.profiler import ProfilerActivity, profile
    try:
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(calls):
                fn()
            sync()
        kernels = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
        return sorted({e.name for e in kernels}), sum(e.time_range.elapsed_us() for e in kernels) / calls / 1e3
    except Exception as e:  # noqa: BLE001 - informative only
        return [repr(e)], None


def measure_sweep(out):
    # Every loop is timed before the profiler first runs: its activity slows later launches.
    operands = time_linears(SWEEP, out, keep=True)
    for entry, (fmt, x, w) in zip(out, operands):
        set_tf32(fmt == "tf32")
        entry["kernels"], entry["kernel_device_ms"] = kernel_profile(lambda: F.linear(x, w))
    set_tf32(False)


def measure_launch(out):
    """The interval between back-to-back calls of an operation with almost nothing to do: what the
    host (framework, library and driver) takes to issue it, the floor of any such call timed in a
    loop. An element-wise add, and the GEMM and ReLU of the kernel measurements on tiny operands."""
    x = torch.zeros(8, device=DEV)
    probes = [("add_ of 8 elements", lambda: x.add_(1))]
    for fmt in ("bf16", "fp32"):
        a = torch.randn(8, 8, device=DEV, dtype=DTYPES[fmt])
        probes.append((f"F.linear {fmt} 8x8x8", lambda a=a: F.linear(a, a)))
        probes.append((f"torch.relu {fmt} of 64 elements", lambda a=a: torch.relu(a)))
    for op, fn in probes:
        out.append({"op": op, "iters": 200, "interval_ms": time_ms(fn, iters=200)})


CONVS = [  # name, N, C, H, W, K, R, stride, pad, precision
    ("resnet50_conv1", 256, 3, 224, 224, 64, 7, 2, 3, "bf16"),
    ("resnet50_res2_1x1_reduce", 256, 256, 56, 56, 64, 1, 1, 0, "bf16"),
    ("resnet50_res2_3x3", 256, 64, 56, 56, 64, 3, 1, 1, "bf16"),
    ("resnet50_res2_1x1_expand", 256, 64, 56, 56, 256, 1, 1, 0, "bf16"),
    ("resnet50_res5_3x3", 256, 512, 7, 7, 512, 3, 1, 1, "bf16"),
    ("vgg16_conv2_2", 128, 128, 112, 112, 128, 3, 1, 1, "bf16"),
    ("vgg16_conv4_2", 128, 512, 28, 28, 512, 3, 1, 1, "bf16"),
    ("resnet50_res2_3x3", 256, 64, 56, 56, 64, 3, 1, 1, "tf32"),
    ("vgg16_conv4_2", 128, 512, 28, 28, 512, 3, 1, 1, "tf32"),
]


def measure_convs(out):
    torch.backends.cudnn.benchmark = True
    for name, n, c, h, w, k, r, stride, pad, fmt in CONVS:
        set_tf32(fmt == "tf32")
        if ARGS.smoke:
            n, h, w = 2, max(r, h // 16), max(r, w // 16)
        dtype = DTYPES[fmt]
        fmt_memory = torch.channels_last if fmt in ("bf16", "fp16") else torch.contiguous_format
        x = torch.randn(n, c, h, w, device=DEV, dtype=dtype).to(memory_format=fmt_memory).requires_grad_()
        wt = torch.randn(k, c, r, r, device=DEV, dtype=dtype).to(memory_format=fmt_memory).requires_grad_()
        y = F.conv2d(x, wt, stride=stride, padding=pad)
        gy = torch.randn_like(y)
        fwd = time_ms(lambda: F.conv2d(x, wt, stride=stride, padding=pad))

        def fwd_bwd():
            yy = F.conv2d(x, wt, stride=stride, padding=pad)
            torch.autograd.grad(yy, (x, wt), gy)
        total = time_ms(fwd_bwd)
        out.append({"name": name, "precision": fmt, "n": n, "c": c, "h": h, "w": w, "k": k, "r": r,
                    "stride": stride, "pad": pad, "memory_format": "nhwc" if fmt in ("bf16", "fp16") else "nchw",
                    "forward_ms": fwd, "forward_backward_ms": total})
        del x, wt, y, gy
    set_tf32(False)


ELTWISE = [("relu", (256, 64, 112, 112), "bf16"), ("relu", (256, 256, 56, 56), "fp32"),
           ("relu", (64, 64, 56, 56), "bf16")]


def measure_eltwise(out):
    for op, shape, fmt in ELTWISE:
        if ARGS.smoke:
            shape = (2,) + shape[1:2] + (8, 8)
        x = torch.randn(*shape, device=DEV, dtype=DTYPES[fmt])
        ms = time_ms(lambda: torch.relu(x), iters=20)
        nbytes = 2 * x.numel() * x.element_size()
        out.append({"op": op, "shape": list(shape), "precision": fmt, "forward_ms": ms,
                    "gb_per_s": nbytes / ms / 1e6})
        del x


CNNS = [  # torchvision name, batch, precision, image size
    ("resnet50", 256, "bf16", 224), ("resnet50", 256, "tf32", 224), ("resnet50", 128, "fp32", 224),
    ("resnet18", 256, "bf16", 224), ("resnet101", 256, "bf16", 224), ("resnet152", 128, "bf16", 224),
    ("vgg16", 128, "bf16", 224), ("vgg16", 128, "tf32", 224), ("alexnet", 256, "bf16", 224),
    ("inception_v3", 128, "bf16", 299), ("mobilenet_v2", 256, "bf16", 224),
]


def build_cnn(name):
    import torchvision
    kwargs = {"weights": None}
    if name == "inception_v3":
        kwargs.update(aux_logits=False, init_weights=False)
    return getattr(torchvision.models, name)(**kwargs)


def cnn_training(name, batch, fmt, size, weight_decay):
    """A torchvision net in training mode on synthetic data resident on the GPU: its forward
    (cross-entropy loss under autocast for bf16/fp16, channels-last) and forward + backward + SGD step."""
    amp = fmt in ("bf16", "fp16")
    fmt_memory = torch.channels_last if amp else torch.contiguous_format
    model = build_cnn(name).to(DEV).to(memory_format=fmt_memory).train()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=weight_decay)
    x = torch.randn(batch, 3, size, size, device=DEV).to(memory_format=fmt_memory)
    labels = torch.randint(0, 1000, (batch,), device=DEV)

    def forward():
        with torch.autocast(DEV, dtype=DTYPES[fmt] if amp else torch.bfloat16, enabled=amp):
            return F.cross_entropy(model(x), labels)

    def forward_backward():
        forward().backward()

    def step():
        opt.zero_grad(set_to_none=True)
        forward_backward()
        opt.step()
    return model, forward, forward_backward, step


def measure_cnns(out):
    torch.backends.cudnn.benchmark = True
    for name, batch, fmt, size in CNNS:
        set_tf32(fmt == "tf32")
        if ARGS.smoke:
            batch, size = 2, (75 if name == "inception_v3" else 64)
        amp = fmt in ("bf16", "fp16")
        model, forward, forward_backward, step = cnn_training(name, batch, fmt, size, weight_decay=1e-4)
        t_step = time_ms(step, warmup=5, iters=8, repeats=3)
        t_fb = time_ms(forward_backward, warmup=1, iters=8, repeats=3)
        with torch.no_grad():
            t_fwd_eval = time_ms(forward, warmup=1, iters=8, repeats=3)
        t_fwd = time_ms(forward, warmup=1, iters=8, repeats=3)
        out.append({"net": name, "batch": batch, "precision": fmt, "image_size": size,
                    "memory_format": "nhwc" if amp else "nchw", "forward_ms": t_fwd,
                    "forward_no_grad_ms": t_fwd_eval, "forward_backward_ms": t_fb, "step_ms": t_step,
                    "images_per_s": batch / t_step * 1e3, "clocks_after": clocks_now() if DEV == "cuda" else ""})
        del model, forward, forward_backward, step
        if DEV == "cuda":
            torch.cuda.empty_cache()
        print(json.dumps(out[-1]), file=sys.stderr, flush=True)
    set_tf32(False)


PROFILED = [("vgg16", 128, "bf16", 224), ("resnet50", 256, "bf16", 224), ("alexnet", 256, "bf16", 224),
            ("vgg16", 128, "tf32", 224)]


def measure_profiles(out):
    """Per-module forward times (CUDA events around each leaf module) and the step's kernel time
    by kernel name (torch.profiler), to see where a whole-net time goes."""
    from torch.profiler import ProfilerActivity, profile
    torch.backends.cudnn.benchmark = True
    for name, batch, fmt, size in PROFILED:
        set_tf32(fmt == "tf32")
        if ARGS.smoke:
            batch, size = 2, 64
        model, _, _, step = cnn_training(name, batch, fmt, size, weight_decay=0)
        for _ in range(1 if ARGS.smoke else 4):
            step()
        sync()
        events = []
        if DEV == "cuda":
            def pre(mod, inp):
                mod._paleo_start = torch.cuda.Event(enable_timing=True)
                mod._paleo_start.record()

            def post(mod, inp, outp):
                stop = torch.cuda.Event(enable_timing=True)
                stop.record()
                events.append((mod._paleo_name, type(mod).__name__, mod._paleo_start, stop))
            hooks = []
            for mname, mod in model.named_modules():
                if len(list(mod.children())) == 0:
                    mod._paleo_name = mname
                    hooks += [mod.register_forward_pre_hook(pre), mod.register_forward_hook(post)]
            for _ in range(3):
                events.clear()
                step()
                sync()
            per_module = [{"module": n, "type": t, "forward_ms": a.elapsed_time(b)} for n, t, a, b in events]
            for h in hooks:
                h.remove()
        else:
            per_module = []
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if DEV == "cuda" else [])
        with profile(activities=activities) as prof:
            for _ in range(2):
                step()
            sync()
        kernels = []
        for ev in prof.key_averages():
            t = getattr(ev, "self_device_time_total", None) or getattr(ev, "self_cuda_time_total", 0) or 0
            on_device = str(getattr(ev, "device_type", "")).endswith("CUDA")
            if t > 0 and on_device:
                kernels.append({"kernel": ev.key[:160], "count": ev.count // 2, "ms_per_step": t / 2 / 1e3})
        kernels.sort(key=lambda k: -k["ms_per_step"])
        out.append({"net": name, "batch": batch, "precision": fmt, "image_size": size,
                    "per_module_forward": per_module, "kernels": kernels[:60],
                    "kernel_ms_per_step": sum(k["ms_per_step"] for k in kernels)})
        del model, step
        if DEV == "cuda":
            torch.cuda.empty_cache()
        print(json.dumps({k: v for k, v in out[-1].items() if k not in ("per_module_forward", "kernels")}),
              file=sys.stderr, flush=True)
    set_tf32(False)


class Block(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(h), nn.LayerNorm(h)
        self.qkv, self.proj = nn.Linear(h, 3 * h), nn.Linear(h, h)
        self.fc1, self.fc2 = nn.Linear(h, 4 * h), nn.Linear(4 * h, h)

    def forward(self, x):
        b, s, h = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, s, 3, self.heads, h // self.heads).permute(2, 0, 3, 1, 4)
        if hasattr(F, "scaled_dot_product_attention"):
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:  # old PyTorch, smoke runs only
            att = (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
            att = att.masked_fill(torch.ones(s, s, dtype=torch.bool, device=x.device).triu(1), float("-inf"))
            a = att.softmax(-1) @ v
        x = x + self.proj(a.transpose(1, 2).reshape(b, s, h))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class Gpt(nn.Module):
    def __init__(self, layers, h, heads, vocab, seq):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, h), nn.Embedding(seq, h)
        self.blocks = nn.ModuleList(Block(h, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(h)

    def forward(self, ids):
        x = self.tok(ids) + self.pos.weight[: ids.shape[1]]
        for blk in self.blocks:
            x = blk(x)
        return F.linear(self.ln(x), self.tok.weight)  # tied output embedding


GPTS = [  # name, layers, hidden, heads, seq, micro batch
    ("gpt3_350m", 24, 1024, 16, 2048, 8), ("gpt3_1_3b", 24, 2048, 16, 2048, 4)]
VOCAB = 51200


def measure_gpts(out):
    set_tf32(False)
    for name, layers, h, heads, seq, mb in GPTS:
        if ARGS.smoke:
            layers, h, heads, seq, mb = 2, 64, 4, 32, 2
        model = Gpt(layers, h, heads, VOCAB if not ARGS.smoke else 512, seq).to(DEV)
        fused = {"fused": True} if DEV == "cuda" else {}
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, **fused)
        ids = torch.randint(0, VOCAB if not ARGS.smoke else 512, (mb, seq + 1), device=DEV)

        def step():
            opt.zero_grad(set_to_none=True)
            with torch.autocast(DEV, dtype=torch.bfloat16):
                logits = model(ids[:, :-1])
                loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))
            loss.backward()
            opt.step()
        ms = time_ms(step, warmup=3, iters=5, repeats=3)
        params = sum(p.numel() for p in model.parameters())
        vocab = VOCAB if not ARGS.smoke else 512
        # Megatron's count (Narayanan et al. 2021, eq. 3) without recomputation: 72 B s l h^2 (1 + s/6h + V/12lh)
        flops = 72.0 * mb * seq * layers * h * h * (1 + seq / (6.0 * h) + vocab / (12.0 * layers * h))
        out.append({"net": name, "layers": layers, "hidden": h, "heads": heads, "seq_len": seq,
                    "micro_batch": mb, "vocab": vocab, "parameters": params, "step_ms": ms,
                    "model_tflops": flops / ms / 1e9})
        del model, opt, ids
        if DEV == "cuda":
            torch.cuda.empty_cache()
        print(json.dumps(out[-1]), file=sys.stderr, flush=True)


def main():
    global ARGS, DEV
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out")
    ap.add_argument("--only", default="gemm,conv,eltwise,cnn,gpt")
    ap.add_argument("--smoke", action="store_true")
    ARGS = ap.parse_args()
    DEV = "cpu" if ARGS.smoke else "cuda"
    result = {"environment": environment()}
    parts = {"gemm": measure_gemms, "conv": measure_convs, "eltwise": measure_eltwise,
             "cnn": measure_cnns, "gpt": measure_gpts, "profile": measure_profiles,
             "launch": measure_launch, "sweep": measure_sweep}
    for part in ARGS.only.split(","):
        result[part] = []
        t0 = time.time()
        try:
            parts[part](result[part])
        except Exception as e:  # noqa: BLE001 - keep what was measured, say what failed
            result[part + "_error"] = repr(e)
        print(f"{part}: {time.time() - t0:.1f} s", file=sys.stderr, flush=True)
        if ARGS.out:
            with open(ARGS.out, "w") as f:
                json.dump(result, f, indent=1)
    result["clocks_at_end"] = clocks_now() if DEV == "cuda" else ""
    text = json.dumps(result, indent=1)
    if ARGS.out:
        with open(ARGS.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
