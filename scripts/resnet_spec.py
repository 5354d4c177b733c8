#!/usr/bin/env python3
"""Writes the layers of a ResNet v1.5 (He et al., CVPR 2016, Table 1; the stride of a downsampling
block in its 3x3 convolution, as torchvision and fb.resnet.torch) as a Paleo spec's "layers"
object, in the form of presets/nets/resnet50_v1_5.json: each residual block a Block ending at its
last batch norm, a 1x1 projection (with its batch norm) where the shape changes, the sum and the
ReLU after the block. With --v1, ResNet v1 as the paper and tf_cnn_benchmarks' "resnet50" and
"resnet152" build it: a downsampling bottleneck has its stride in the first 1x1 convolution.

Usage: scripts/resnet_spec.py DEPTH [BATCH] [--v1]   (DEPTH 18, 34, 50, 101 or 152; prints JSON)
       scripts/resnet_spec.py --check                 (the ResNet presets hold exactly these layers)
"""
import json
import sys
from pathlib import Path

STAGES = {18: ('basic', [2, 2, 2, 2]), 34: ('basic', [3, 4, 6, 3]), 50: ('bottleneck', [3, 4, 6, 3]),
          101: ('bottleneck', [3, 4, 23, 3]), 152: ('bottleneck', [3, 8, 36, 3])}


def conv(k, cin, cout, stride, parents):
    return {'parents': parents, 'type': 'Convolution', 'filter': [k, k, cin, cout],
            'strides': [1, stride, stride, 1], 'padding': 'SAME' if k > 1 else 'VALID',
            'activation_fn': None, 'bias': False}


def block(kind, cin, width, stride, v1=False):
    """The block's layers and its output channels."""
    inner = {}
    if kind == 'basic':
        plan = [(3, cin, width, stride), (3, width, width, 1)]
        cout = width
    elif v1:
        plan = [(1, cin, width, stride), (3, width, width, 1), (1, width, 4 * width, 1)]
        cout = 4 * width
    else:
        plan = [(1, cin, width, 1), (3, width, width, stride), (1, width, 4 * width, 1)]
        cout = 4 * width
    last = None
    for i, (k, a, b, s) in enumerate(plan, start=1):
        inner[f'conv{i}'] = conv(k, a, b, s, [last] if last else [])
        inner[f'bn{i}'] = {'parents': [f'conv{i}'], 'type': 'BatchNorm'}
        last = f'bn{i}'
        if i < len(plan):
            inner[f'relu{i}'] = {'parents': [f'bn{i}'], 'type': 'ReLU'}
            last = f'relu{i}'
    if stride != 1 or cin != cout:
        inner['downsample'] = conv(1, cin, cout, stride, [])
        inner['downsample_bn'] = {'parents': ['downsample'], 'type': 'BatchNorm'}
    return inner, cout, f'bn{len(plan)}'


def layers(depth, batch=256, v1=False):
    kind, counts = STAGES[depth]
    out = {'data': {'parents': [], 'type': 'Input', 'tensor': [batch, 224, 224, 3]},
           'conv1': conv(7, 3, 64, 2, ['data']),
           'bn1': {'parents': ['conv1'], 'type': 'BatchNorm'},
           'relu': {'parents': ['bn1'], 'type': 'ReLU'},
           'maxpool': {'parents': ['relu'], 'type': 'Pooling', 'ksize': [1, 3, 3, 1], 'strides': [1, 2, 2, 1],
                       'padding': 'SAME'}}
    out['conv1']['padding'] = 'SAME'
    previous, channels = 'maxpool', 64
    for stage, count in enumerate(counts, start=1):
        width = 64 * 2 ** (stage - 1)
        for b in range(count):
            name = f'layer{stage}_{b}'
            stride = 2 if stage > 1 and b == 0 else 1
            inner, cout, endpoint = block(kind, channels, width, stride, v1)
            out[name] = {'type': 'Block', 'parents': [previous], 'endpoint': endpoint, 'layers': inner}
            shortcut = f'{name}/downsample_bn' if 'downsample' in inner else previous
            out[f'{name}_add'] = {'parents': [name, shortcut], 'type': 'Elementwise'}
            out[f'{name}_relu'] = {'parents': [f'{name}_add'], 'type': 'ReLU'}
            previous, channels = f'{name}_relu', cout
    out['avgpool'] = {'parents': [previous], 'type': 'AvgPool', 'ksize': [1, 7, 7, 1], 'strides': [1, 1, 1, 1],
                      'padding': 'VALID'}
    out['fc'] = {'parents': ['avgpool'], 'type': 'InnerProduct', 'num_outputs': 1000}
    out['softmax'] = {'parents': ['fc'], 'type': 'Softmax'}
    return out


PRESETS = {(18, False): 'resnet18', (34, False): 'resnet34', (50, False): 'resnet50_v1_5',
           (101, False): 'resnet101_v1_5', (152, False): 'resnet152_v1_5', (50, True): 'resnet50_v1',
           (152, True): 'resnet152_v1'}


def check():
    """Exit status 1 when a ResNet preset's layers differ from what this script writes."""
    root = Path(__file__).resolve().parent.parent
    bad = 0
    for (depth, v1), key in PRESETS.items():
        preset = json.loads((root / 'presets' / 'nets' / f'{key}.json').read_text())['layers']
        same = preset == layers(depth, preset['data']['tensor'][0], v1)
        print(f"{key}: {'the same layers' if same else 'DIFFERENT layers'}")
        bad += not same
    return 1 if bad else 0


if __name__ == '__main__':
    if sys.argv[1:] == ['--check']:
        sys.exit(check())
    args = [a for a in sys.argv[1:] if a != '--v1']
    print(json.dumps(layers(int(args[0]), int(args[1]) if len(args) > 1 else 256, '--v1' in sys.argv)))
