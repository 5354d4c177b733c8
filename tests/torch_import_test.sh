#!/usr/bin/env bash
# tools/paleo_from_torch.py on torchvision's ResNet-50, MobileNetV2 and ViT-B/16 (random weights):
# the ResNet-50 and MobileNetV2 specs must give the forward FLOPs of the hand-written presets
# resnet50_v1_5 and mobilenet_v2 within 0.5 %, and their parameter counts exactly; ViT-B/16 those
# of the ONNX import of the same model and of the hand count, and torchvision's parameters less the
# ones no Paleo layer holds; a small nn.MultiheadAttention, batch first and sequence first, the
# FLOPs and parameters counted by hand. Usage: torch_import_test.sh PALEO
# Exits 77 (ctest: skipped) with a message when no python3 with torch and torchvision is found.
set -euo pipefail
paleo="$1"
here="$(cd "$(dirname "$0")/.." && pwd)"
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import torch, torchvision' >/dev/null 2>&1; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  echo "skipped: no python3 with torch and torchvision (Debian: apt-get install python3-torch python3-torchvision)"
  exit 77
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
totals() {
  "$paleo" estimate "$1" --profile paleo2017 --batch_size 1 --use_only_gemm --format json > "$scratch/out.json"
  "$python" -c 'import json, sys; t = json.load(open(sys.argv[1]))["totals"]; print(t["forward_flops"], t["params"])' "$scratch/out.json"
}
status=0
for pair in resnet50:resnet50_v1_5 mobilenet_v2:mobilenet_v2; do
  model="${pair%%:*}"
  preset="${pair##*:}"
  "$python" "$here/tools/paleo_from_torch.py" "torchvision.models:$model" --out "$scratch/$model.json" 2> "$scratch/warnings.txt"
  read -r flops params <<< "$(totals "$scratch/$model.json")"
  read -r preset_flops preset_params <<< "$(totals "$preset")"
  if "$python" -c 'import sys; a, b = map(float, sys.argv[1:3]); sys.exit(0 if abs(a - b) <= 0.005 * b else 1)' "$flops" "$preset_flops" &&
     [ "$params" = "$preset_params" ]; then
    echo "ok: torchvision $model: $flops forward FLOPs, $params parameters; preset $preset: $preset_flops, $preset_params"
  else
    echo "FAILED: torchvision $model: $flops forward FLOPs, $params parameters; preset $preset: $preset_flops, $preset_params"
    cat "$scratch/warnings.txt"
    status=1
  fi
done
# ViT-B/16: its forward FLOPs must be the ONNX import's of the same torchvision model
# (tests/data/onnx/vit_b_16.graph.json) and the hand count tests/test_import_onnx.cpp checks,
# 35,127,656,448 at batch 1, within 0.5 %. Its parameters: torchvision's 86,567,656, less the class
# token and position embedding (768 + 197 x 768 = 152,064, which no Paleo layer holds; a warning
# says so) and the 25 LayerNorms' 25 x 2 x 768 = 38,400 (free in paleo2017): 86,377,192.
"$python" "$here/tools/paleo_from_torch.py" torchvision.models:vit_b_16 --out "$scratch/vit_b_16.json" 2> "$scratch/warnings.txt"
read -r flops params <<< "$(totals "$scratch/vit_b_16.json")"
read -r onnx_flops onnx_params <<< "$(totals "$here/tests/data/onnx/vit_b_16.graph.json" 2> /dev/null)"
module_params="$("$python" -c 'import torchvision; print(sum(p.numel() for p in torchvision.models.vit_b_16().parameters()))')"
hand_flops=35127656448
if "$python" -c 'import sys; a, b, c = map(float, sys.argv[1:4]); sys.exit(0 if abs(a - b) <= 0.005 * b and abs(a - c) <= 0.005 * c else 1)' "$flops" "$hand_flops" "$onnx_flops" &&
   [ "$module_params" = 86567656 ] && [ "${params%.0}" = $((86567656 - 152064 - 38400)) ] && [ "$params" = "$onnx_params" ] &&
   grep -q "152064 values) are not counted" "$scratch/warnings.txt"; then
  echo "ok: torchvision vit_b_16: $flops forward FLOPs, $params parameters ($module_params in torch); ONNX import: $onnx_flops, $onnx_params"
