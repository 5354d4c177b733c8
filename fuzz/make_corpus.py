#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora (docs/testing.md) from what the repository already holds:
requests of the validation suite, the JSON examples of docs/, a request per command and preset
kind, the network presets and the Hugging Face configs of the tests.
Usage: fuzz/make_corpus.py OUT_DIR   (writes OUT_DIR/api and OUT_DIR/net_spec)"""
import glob
import hashlib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def doc_blocks():
    for path in sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        with open(path, encoding="utf-8") as f:
            for block in re.findall(r"```json\n(.*?)```", f.read(), re.S):
                try:
                    yield json.loads(block)
                except ValueError:
                    pass  # an excerpt with "..." in it


def requests():
    for path in sorted(glob.glob(os.path.join(ROOT, "presets", "validation", "*.json"))):
        for case in load(path).get("cases", []):
            if isinstance(case.get("request"), dict):
                yield case["request"]
    for block in doc_blocks():
        if isinstance(block, dict) and "command" in block:
            yield block
    # One request per command (tests/web/wasm_parity.test.mjs, tests/test_cli.cpp), small nets.
    yield {"command": "version"}
    yield {"command": "presets"}
    yield {"command": "summary", "net": "alex_v2"}
    yield {"command": "layers", "net": "nin", "device": "K40", "profile": "paleo2017", "software": "tensorflow"}
    yield {"command": "estimate", "net": "alex_v2", "device": "TITAN_X", "conv_algorithm": "auto"}
    yield {"command": "estimate", "net": "alex_v2_2gpu", "device": "K20X", "parallel": "model"}
    yield {"command": "simulate", "net": "alex_v2", "device": "K80", "interconnect": "ethernet20",
           "workers": [1, 2, 8, 64], "scaling": ["weak", "strong"]}
    yield {"command": "simulate", "net": "alex_v2", "parallel": "hybrid", "hybrid_workers": 4}
    yield {"command": "estimate", "net": "vgg16", "device": "V100_SXM2_16GB", "cluster": "dgx1_v100_edr",
           "nodes": 2, "batch_size": 32}
    yield {"command": "collective", "op": "allreduce", "algorithm": "ring", "workers": 64, "bytes": 1e9,
           "link": {"bandwidth_gbps": 100, "latency_us": 5}}
    yield {"command": "search", "net": "alex_v2", "devices": 4, "devices_per_node": 4, "batch_size": 32}
    yield {"command": "estimate", "net": "gpt3_125m", "device": "A100_80GB_SXM", "tp": 2, "micro_batch": 1,
           "global_batch": 8, "seq_len": 512}
    yield {"command": "plan", "net": "gpt3_125m", "device": "A100_80GB_SXM", "devices": 8,
           "devices_per_node": 8, "global_batch": 16, "seq_len": 512}
    yield {"command": "inference", "net": "llama2_7b", "device": "H100_SXM", "tp": 1, "batch_size": 1,
           "prompt_len": 128, "generate_len": 16}
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "hf", "*.json"))):
        yield {"command": "estimate", "net": load(path), "device": "H100_SXM", "global_batch": 8, "seq_len": 256}
    # Small CNN specs inline, as the page sends a pasted spec.
    for spec in net_specs():
        if len(json.dumps(spec)) < 4000:
            yield {"command": "layers", "net": spec, "device": "TITAN_X"}


def net_specs():
    for path in sorted(glob.glob(os.path.join(ROOT, "presets", "nets", "*.json"))):
        yield load(path)
    for block in doc_blocks():
        if isinstance(block, dict) and "layers" in block:
            yield block


def write(directory, documents):
    os.makedirs(directory, exist_ok=True)
    seen = set()
    for doc in documents:
        text = json.dumps(doc, separators=(",", ":")).encode()
        digest = hashlib.sha1(text).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        with open(os.path.join(directory, digest + ".json"), "wb") as f:
            f.write(text)
    return len(seen)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    print("api seeds: %d" % write(os.path.join(out, "api"), requests()))
    print("net_spec seeds: %d" % write(os.path.join(out, "net_spec"), net_specs()))


if __name__ == "__main__":
    main()
