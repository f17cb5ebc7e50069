# Written for kbench's tests: a module kbench import must refuse (it pads by reflection, which
# kbench's convolutions do not do), naming the line and the argument.
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1,
                              padding_mode="reflect")

    def forward(self, x):
        return self.conv(x)

def get_inputs():
    return [torch.randn(2, 8, 16, 16)]

def get_init_inputs():
    return [8, 16]