else
  echo "FAILED: torchvision vit_b_16: $flops forward FLOPs, $params parameters ($module_params in torch); ONNX import: $onnx_flops, $onnx_params; hand count $hand_flops"
  cat "$scratch/warnings.txt"
  status=1
fi
# nn.MultiheadAttention by hand, batch first ([1, 5, 16]) and sequence first ([5, 1, 16]): embedding
# 16, 2 heads of 8, T = 5. Parameters: in_proj 16 x 48 + 48, out_proj 16 x 16 + 16 = 1088. FLOPs:
# 2 x 5 x 16 x 48 (Q/K/V) + 2 x 2 x (2 x 5 x 5 x 8) (scores, weighted values) + 2 x 5 x 16 x 16 = 11840.
for batch_first in True False; do
  "$python" - "$here/tools" "$batch_first" "$scratch/attention.json" <<'PY'
import json
import sys
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[1])
import torch
import torch.nn as nn
from paleo_from_torch import spec_from_module


class Attention(nn.Module):
    def __init__(self, batch_first):
        super().__init__()
        self.attn = nn.MultiheadAttention(16, 2, batch_first=batch_first)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


batch_first = sys.argv[2] == "True"
spec, warnings = spec_from_module(Attention(batch_first), torch.randn(1, 5, 16) if batch_first else torch.randn(5, 1, 16))
if warnings:
    sys.exit("unexpected warnings: " + repr(warnings))
json.dump(spec, open(sys.argv[3], "w"))
PY
  "$paleo" estimate "$scratch/attention.json" --profile paleo2017 --use_only_gemm --format json > "$scratch/out.json"
  read -r flops params <<< "$("$python" -c 'import json, sys; t = json.load(open(sys.argv[1]))["totals"]; print(t["forward_flops"], t["params"])' "$scratch/out.json")"
  if [ "$flops" = 11840.0 ] && [ "$params" = 1088.0 ]; then
    echo "ok: nn.MultiheadAttention (batch_first=$batch_first): $flops forward FLOPs, $params parameters"
  else
    echo "FAILED: nn.MultiheadAttention (batch_first=$batch_first): $flops forward FLOPs, $params parameters; by hand 11840, 1088"
    status=1
  fi
done
# A squeeze-and-excitation (x * sigmoid(conv(relu(conv(mean(x)))))): the product takes the
# broadcast [1, 8, 1, 1] scale as its second parent.
"$python" - "$here/tools" "$scratch/se.json" <<'PY'
import json
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import torch
import torch.nn as nn
from paleo_from_torch import spec_from_module


class SqueezeExcitation(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.reduce = nn.Conv2d(8, 2, 1)
        self.expand = nn.Conv2d(2, 8, 1)

    def forward(self, x):
        return x * torch.sigmoid(self.expand(torch.relu(self.reduce(self.pool(x)))))


spec, warnings = spec_from_module(SqueezeExcitation(), torch.randn(1, 8, 4, 4))
json.dump(spec, open(sys.argv[2], "w"))
PY
"$paleo" layers "$scratch/se.json" --format json > "$scratch/se_out.json"
se=$("$python" -c '
import json, sys
layers = json.load(open(sys.argv[1]))["layers"]
product = [l for l in layers if l["type"] == "Elementwise"]
spec = json.load(open(sys.argv[2]))["layers"]
ops = [l.get("operation") for l in spec.values() if l["type"] == "Elementwise"]
print(len(product), product[0]["inputs"] if product else None, ops)' "$scratch/se_out.json" "$scratch/se.json")
if [ "$se" = "1 [[1, 4, 4, 8], [1, 1, 1, 8]] ['product']" ]; then
  echo "ok: squeeze-and-excitation: one Elementwise product of $se"
else
  echo "FAILED: squeeze-and-excitation: Elementwise layers, inputs and operations $se, expected 1 [[1, 4, 4, 8], [1, 1, 1, 8]] ['product']"
  status=1
fi
exit $status
