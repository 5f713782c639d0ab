// Unit tests of the Python analyser (AnalyzePython, migrate/analyzers.h) with the rule table
// (migrate/rules.h): the findings (line, rule, API, branch, usage) of small Python fixtures:
// device strings and torch.cuda calls through imports and aliases, what never counts
// (comments, docstrings, paths), distributed and library signals, optional imports, Triton
// kernels, setup.py dependencies and signals of an existing NPU path.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "migrate/analyzers.h"
#include "migrate/rules.h"

namespace oc::migrate {
namespace {

// Each finding as "line:rule:api".
std::vector<std::string> Found(const FileResult& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings)
    out.push_back(std::to_string(f.line) + ":" + f.rule + ":" + f.api);
  return out;
}

const Finding* FindRule(const FileResult& r, const std::string& rule) {
  for (const auto& f : r.findings)
    if (f.rule == rule) return &f;
  return nullptr;
}

TEST(PythonAnalyzer, StandardDeviceCodeFindings) {
  const auto r = AnalyzePython("train.py",
                               "import torch\n"
                               "model = model.cuda()\n"
                               "x = torch.randn(2, device=\"cuda:0\")\n"
                               "torch.cuda.synchronize()\n"
                               "ok = x.is_cuda\n");
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(Found(r),
            (std::vector<std::string>{"2:tensor.cuda:.cuda()", "3:device.string:\"cuda:0\"",
                                      "4:torch.cuda.call:torch.cuda.synchronize",
                                      "5:tensor.is_cuda:.is_cuda"}));
  for (const auto& f : r.findings) {
    EXPECT_EQ(f.branch, Branch::kStandardModel) << f.rule;
    EXPECT_EQ(f.severity, Severity::kLow) << f.rule;
    EXPECT_TRUE(f.auto_migratable) << f.rule;
    EXPECT_EQ(f.usage, Usage::kRequired) << f.rule;
    EXPECT_EQ(f.file, "train.py");
  }
  const Finding* call = FindRule(r, "torch.cuda.call");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->snippet, "torch.cuda.synchronize()");
  EXPECT_EQ(call->column, 1);
  EXPECT_EQ(call->counterpart, "torch_npu.npu (same function)");
  EXPECT_EQ(r.code_lines, 5);
  EXPECT_TRUE(r.modules.count("torch"));
  EXPECT_TRUE(r.names.count("torch.cuda.synchronize"));
}

TEST(PythonAnalyzer, ImportAliasesResolveToQualifiedNames) {
  const auto r = AnalyzePython("a.py",
                               "import torch.cuda as tc\n"
                               "from torch.cuda import amp as cuda_amp\n"
                               "tc.empty_cache()\n"
                               "with cuda_amp.autocast():\n"
                               "    pass\n");
  EXPECT_EQ(Found(r), (std::vector<std::string>{"1:torch.cuda.call:torch.cuda",
                                                "2:torch.cuda.amp:torch.cuda.amp",
                                                "3:torch.cuda.call:torch.cuda.empty_cache",
                                                "4:torch.cuda.amp:torch.cuda.amp.autocast"}));
}

TEST(PythonAnalyzer, LongestRuleWinsAndUnportableCallsAreNotAutomatic) {
  const auto r = AnalyzePython("a.py",
                               "import torch\n"
                               "cap = torch.cuda.get_device_capability()\n"
                               "g = torch.cuda.CUDAGraph()\n");
  EXPECT_EQ(Found(r),
            (std::vector<std::string>{"2:cuda.capability:torch.cuda.get_device_capability",
                                      "3:cuda.graphs:torch.cuda.CUDAGraph"}));
  EXPECT_FALSE(r.findings[0].auto_migratable);
  EXPECT_EQ(r.findings[0].severity, Severity::kMedium);
  EXPECT_EQ(r.findings[1].branch, Branch::kCompile);
}

TEST(PythonAnalyzer, CommentsDocstringsAndPathsGiveNoFindings) {
  const auto r = AnalyzePython("a.py",
                               "\"\"\"Trains on cuda.\"\"\"\n"
                               "import glob, os\n"
                               "# model.cuda()\n"
                               "files = glob.glob(os.path.join(\"csrc\", \"cuda\"))\n"
                               "name = \"cuda_kernels\"\n"
                               "model.npu()\n");
  EXPECT_TRUE(r.findings.empty()) << Found(r).front();
  EXPECT_EQ(r.code_lines, 5);  // the comment line does not count
}

