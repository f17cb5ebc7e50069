# A KernelBench-style solution (written for kbench's tests): ModelNew holds its own parameters and calls
# the functional transposed convolution with a bias; kbench must run ModelNew, not Model.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2, padding=1, bias=True)

    def forward(self, x):
        return self.conv(x)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_channels, out_channels, kernel_size, kernel_size, kernel_size))
        self.bias = nn.Parameter(torch.empty(out_channels))

    def forward(self, x):
        return F.conv_transpose3d(x, self.weight, self.bias, stride=2, padding=1, output_padding=1)


def get_init_inputs():
    return [3, 5, 3]
