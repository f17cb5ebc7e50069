# Written for kbench's tests: keyword arguments, tuples, arithmetic on constants, padding='same', a
# dtype, and two layers that forward chains (depthwise, then pointwise).
import torch
from torch import nn

channels = 2 ** 5
kernel = (3, 5)
size = (64, 48)
groups = channels // 4


class Model(nn.Module):
    def __init__(self, c: int, k: tuple, expand: int = 2, *, bias: bool = True):
        super().__init__()
        mid = c * expand
        self.depthwise = torch.nn.Conv2d(
            in_channels=c,
            out_channels=mid,
            kernel_size=k,
            padding="same",
            dilation=(1, 2),
            groups=groups,
            bias=bias,
            padding_mode="zeros",
        )
        self.pointwise = nn.Conv2d(mid, c + 8, 1, 2, 0, 1, 1, False)

    def forward(self, x):
        y = self.depthwise(x)
        return self.pointwise(y)


def get_inputs():
    n, h = 4, size[0]
    return [torch.randn((n, channels, h, size[-1]), dtype=torch.float32)]


def get_init_inputs():
    return [channels, kernel]
