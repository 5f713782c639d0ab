from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused_gelu",
    ext_modules=[CUDAExtension("fused_gelu", ["csrc/gelu.cpp", "csrc/gelu_kernel.cu"])],
    cmdclass={"build_ext": BuildExtension},
    install_requires=["torch", "torchvision"],
)
