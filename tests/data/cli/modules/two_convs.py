# Two convolutions with the same weight shape (kbench's tests): which one takes kbench's weight is
# ambiguous, so kbench must refuse the module with both parameters named.
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = nn.Conv2d(4, 6, 3, bias=False)
        self.second = nn.Conv2d(6, 6, 1, bias=False)
        self.third = nn.Conv2d(4, 6, 3, bias=False)

    def forward(self, x):
        return self.first(x) + self.third(x)
