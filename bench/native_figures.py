#!/usr/bin/env python3
"""The native figures of docs/performance.md: the Google Benchmark cases of bench/paleo_bench.cpp
behind each figure (median of repeated runs, wall and CPU time) and the whole-process time of
`paleo simulate` on the README's Inception-v3 example (median over rounds of many runs).

usage: bench/native_figures.py [--build build/native] [--repetitions 9] [--rounds 7] [--runs 100]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (figure, benchmark name) in the order of the table.
FIGURES = [
    ("search Inception-v3, 64 devices (problem + search)", "BM_LayerwiseSearch/inception_v3/64"),
    ("search AlexNet, 16 devices (problem + search)", "BM_LayerwiseSearch/alex_v2/16"),
    ("search VGG-16, 16 devices (problem + search)", "BM_LayerwiseSearch/vgg16/16"),
    ("`search` request Inception-v3, 64 devices", "BM_SearchJsonApi/inception_v3/64"),
    ("`search` request AlexNet, 16 devices", "BM_SearchJsonApi/alex_v2/16"),
    ("`search` request VGG-16, 16 devices", "BM_SearchJsonApi/vgg16/16"),
    ("simulate, benchmark case (weak + strong), JSON API", "BM_SimulateJsonApi/inception_v3"),
    ("simulate, benchmark case (weak + strong), core", "BM_SimulateCore/inception_v3"),
    ("estimate Inception-v3 on V100", "BM_PlainEstimateV100/inception_v3"),
    ("cluster estimate Inception-v3, 16 DGX-1 nodes", "BM_ClusterEstimate/inception_v3/16"),
]

# The README's example (the original's simulate), run as a whole process.
CLI_ARGS = ["simulate", "presets/nets/inception_v3.json", "--batch_size=256", "--network_name=ethernet",
            "--device_name=K40", "--num_workers=1,2,4,8,16,50,100", "--ppp_comp=0.62", "--ppp_comm=0.72",
            "--scaling=weak", "--use_only_gemm", "--format", "csv"]


def run_benchmarks(bench, repetitions):
    names = "|".join("^" + name + "$" for _, name in FIGURES)
    out = subprocess.run([bench, "--benchmark_filter=" + names, "--benchmark_repetitions=%d" % repetitions,
                          "--benchmark_report_aggregates_only=true", "--benchmark_format=json"],
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    medians = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        scale = {"ms": 1.0, "us": 1e-3, "ns": 1e-6}[b["time_unit"]]
        medians[b["run_name"]] = (b["real_time"] * scale, b["cpu_time"] * scale)
    return medians


def time_cli(cli, rounds, runs):
    """Median over rounds of the mean wall and CPU (user + system) time of one process."""
    walls, cpus = [], []
    for _ in range(rounds):
        before = os.times()
        start = time.perf_counter()
        for _ in range(runs):
            subprocess.run([cli] + CLI_ARGS, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        walls.append((time.perf_counter() - start) / runs * 1e3)
        after = os.times()
        cpus.append((after.children_user + after.children_system - before.children_user -
                     before.children_system) / runs * 1e3)
    return statistics.median(walls), statistics.median(cpus)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "native"))
    parser.add_argument("--repetitions", type=int, default=9)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    medians = run_benchmarks(os.path.join(args.build, "paleo_bench"), args.repetitions)
    print("| figure | benchmark | wall ms | CPU ms |")
    print("|---|---|---|---|")
    for figure, name in FIGURES:
        if name not in medians:
            print("| %s | %s | missing | missing |" % (figure, name))
            continue
        wall, cpu = medians[name]
        print("| %s | `%s` | %.3g | %.3g |" % (figure, name, wall, cpu))
    wall, cpu = time_cli(os.path.join(args.build, "paleo"), args.rounds, args.runs)
    print("| `paleo simulate` of the README's Inception-v3 example, whole process | %d runs x %d rounds | %.3g | %.3g |"
          % (args.runs, args.rounds, wall, cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
