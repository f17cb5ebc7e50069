# A KernelBench-style level-1 problem file (written for kbench's tests): a 2-D convolution whose shape
# comes from get_init_inputs(), with the module-level sizes get_inputs() uses.
import torch
import torch.nn as nn

batch_size = 2
in_channels = 4
out_channels = 6
kernel_size = 3
height = 17
width = 19


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 dilation: int = 1, groups: int = 1, bias: bool = False):
        super(Model, self).__init__()
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                                dilation=dilation, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2d(x)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
