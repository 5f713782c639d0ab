// Unit tests of gpu2npu's non-Python analysers (migrate/analyzers.h): CUDA C++ (kernels and
// how hard each is to port, runtime calls, launches; comments ignored), requirements and
// pyproject dependency lists, shell / Dockerfile / YAML text rules, notebooks (findings named
// by cell), and OpStem.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "migrate/analyzers.h"

namespace oc::migrate {
namespace {

std::vector<std::string> Found(const FileResult& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings)
    out.push_back(f.file + ":" + std::to_string(f.line) + ":" + f.rule + ":" + f.api);
  return out;
}

const char* kCuda =
    "#include <cuda_runtime.h>\n"                                        // 1
    "// a comment naming cudaMalloc and <<<\n"                           // 2
    "__global__ void relu_kernel(float* x, int n) {\n"                   // 3
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                 // 4
    "  if (i < n) x[i] = x[i] > 0 ? x[i] : 0;\n"                         // 5
    "}\n"                                                                // 6
    "__global__ void reduce_sum_kernel(const float* x, float* out) {\n"  // 7
    "  __shared__ float buf[256];\n"                                     // 8
    "  buf[threadIdx.x] = x[threadIdx.x];\n"                             // 9
    "  __syncthreads();\n"                                               // 10
    "  atomicAdd(out, buf[0]);\n"                                        // 11
    "}\n"                                                                // 12
    "__global__ void set_ptrs(float** p, float* base) {\n"               // 13
    "  p[threadIdx.x] = base;\n"                                         // 14
    "}\n"                                                                // 15
    "__global__ void declared_only(float* x);\n"                         // 16
    "void launch(float* x, int n) {\n"                                   // 17
    "  float* d;\n"                                                      // 18
    "  cudaMalloc(&d, n * sizeof(float));\n"                             // 19
    "  relu_kernel<<<1, 256>>>(x, n);\n"                                 // 20
    "}\n";                                                               // 21

TEST(CudaAnalyzer, KernelsAndHowHardEachIsToPort) {
  const auto r = AnalyzeCuda("ops/k.cu", kCuda);
  ASSERT_EQ(r.kernels.size(), 3u);  // the declaration is no kernel
  const CudaKernel& relu = r.kernels[0];
  EXPECT_EQ(relu.name, "relu_kernel");
  EXPECT_EQ(relu.line, 3);
  EXPECT_FALSE(relu.complex);
  EXPECT_FALSE(relu.helper);
  EXPECT_EQ(relu.group, "ops/k.cu:relu");
  const CudaKernel& reduce = r.kernels[1];
  EXPECT_EQ(reduce.name, "reduce_sum_kernel");
  EXPECT_EQ(reduce.line, 7);
  EXPECT_TRUE(reduce.complex);
  EXPECT_EQ(reduce.reasons,
            (std::vector<std::string>{"shared memory", "atomics", "block synchronisation"}));
  const CudaKernel& ptrs = r.kernels[2];
  EXPECT_EQ(ptrs.name, "set_ptrs");
  EXPECT_TRUE(ptrs.helper);
  EXPECT_FALSE(ptrs.complex);
}

TEST(CudaAnalyzer, RuntimeCallsAndLaunchesButNotComments) {
  const auto r = AnalyzeCuda("ops/k.cu", kCuda);
  EXPECT_EQ(Found(r), (std::vector<std::string>{"ops/k.cu:19:cuda.runtime:cudaMalloc",
                                                "ops/k.cu:20:cuda.launch:<<<...>>>"}));
  EXPECT_EQ(r.findings[1].severity, Severity::kHigh);
  EXPECT_EQ(r.findings[1].branch, Branch::kCustomKernel);
  EXPECT_EQ(r.findings[1].snippet, "relu_kernel<<<1, 256>>>(x, n);");
  EXPECT_EQ(r.code_lines, 20);  // every line but the comment
}

TEST(CudaAnalyzer, StringLiteralsAreNotCode) {
  const auto r = AnalyzeCuda("a.cpp",
                             "const char* s = \"cudaMalloc <<< torch::kCUDA\";\n"
                             "auto t = x.to(torch::kCUDA);\n");
  EXPECT_EQ(Found(r), (std::vector<std::string>{"a.cpp:2:libtorch.cuda:torch::kCUDA"}));
}

TEST(OpStem, DropsLaunchAndDirectionWords) {
  EXPECT_EQ(OpStem("relu_kernel"), "relu");
  EXPECT_EQ(OpStem("deform_conv_cuda_forward"), "deform_conv");
  EXPECT_EQ(OpStem("LayerNormBackwardKernel"), "layer_norm");
  EXPECT_EQ(OpStem("roi_align_npu"), "roi_align");
  EXPECT_EQ(OpStem("kernel"), "kernel");  // nothing left: the name as it is
}

TEST(RequirementsAnalyzer, PackagesAndTheirFamilies) {
  const auto r = AnalyzeRequirements("requirements.txt",
                                     "# pinned\n"
                                     "torch>=2.0\n"
                                     "flash-attn==2.5.0\n"
                                     "bitsandbytes ; platform_system == \"Linux\"\n"
                                     "-r other.txt\n"
                                     "cupy-cuda12x\n"
                                     "Apex\n"
                                     "torch_npu==2.1.0\n");
  EXPECT_EQ(Found(r), (std::vector<std::string>{"requirements.txt:3:flash_attn:flash-attn",
                                                "requirements.txt:4:bitsandbytes:bitsandbytes",
                                                "requirements.txt:6:cupy:cupy-cuda12x",
                                                "requirements.txt:7:apex:Apex"}));
  for (const auto& f : r.findings) EXPECT_TRUE(f.dependency) << f.rule;
  EXPECT_EQ(r.findings[1].severity, Severity::kBlocker);
  ASSERT_EQ(r.npu.size(), 1u);
  EXPECT_EQ(r.npu[0].what, "dependency torch-npu");
  EXPECT_EQ(r.npu[0].line, 8);
  EXPECT_EQ(r.code_lines, 6);
}

TEST(PyprojectAnalyzer, OptionalDependencySectionsAreOptional) {
  const auto r = AnalyzePyproject("pyproject.toml",
                                  "[project]\n"
                                  "dependencies = [\"torch\", \"xformers>=0.0.23\"]\n"
                                  "[project.optional-dependencies]\n"
                                  "train = ['deepspeed']\n"
                                  "# \"bitsandbytes\"\n");
  EXPECT_EQ(Found(r), (std::vector<std::string>{"pyproject.toml:2:xformers:xformers",
                                                "pyproject.toml:4:deepspeed:deepspeed"}));
  EXPECT_EQ(r.findings[0].usage, Usage::kRequired);
  EXPECT_EQ(r.findings[0].column, 26);
  EXPECT_EQ(r.findings[1].usage, Usage::kOptional);
  EXPECT_EQ(r.findings[1].usage_why, "an optional dependency [project.optional-dependencies]");
}

TEST(TextAnalyzer, ShellRulesStopAtComments) {
  const auto r = AnalyzeText("run.sh",
                             "export CUDA_VISIBLE_DEVICES=0,1  # check with nvidia-smi\n"
                             "torchrun train.py --ddp_backend nccl\n"
                             "# nvidia-smi\n",
                             "#");
  EXPECT_EQ(Found(r), (std::vector<std::string>{"run.sh:1:env.cuda_visible:CUDA_VISIBLE_DEVICES",
                                                "run.sh:2:dist.nccl:--ddp_backend nccl"}));
  EXPECT_EQ(r.findings[0].snippet, "export CUDA_VISIBLE_DEVICES=0,1  # check with nvidia-smi");
  EXPECT_EQ(r.code_lines, 2);
}

TEST(TextAnalyzer, CudaBaseImageIsOneFindingAndUrlsAreNotCode) {
  const auto r = AnalyzeText("Dockerfile",
                             "FROM nvcr.io/nvidia/pytorch:23.10-py3\n"
                             "RUN curl -O https://example.com/tools/nvidia-smi.tar\n"
                             "RUN nvidia-smi\n",
                             "#");
  EXPECT_EQ(Found(r),
            (std::vector<std::string>{"Dockerfile:1:docker.nvidia:nvcr.io/nvidia/pytorch:23.10-py3",
                                      "Dockerfile:3:nvidia_smi:nvidia-smi"}));
}

TEST(TextAnalyzer, YamlConfigsAndNpuSignals) {
  const auto r = AnalyzeText("accelerate.yaml",
                             "backend: nccl\n"
                             "distributed_type: MULTI_GPU\n",
                             nullptr);
  EXPECT_EQ(Found(r), (std::vector<std::string>{
                          "accelerate.yaml:1:dist.nccl:backend: nccl",
                          "accelerate.yaml:2:accelerate.config:distributed_type: MULTI_GPU"}));
  const auto npu = AnalyzeText("npu.yaml", "backend: hccl\ndistributed_type: MULTI_NPU\n", nullptr);
  EXPECT_TRUE(npu.findings.empty());
  ASSERT_EQ(npu.npu.size(), 2u);
  EXPECT_EQ(npu.npu[0].what, "HCCL backend");
  EXPECT_EQ(npu.npu[1].what, "accelerate MULTI_NPU");
}

TEST(NotebookAnalyzer, FindingsNameTheirCell) {
  const auto r = AnalyzeNotebook("nb.ipynb", R"nb({"cells": [
    {"cell_type": "markdown", "source": ["model.cuda()"]},
    {"cell_type": "code", "source": ["import torch\n", "x = torch.zeros(1)"]},
    {"cell_type": "code", "source": "!nvidia-smi\ny = x.cuda()\n"}
  ]})nb");
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(Found(r), (std::vector<std::string>{"nb.ipynb#cell3:1:nvidia_smi:nvidia-smi",
                                                "nb.ipynb#cell3:2:tensor.cuda:.cuda()"}));
  EXPECT_TRUE(r.modules.count("torch"));
}

TEST(NotebookAnalyzer, InvalidNotebooksAreErrors) {
  EXPECT_EQ(AnalyzeNotebook("a.ipynb", "{not json").error,
            "not a valid notebook (JSON with a \"cells\" list)");
  EXPECT_EQ(AnalyzeNotebook("a.ipynb", "{\"cells\": 3}").error,
            "not a valid notebook (JSON with a \"cells\" list)");
  EXPECT_EQ(
      AnalyzeNotebook("a.ipynb", R"nb({"cells": [{"cell_type": "code", "source": 7}]})nb").error,
      "cell 1: source is neither text nor a list of lines");
}

}  // namespace
}  // namespace oc::migrate
