import glob

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="dcn",
    ext_modules=[CUDAExtension("dcn._ext", glob.glob("csrc/*.cpp") + glob.glob("csrc/*.cu"),
                               extra_compile_args={"nvcc": ["-O3"]})],
    cmdclass={"build_ext": BuildExtension},
)
