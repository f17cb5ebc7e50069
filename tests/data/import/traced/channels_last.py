# Written for kbench's tests: a bf16 model run channels last (memory_format=torch.channels_last), its
# input converted in get_inputs and again in forward; both convolutions read as layout nhwc.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(16, 32, 3, padding=1, bias=False)
        self.pointwise = nn.Conv2d(32, 8, 1)
        self.to(torch.bfloat16)

    def forward(self, x):
        x = x.contiguous(memory_format=torch.channels_last)
        return self.pointwise(torch.relu(self.conv(x)))


def get_inputs():
    return [torch.randn(4, 16, 20, 24, dtype=torch.bfloat16).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return []
