# Written for kbench's tests: a file whose get_inputs raises; the error names this file's line.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    raise RuntimeError("this problem needs a GPU")


def get_init_inputs():
    return []