TEST(PythonAnalyzer, DistributedAndEnvironmentStrings) {
  const auto r = AnalyzePython("dist.py",
                               "import os\n"
                               "import torch.distributed as dist\n"
                               "os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"0,1\"\n"
                               "os.environ[\"NCCL_DEBUG\"] = \"INFO\"\n"
                               "dist.init_process_group(backend=\"nccl\")\n");
  EXPECT_EQ(Found(r),
            (std::vector<std::string>{"3:env.cuda_visible:\"CUDA_VISIBLE_DEVICES\"",
                                      "4:env.nccl:\"NCCL_DEBUG\"", "5:dist.nccl:\"nccl\""}));
  const Finding* nccl = FindRule(r, "dist.nccl");
  ASSERT_NE(nccl, nullptr);
  EXPECT_EQ(nccl->branch, Branch::kDistributed);
  EXPECT_EQ(nccl->counterpart, "\"hccl\"");
}

TEST(PythonAnalyzer, KeywordArgumentsOfLibrariesAndFrameworks) {
  const auto r = AnalyzePython("a.py",
                               "m = AutoModel.from_pretrained(p, load_in_8bit=True)\n"
                               "t = Trainer(accelerator=\"gpu\", devices=2)\n"
                               "n = f(load_in_8bit=False)\n");
  EXPECT_EQ(Found(r), (std::vector<std::string>{"1:bnb.quantized_load:load_in_8bit=True",
                                                "2:lightning.gpu:accelerator=\"gpu\""}));
  EXPECT_EQ(r.findings[0].branch, Branch::kNvidiaLibrary);
  EXPECT_EQ(r.findings[1].branch, Branch::kFramework);
}

TEST(PythonAnalyzer, OptionalImportMakesEveryUseOptional) {
  const auto r = AnalyzePython("attn.py",
                               "try:\n"
                               "    import flash_attn\n"
                               "except ImportError:\n"
                               "    HAS_FLASH = False\n"
                               "def attend(q):\n"
                               "    return flash_attn.flash_attn_func(q)\n");
  ASSERT_EQ(Found(r), (std::vector<std::string>{"2:flash_attn:flash_attn",
                                                "6:flash_attn:flash_attn.flash_attn_func"}));
  EXPECT_EQ(r.findings[0].usage, Usage::kOptional);
  EXPECT_EQ(r.findings[0].usage_why, "guarded by try/except ImportError");
  EXPECT_EQ(r.findings[1].usage, Usage::kOptional);
  EXPECT_EQ(r.findings[1].usage_why, "imported optionally: guarded by try/except ImportError");
}

TEST(PythonAnalyzer, TritonKernelsAreOneRecordEach) {
  const auto r = AnalyzePython("kern.py",
                               "import triton\n"
                               "import triton.language as tl\n"
                               "@triton.jit\n"
                               "def add_kernel(x_ptr, y_ptr, n):\n"
                               "    pid = tl.program_id(0)\n"
                               "    x = tl.load(x_ptr + pid)\n"
                               "    tl.store(y_ptr + pid, x)\n"
                               "@triton.jit\n"
                               "def fused_matmul(a, b, c, K):\n"
                               "    acc = 0\n"
                               "    for k in range(K):\n"
                               "        acc += tl.dot(tl.load(a), tl.load(b))\n"
                               "    tl.store(c, acc)\n"
                               "def host():\n"
                               "    return 1\n");
  EXPECT_EQ(r.triton_kernels, 2);
  EXPECT_EQ(r.triton_complex, 1);
  ASSERT_EQ(r.triton.size(), 2u);
  EXPECT_EQ(r.triton[0].name, "add_kernel");
  EXPECT_EQ(r.triton[0].line, 4);
  EXPECT_FALSE(r.triton[0].complex);
  EXPECT_EQ(r.triton[0].equivalent, "torch.add");
  EXPECT_EQ(r.triton[1].name, "fused_matmul");
  EXPECT_TRUE(r.triton[1].complex);
  EXPECT_EQ(r.triton[1].reasons, (std::vector<std::string>{"loops", "tl.dot"}));
  EXPECT_EQ(r.triton[1].lines, 5);
  EXPECT_EQ(r.triton[1].equivalent, "torch.matmul");
  // The tl.* calls inside the kernels are the kernels, not findings of their own.
  EXPECT_EQ(Found(r), (std::vector<std::string>{"1:triton:triton", "2:triton:triton.language",
                                                "3:triton:triton.jit"}));
}

