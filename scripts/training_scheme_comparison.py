#!/usr/bin/env python3
"""Writes the comparison table of docs/training-schemes.md from the model: ResNet-50 on 64 workers
(V100 16 GB, one per node) over 10 Gb/s Ethernet, ring all-reduce where one is used, each training
scheme without jitter, with lognormal jitter (CV 0.2) and with a 20 % straggler (one worker
persistently 20 % slower), every figure from `paleo api`.
Usage: scripts/training_scheme_comparison.py [--check] [--paleo PATH]
  (default PATH build/native/paleo; --check fails when the document's table differs)"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "training-schemes.md")
BEGIN = "<!-- comparison table: scripts/training_scheme_comparison.py writes what follows -->"
END = "<!-- end of comparison table -->"

BASE = {"command": "estimate", "net": "resnet50_v1_5", "device": "V100_SXM2_16GB", "profile": "paleo2026",
        "batch_size": 32, "collective": "ring",
        "cluster": "v100_1gpu_10gbe", "nodes": 64}

SCHEMES = [
    ("synchronous, ring all-reduce (K1, C3)", {}),
    ("stale-synchronous, s = 4 (K3)", {"consistency": "ssp", "staleness": 4}),
    ("asynchronous, one parameter server (K2, C8)", {"consistency": "async"}),
    ("asynchronous, 8 sharded servers (K2, K7)", {"consistency": "async", "server_layout": "sharded", "servers": 8}),
    ("top-1 % sparsified, sparse all-reduce (Q9, C12)", {"compression": "topk:0.01"}),
    ("fp16 gradients (Q1)", {"compression": "fp16"}),
    ("local SGD, average every 8 steps (K11)", {"averaging": "local_sgd", "averaging_every": 8}),
]
STRAGGLER = {"slow_worker": 0.2}
JITTER = {"jitter": "lognormal:0.2"}


def answer(paleo, scheme):
    request = dict(BASE)
    request["training_scheme"] = scheme
    out = subprocess.run([paleo, "api"], input=json.dumps(request), capture_output=True, text=True, check=False)
    response = json.loads(out.stdout)
    if not response.get("ok"):
        sys.exit("paleo failed on %s: %s" % (json.dumps(scheme), response.get("error")))
    return response["training_scheme"]


def table(paleo):
    rows = ["| scheme | what carries it | step (ms) | samples/s | MB sent per worker per step | expected staleness "
            "| step with lognormal jitter, CV 0.2 (ms) | step with a 20 % straggler (ms) | samples/s with it |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, scheme in SCHEMES:
        even = answer(paleo, scheme)
        jittered = answer(paleo, dict(scheme, **JITTER))
        slow = answer(paleo, dict(scheme, **STRAGGLER))
        rows.append("| %s | %s | %.1f | %.0f | %.1f | %g | %.1f | %.1f | %.0f |" % (
            name, even["exchange"], even["step_ms"], even["throughput_samples_per_s"],
            even["wire_bytes_per_step"] / 1e6, even["staleness_expected"], jittered["step_ms"], slow["step_ms"],
            slow["throughput_samples_per_s"]))
    return "\n".join(rows) + "\n"


def main():
    args = sys.argv[1:]
    check = "--check" in args
    paleo = os.path.join(ROOT, "build", "native", "paleo")
    if "--paleo" in args:
        paleo = args[args.index("--paleo") + 1]
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    start, stop = doc.find(BEGIN), doc.find(END)
    if start < 0 or stop < start:
        sys.exit("%s lacks the table's markers" % DOC)
    fresh = doc[:start + len(BEGIN)] + "\n" + table(paleo) + doc[stop:]
    if check:
        if fresh != doc:
            sys.exit("docs/training-schemes.md is stale: run scripts/training_scheme_comparison.py")
        print("docs/training-schemes.md: the comparison table matches the model")
        return
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(fresh)


if __name__ == "__main__":
    main()
