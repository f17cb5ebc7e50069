# A KernelBench-style solution that is wrong on purpose (kbench's tests): it drops the first row of
# taps of every kernel, so kbench must report it wrong and never time it.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_channels, in_channels, kernel_size, kernel_size))

    def forward(self, x):
        weight = self.weight.clone()
        weight[:, :, 0, :] = 0
        return F.conv2d(x, weight)


def get_init_inputs():
    return [4, 6, 3]