TEST(PythonAnalyzer, TrainingIsDetected) {
  EXPECT_TRUE(AnalyzePython("a.py", "loss.backward()\n").trains);
  EXPECT_TRUE(AnalyzePython("a.py", "import torch\nopt = torch.optim.AdamW(p)\n").trains);
  EXPECT_FALSE(AnalyzePython("a.py", "y = model(x)\n").trains);
}

TEST(PythonAnalyzer, NpuSignalsAreCollected) {
  const auto r = AnalyzePython("npu.py",
                               "import torch_npu\n"
                               "from torch_npu.contrib import transfer_to_npu\n"
                               "x = x.npu()\n"
                               "d = \"npu:0\"\n"
                               "dist.init_process_group(backend=\"hccl\")\n");
  std::set<std::string> what;
  for (const auto& s : r.npu) what.insert(std::to_string(s.line) + ":" + s.what);
  EXPECT_EQ(what, (std::set<std::string>{"1:torch_npu", "2:torch_npu", "2:transfer_to_npu",
                                         "3:.npu()", "4:NPU device string", "5:HCCL backend"}));
  EXPECT_TRUE(r.findings.empty());
}

TEST(PythonAnalyzer, SetupPyStringsAreDependenciesAndPaths) {
  const auto r = AnalyzePython("setup.py",
                               "from setuptools import setup\n"
                               "from torch.utils.cpp_extension import CUDAExtension\n"
                               "setup(name=\"x\",\n"
                               "      ext_modules=[CUDAExtension(\"x\", [\"cuda/x.cu\"])],\n"
                               "      install_requires=[\"torch\", \"flash-attn>=2\"],\n"
                               "      extras_require={\"fast\": [\"xformers\"]})\n",
                               /*setup_py=*/true);
  const Finding* ext = FindRule(r, "cpp_extension.cuda");
  ASSERT_NE(ext, nullptr);
  EXPECT_EQ(ext->branch, Branch::kCustomKernel);
  const Finding* fa = FindRule(r, "flash_attn");
  ASSERT_NE(fa, nullptr);
  EXPECT_TRUE(fa->dependency);
  EXPECT_EQ(fa->line, 5);
  EXPECT_EQ(fa->usage, Usage::kRequired);
  const Finding* xf = FindRule(r, "xformers");
  ASSERT_NE(xf, nullptr);
  EXPECT_EQ(xf->line, 6);
  EXPECT_EQ(xf->usage, Usage::kOptional);
  EXPECT_EQ(xf->usage_why, "an optional dependency (extras_require)");
  for (const auto& f : r.findings) EXPECT_FALSE(f.auto_migratable) << f.rule;
}

TEST(PythonAnalyzer, SyntaxErrorIsReportedNotAnalysed) {
  const auto r = AnalyzePython("bad.py", "x = 'open\n");
  EXPECT_EQ(r.error, "unterminated string starting at line 1");
  EXPECT_TRUE(r.findings.empty());
}

TEST(PythonAnalyzer, OneFindingPerLineRuleAndApi) {
  const auto r = AnalyzePython("a.py", "a, b = x.cuda(), y.cuda()\nc = z.cuda()\n");
  EXPECT_EQ(Found(r), (std::vector<std::string>{"1:tensor.cuda:.cuda()", "2:tensor.cuda:.cuda()"}));
}

TEST(Rules, EveryRuleIsComplete) {
  std::set<std::string> ids;
  for (const auto& rule : Rules()) {
    EXPECT_FALSE(rule.pattern.empty()) << rule.id;
    EXPECT_FALSE(rule.id.empty()) << rule.pattern;
    EXPECT_FALSE(rule.counterpart.empty()) << rule.id;
    EXPECT_FALSE(rule.message.empty()) << rule.id;
    EXPECT_LT(static_cast<int>(rule.branch), static_cast<int>(Branch::kCount)) << rule.id;
    ids.insert(rule.id);
  }
  // The ones the decision tree and the rewriter name.
  for (const char* id : {"tensor.cuda", "device.string", "torch.cuda.call", "dist.nccl",
                         "bitsandbytes", "tensorrt", "deploy.onnx", "lightning", "triton"})
    EXPECT_TRUE(ids.count(id)) << id;
}

}  // namespace
}  // namespace oc::migrate
