# Written for kbench's tests: what only running the file reads. Shapes come from a helper function, the
# weight is the Model's own parameter applied with F.conv2d in forward, and the input is far too large to
# allocate (the tracer's meta tensors never allocate it).
import torch
import torch.nn as nn
import torch.nn.functional as F


def shape_for(scale):
    return 64, 32 * scale, 4096, 4096


class Model(nn.Module):
    def __init__(self, channels, stride):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(2 * channels, channels // 4, 3, 3))
        self.stride = stride

    def forward(self, x):
        return F.conv2d(x, self.weight, None, self.stride, 1, 1, 4)


def get_inputs():
    return [torch.randn(*shape_for(2))]


def get_init_inputs():
    return [64, (2, 1)]
