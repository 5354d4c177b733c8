#!/usr/bin/env python3
"""Writes the layers of a ResNet v1.5 (He et al., CVPR 2016, Table 1; the stride of a downsampling
block in its 3x3 convolution, as torchvision and fb.resnet.torch) as a Paleo spec's "layers"
object, in the form of presets/nets/resnet50_v1_5.json: each residual block a Block ending at its
last batch norm, a 1x1 projection (with its batch norm) where the shape changes, the sum and the
ReLU after the block. With --v1, ResNet v1 as the paper and tf_cnn_benchmarks' "resnet50" and
"resnet152" build it: a downsampling bottleneck has its stride in the first 1x1 convolution. With
--resnext, ResNeXt 32x4d (Xie et al., CVPR 2017) as NVIDIA DeepLearningExamples' "resnext101-32x4d"
builds it (image_classification/resnet.py): the v1.5 bottleneck twice as wide (widths 128, 256,
512, 1024), its 3x3 convolution in 32 groups, expanded 2x instead of 4x. With --se-resnext, that
ResNeXt with a squeeze-and-excitation (Hu et al., CVPR 2018) on each block's branch, as
DeepLearningExamples' "se-resnext101-32x4d" builds it (image_classification/models/resnet.py and
common.py): global average pool, a 1x1 convolution to 16 channels (with bias), ReLU, a 1x1
convolution back (with bias), sigmoid, and the branch multiplied by that per-channel scale before
the shortcut is added.

Usage: scripts/resnet_spec.py DEPTH [BATCH] [--v1 | --resnext | --se-resnext]   (DEPTH 18, 34, 50, 101 or 152; prints JSON)
       scripts/resnet_spec.py --check                 (the ResNet presets hold exactly these layers)
"""
import json
import sys
from pathlib import Path

STAGES = {18: ('basic', [2, 2, 2, 2]), 34: ('basic', [3, 4, 6, 3]), 50: ('bottleneck', [3, 4, 6, 3]),
          101: ('bottleneck', [3, 4, 23, 3]), 152: ('bottleneck', [3, 8, 36, 3])}


# ResNeXt 32x4d: cardinality, and the bottleneck's widths and expansion relative to ResNet's.
RESNEXT_GROUPS, RESNEXT_WIDEN, RESNEXT_EXPANSION = 32, 2, 2
# DeepLearningExamples' squeeze-and-excitation squeezes to 16 channels (se_squeeze=16), whatever
# the block's width (Hu et al. squeeze by a ratio of 16 instead).
SE_SQUEEZE = 16


def conv(k, cin, cout, stride, parents, groups=1):
    layer = {'parents': parents, 'type': 'Convolution', 'filter': [k, k, cin, cout],
             'strides': [1, stride, stride, 1], 'padding': 'SAME' if k > 1 else 'VALID',
             'activation_fn': None, 'bias': False}
    if groups > 1:
        layer['group'] = groups
    return layer


def squeeze_excitation(inner, branch, channels, size):
    """Appends a squeeze-and-excitation of `branch` (channels x size x size) to `inner`; returns
    the name of the scaled branch."""
    se_conv = lambda cin, cout, parent: dict(conv(1, cin, cout, 1, [parent]), bias=True)
    inner['se_pool'] = {'parents': [branch], 'type': 'AvgPool', 'ksize': [1, size, size, 1],
                        'strides': [1, 1, 1, 1], 'padding': 'VALID'}
    inner['se_squeeze'] = se_conv(channels, SE_SQUEEZE, 'se_pool')
    inner['se_relu'] = {'parents': ['se_squeeze'], 'type': 'ReLU'}
    inner['se_expand'] = se_conv(SE_SQUEEZE, channels, 'se_relu')
    inner['se_sigmoid'] = {'parents': ['se_expand'], 'type': 'Sigmoid'}
    inner['se_scale'] = {'parents': [branch, 'se_sigmoid'], 'type': 'Elementwise', 'operation': 'product'}
    return 'se_scale'


def block(kind, cin, width, stride, variant='', size=0):
    """The block's layers, its output channels and its endpoint (variant: '', 'v1', 'resnext' or
    'se-resnext'; size: the side of its output, for a squeeze-and-excitation's pool)."""
    inner = {}
    groups = 1
    wide = variant in ('resnext', 'se-resnext')
    if kind == 'basic':
        plan = [(3, cin, width, stride), (3, width, width, 1)]
        cout = width
    else:
        if wide:
            width, groups = width * RESNEXT_WIDEN, RESNEXT_GROUPS
        cout = (RESNEXT_EXPANSION if wide else 4) * width
        # v1 strides the first 1x1 convolution, v1.5 and ResNeXt the 3x3 one.
        first, middle = (stride, 1) if variant == 'v1' else (1, stride)
        plan = [(1, cin, width, first), (3, width, width, middle), (1, width, cout, 1)]
    last = None
    for i, (k, a, b, s) in enumerate(plan, start=1):
        inner[f'conv{i}'] = conv(k, a, b, s, [last] if last else [], groups if k == 3 else 1)
        inner[f'bn{i}'] = {'parents': [f'conv{i}'], 'type': 'BatchNorm'}
        last = f'bn{i}'
        if i < len(plan):
            inner[f'relu{i}'] = {'parents': [f'bn{i}'], 'type': 'ReLU'}
            last = f'relu{i}'
    if variant == 'se-resnext':
        last = squeeze_excitation(inner, last, cout, size)
    if stride != 1 or cin != cout:
        inner['downsample'] = conv(1, cin, cout, stride, [])
        inner['downsample_bn'] = {'parents': ['downsample'], 'type': 'BatchNorm'}
    return inner, cout, last


def layers(depth, batch=256, variant=''):
    kind, counts = STAGES[depth]
    if kind == 'basic' and variant:
        sys.exit(f'ResNet-{depth} has basic blocks: --{variant} applies to bottlenecks (50, 101, 152)')
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
            inner, cout, endpoint = block(kind, channels, width, stride, variant, 56 >> (stage - 1))
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


PRESETS = {(18, ''): 'resnet18', (34, ''): 'resnet34', (50, ''): 'resnet50_v1_5',
           (101, ''): 'resnet101_v1_5', (152, ''): 'resnet152_v1_5', (50, 'v1'): 'resnet50_v1',
           (152, 'v1'): 'resnet152_v1', (101, 'v1'): 'resnet101_v1',
           (101, 'resnext'): 'resnext101_32x4d',
           (101, 'se-resnext'): 'se_resnext101_32x4d'}


def check():
    """Exit status 1 when a ResNet preset's layers differ from what this script writes."""
    root = Path(__file__).resolve().parent.parent
    bad = 0
    for (depth, variant), key in PRESETS.items():
        preset = json.loads((root / 'presets' / 'nets' / f'{key}.json').read_text())['layers']
        same = preset == layers(depth, preset['data']['tensor'][0], variant)
        print(f"{key}: {'the same layers' if same else 'DIFFERENT layers'}")
        bad += not same
    return 1 if bad else 0


if __name__ == '__main__':
    if sys.argv[1:] == ['--check']:
        sys.exit(check())
    flags = {'--v1': 'v1', '--resnext': 'resnext', '--se-resnext': 'se-resnext'}
    args = [a for a in sys.argv[1:] if a not in flags]
    chosen = [flags[a] for a in sys.argv[1:] if a in flags]
    if len(chosen) > 1:
        sys.exit('--v1, --resnext and --se-resnext exclude one another')
    print(json.dumps(layers(int(args[0]), int(args[1]) if len(args) > 1 else 256, chosen[0] if chosen else '')))
