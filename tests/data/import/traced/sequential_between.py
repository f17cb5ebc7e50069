# Written for kbench's tests: convolutions inside nn.Sequential with other layers between them, in half
# precision; each convolution is one workload, named after its place in the model.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv3d(4, 8, kernel_size=(1, 3, 3), padding=(0, 1, 1), bias=False),
            nn.ReLU(),
            nn.ConvTranspose3d(8, 4, 2, stride=2, groups=2),
        ).half()

    def forward(self, x):
        return torch.sigmoid(self.features(x))


def get_inputs():
    return [torch.randn(2, 4, 6, 10, 12, dtype=torch.float16)]


def get_init_inputs():
    return []
