// Unit tests of gpu2npu's decision tree and estimate (Decide, migrate/analysis.h) on analyses
// built by hand: the verdict level, the deciding branch, the estimate rows and their
// person-days (the seed's cost table), the not-advised cases, the workload class; and the
// names of branches, severities, usages and levels.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "migrate/analysis.h"

namespace oc::migrate {
namespace {

Finding F(const std::string& rule, Branch branch, Severity severity, bool automatic,
          Usage usage = Usage::kRequired, const std::string& file = "train.py", int line = 1) {
  Finding f;
  f.file = file;
  f.line = line;
  f.rule = rule;
  f.api = rule;
  f.branch = branch;
  f.severity = severity;
  f.auto_migratable = automatic;
  f.usage = usage;
  return f;
}

CudaKernel Kernel(const std::string& name, bool complex, const std::string& file = "k.cu") {
  CudaKernel k;
  k.file = file;
  k.name = name;
  k.line = 1;
  k.complex = complex;
  k.group = file + ":" + name;
  return k;
}

TritonKernel Triton(const std::string& name, bool complex, const std::string& equivalent = "") {
  TritonKernel k;
  k.file = "t.py";
  k.name = name;
  k.line = 1;
  k.complex = complex;
  k.equivalent = equivalent;
  k.group = "t.py:" + name;
  return k;
}

TEST(Decide, NothingFoundIsLowWithNothingToChange) {
  Analysis a;
  Decide(&a);
  EXPECT_EQ(a.level, Level::kLow);
  EXPECT_EQ(a.deciding, Branch::kStandardModel);
  EXPECT_EQ(a.reason, "nothing needs to change");
  EXPECT_TRUE(a.estimate.empty());
  EXPECT_EQ(a.estimate_low, 0);
  EXPECT_EQ(a.estimate_high, 0);
  EXPECT_EQ(a.workload, "unknown");
  EXPECT_EQ(a.suitability, "unknown");
  EXPECT_TRUE(a.next_steps.empty());
}

TEST(Decide, FewDeviceEditsInACvModelCostUnderADay) {
  Analysis a;
  a.workload_weight = {{"cv", 1}, {"torch", 1}};
  a.trains = true;
  a.findings = {F("tensor.cuda", Branch::kStandardModel, Severity::kLow, true),
                F("device.string", Branch::kStandardModel, Severity::kLow, true),
                F("cuda.capability", Branch::kStandardModel, Severity::kMedium, false)};
  Decide(&a);
  EXPECT_EQ(a.workload, "cv_training");
  EXPECT_EQ(a.suitability, "excellent");
  EXPECT_EQ(a.level, Level::kLow);
  EXPECT_EQ(a.reason, "only device strings and settings to change");
  ASSERT_EQ(a.estimate.size(), 1u);
  EXPECT_EQ(a.estimate[0].what, "device strings and settings: 2 automatic edits, 1 to review");
  EXPECT_EQ(a.estimate[0].count, 3);
  EXPECT_EQ(a.estimate[0].low, 0.25);
  EXPECT_EQ(a.estimate[0].high, 1);
  EXPECT_EQ(a.estimate[0].evidence.size(), 3u);
  ASSERT_EQ(a.next_steps.size(), 1u);
  EXPECT_EQ(a.next_steps[0], a.estimate[0].what + " (0.25-1 days): train.py:1");
}

TEST(Decide, NlpDeviceEditsCostOneToThreeDays) {
  Analysis a;
  a.workload_weight = {{"nlp", 2}};
  a.findings = {F("tensor.cuda", Branch::kStandardModel, Severity::kLow, true)};
  Decide(&a);
  EXPECT_EQ(a.workload, "llm_inference");  // nothing trains
  ASSERT_EQ(a.estimate.size(), 1u);
  EXPECT_EQ(a.estimate[0].low, 1);
  EXPECT_EQ(a.estimate[0].high, 3);
}

TEST(Decide, ManyEditsScaleTheEstimate) {
  Analysis a;
  Finding f = F("tensor.cuda", Branch::kStandardModel, Severity::kLow, true);
  f.count = 150;  // folded occurrences
  a.findings = {f};
  Decide(&a);
  ASSERT_EQ(a.estimate.size(), 1u);
  EXPECT_EQ(a.estimate[0].count, 150);
  EXPECT_EQ(a.estimate[0].low, 2);
  EXPECT_EQ(a.estimate[0].high, 5);
}

TEST(Decide, AuxiliaryCoveredAndInfoFindingsCostNothing) {
  Analysis a;
  Finding covered = F("tensor.cuda", Branch::kStandardModel, Severity::kLow, true);
  covered.covered = true;
  a.findings = {F("tensor.cuda", Branch::kStandardModel, Severity::kLow, true, Usage::kAuxiliary),
                covered, F("cudnn.settings", Branch::kStandardModel, Severity::kInfo, false)};
  Decide(&a);
  EXPECT_TRUE(a.estimate.empty());
  EXPECT_EQ(a.reason, "nothing needs to change");
}

TEST(Decide, ComplexCudaKernelMakesItHigh) {
  Analysis a;
  a.kernels = {Kernel("fused_softmax_kernel", true), Kernel("scale_kernel", false, "s.cu")};
  Decide(&a);
  EXPECT_EQ(a.level, Level::kHigh);
  EXPECT_EQ(a.deciding, Branch::kCustomKernel);
  EXPECT_EQ(a.reason, "complex CUDA kernels without an NPU port to rewrite and tune (1-2 months)");
  ASSERT_EQ(a.estimate.size(), 2u);
  EXPECT_EQ(a.estimate[0].what, "simple CUDA ops to rewrite in Ascend C (1 kernels)");
  EXPECT_EQ(a.estimate[0].low, 5);
  EXPECT_EQ(a.estimate[0].high, 10);
  EXPECT_EQ(a.estimate[1].what, "complex CUDA ops to rewrite and tune in Ascend C (1 kernels)");
  EXPECT_EQ(a.estimate[1].low, 20);
  EXPECT_EQ(a.estimate[1].high, 40);
  EXPECT_EQ(a.estimate_low, 25);
  EXPECT_EQ(a.estimate_high, 50);
  // Largest first.
  ASSERT_EQ(a.next_steps.size(), 2u);
  EXPECT_EQ(a.next_steps[0].rfind("complex CUDA ops", 0), 0u);
}

TEST(Decide, LaterKernelsOfOneKindCostLessThanTheFirst) {
  Analysis a;
  a.kernels = {Kernel("a_kernel", false, "a.cu"), Kernel("b_kernel", false, "b.cu"),
               Kernel("c_kernel", false, "c.cu")};
  // A forward/backward pair of one op is one op.
  CudaKernel bwd = Kernel("a_kernel_bwd", false, "a.cu");
  bwd.group = "a.cu:a_kernel";
  a.kernels.push_back(bwd);
  Decide(&a);
  ASSERT_EQ(a.estimate.size(), 1u);
  EXPECT_EQ(a.estimate[0].what, "simple CUDA ops to rewrite in Ascend C (4 kernels)");
  EXPECT_EQ(a.estimate[0].count, 3);
  EXPECT_EQ(a.estimate[0].low, 5 + 3 + 3);
  EXPECT_EQ(a.estimate[0].high, 10 + 5 + 5);
  EXPECT_EQ(a.level, Level::kMedium);
}

TEST(Decide, PortedHelperAndAuxiliaryKernels) {
  Analysis a;
  CudaKernel ported = Kernel("roi_align_forward", true);
  ported.port = "torch_npu.npu_roi_align (torch_npu.contrib ROIAlign)";
  CudaKernel helper = Kernel("set_ptrs", false, "h.cu");
  helper.helper = true;
  CudaKernel test = Kernel("test_only", true, "tests/t.cu");
  test.usage = Usage::kAuxiliary;
  a.kernels = {ported, helper, test};
  Decide(&a);
  ASSERT_EQ(a.estimate.size(), 2u);
  EXPECT_EQ(
      a.estimate[0].what,
      "adopt the community port torch_npu.npu_roi_align (torch_npu.contrib ROIAlign) for 1 op");
  EXPECT_EQ(a.estimate[0].low, 1);  // the port's own cost
  EXPECT_EQ(a.estimate[0].high, 3);
  EXPECT_EQ(a.estimate[1].what, "helper kernels (pointer/index setup): fold into the host code");
  EXPECT_EQ(a.estimate[1].low, 0.25);
  EXPECT_EQ(a.level, Level::kMedium);
}

TEST(Decide, BlockerLibraryIsNotAdvised) {
  Analysis a;
  a.findings = {F("dali", Branch::kNvidiaLibrary, Severity::kBlocker, false),
                F("tensor.cuda", Branch::kStandardModel, Severity::kLow, true)};
  Decide(&a);
  EXPECT_EQ(a.level, Level::kNotAdvised);
  EXPECT_EQ(a.deciding, Branch::kNvidiaLibrary);
  ASSERT_EQ(a.not_advised.size(), 1u);
  EXPECT_EQ(a.not_advised[0], "depends on NVIDIA-only software with no Ascend counterpart (dali)");
  EXPECT_EQ(a.reason, a.not_advised[0]);
}

TEST(Decide, BlockerWithAPortIsAReplacement) {
  Analysis a;
  Finding bnb = F("bnb.quantized_load", Branch::kNvidiaLibrary, Severity::kBlocker, false);
  bnb.port = "load the weights in bf16";
  a.findings = {bnb};
  Decide(&a);
  EXPECT_NE(a.level, Level::kNotAdvised);
  ASSERT_EQ(a.estimate.size(), 1u);
  EXPECT_EQ(a.estimate[0].what.rfind("replace bitsandbytes with load the weights in bf16", 0), 0u);
  EXPECT_EQ(a.estimate[0].high, 1);
  EXPECT_EQ(a.level, Level::kLow);  // adopted within a day
}

TEST(Decide, ThreeUnreplaceableTritonKernelsAreNotAdvised) {
  Analysis a;
  a.triton = {Triton("k1", false), Triton("k2", false), Triton("k3", true),
              Triton("softmax_kernel", false, "torch.softmax")};
  Decide(&a);
  EXPECT_EQ(a.level, Level::kNotAdvised);
  EXPECT_EQ(a.deciding, Branch::kTriton);
  ASSERT_EQ(a.not_advised.size(), 1u);
  EXPECT_EQ(a.not_advised[0], "3 Triton ops to rewrite without community replacements");
  std::vector<std::string> rows;
  for (const auto& e : a.estimate) rows.push_back(e.what);
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "Triton ops with a torch / torch_npu equivalent: call the op instead",
                      "simple Triton ops: triton-ascend first, else Ascend C",
                      "complex Triton ops: triton-ascend first, else Ascend C"}));
  EXPECT_EQ(a.estimate[1].count, 2);
  EXPECT_EQ(a.estimate[1].low, 8);
}

TEST(Decide, CompileOnTheMainPathOrBehindAFlag) {
  Analysis required;
  required.findings = {F("torch.compile", Branch::kCompile, Severity::kMedium, false)};
  Decide(&required);
  EXPECT_EQ(required.level, Level::kMedium);
  EXPECT_EQ(required.deciding, Branch::kCompile);
  ASSERT_EQ(required.estimate.size(), 1u);
  EXPECT_EQ(required.estimate[0].low, 2);
  EXPECT_EQ(required.estimate[0].high, 5);

  Analysis optional;
  optional.findings = {
      F("torch.compile", Branch::kCompile, Severity::kMedium, false, Usage::kOptional)};
  Decide(&optional);
  EXPECT_EQ(optional.level, Level::kLow);
  ASSERT_EQ(optional.estimate.size(), 1u);
  EXPECT_EQ(optional.estimate[0].what,
            "torch.compile behind a flag: run with it off (eager), try TorchAir later");
  EXPECT_EQ(optional.estimate[0].high, 0.5);
}

TEST(Decide, NcclCommCallsNeedMoreThanABackendSwitch) {
  Analysis plain;
  plain.findings = {F("dist.nccl", Branch::kDistributed, Severity::kLow, true)};
  Decide(&plain);
  ASSERT_EQ(plain.estimate.size(), 1u);
  EXPECT_EQ(plain.estimate[0].what, "NCCL -> HCCL");
  EXPECT_EQ(plain.estimate[0].high, 1);

  Analysis comm;
  comm.findings = {F("cuda.nccl", Branch::kDistributed, Severity::kMedium, false)};
  Decide(&comm);
  ASSERT_EQ(comm.estimate.size(), 1u);
  EXPECT_EQ(comm.estimate[0].what, "NCCL -> HCCL, torch.cuda.nccl/comm calls -> torch.distributed");
  EXPECT_EQ(comm.estimate[0].high, 3);
}

TEST(Decide, TensorRtInATrainingProjectIsTheWholePipeline) {
  Analysis a;
  a.trains = true;
  a.findings = {F("tensorrt", Branch::kNvidiaLibrary, Severity::kMedium, false)};
  Decide(&a);
  ASSERT_EQ(a.estimate.size(), 1u);
  EXPECT_EQ(a.estimate[0].what,
            "full pipeline: data + training + TensorRT deployment -> atc + AscendCL");
  EXPECT_EQ(a.estimate[0].low, 10);
  EXPECT_EQ(a.estimate[0].high, 20);
}

TEST(Decide, ExistingAscendSupportIsValidated) {
  Analysis a;
  a.supports_ascend = true;
  a.support_summary = "already supports Ascend: NPU code in 2 files";
  a.support_evidence = {"a.py (torch_npu)", "b.py (torch_npu)"};
  Decide(&a);
  EXPECT_EQ(a.level, Level::kLow);
  EXPECT_EQ(a.reason, "already supports Ascend: NPU code in 2 files");
  ASSERT_EQ(a.estimate.size(), 1u);
  EXPECT_EQ(a.estimate[0].what,
            "nothing to port for the existing NPU path: run and validate it on hardware");
}

TEST(Decide, WorkloadTiesGoToTheSeedOrderAndNameTheRunnerUp) {
  Analysis a;
  a.workload_weight = {{"nlp", 2}, {"cv", 2}, {"rl", 1}};
  Decide(&a);
  EXPECT_EQ(a.workload, "cv_inference");
  EXPECT_EQ(a.workload_runner_up, "LLM inference");
  Analysis torch_only;
  torch_only.workload_weight = {{"torch", 1}};
  torch_only.trains = true;
  Decide(&torch_only);
  EXPECT_EQ(torch_only.workload, "dl_training");
  EXPECT_EQ(torch_only.workload_runner_up, "");
}

TEST(WorkloadEvidence, OneVotePerClassAndFile) {
  const auto w = WorkloadEvidence({"torchvision.models", "timm", "transformers", "torch.nn"},
                                  {"torch.nn.EmbeddingBag"});
  EXPECT_EQ(w, (std::map<std::string, double>{
                   {"cv", 1}, {"nlp", 1}, {"recommendation", 1}, {"torch", 1}}));
  EXPECT_TRUE(WorkloadEvidence({"torchvisionx", "numpy"}, {}).empty());
}

TEST(DecisionTree, OneNodePerBranchWithTheSeedsLevels) {
  const auto& tree = DecisionTree();
  ASSERT_EQ(tree.size(), static_cast<size_t>(Branch::kCount));
  std::set<Branch> branches;
  for (const auto& n : tree) branches.insert(n.branch);
  EXPECT_EQ(branches.size(), tree.size());
  EXPECT_EQ(tree[0].branch, Branch::kStandardModel);
  EXPECT_EQ(tree[0].level, Level::kLow);
  for (const auto& n : tree) {
    if (n.branch == Branch::kCustomKernel || n.branch == Branch::kTriton) {
      EXPECT_EQ(n.level, Level::kHigh) << n.question;
    }
  }
}

TEST(Names, BranchSeverityUsageAndLevelNames) {
  EXPECT_STREQ(BranchId(Branch::kStandardModel), "standard_model");
  EXPECT_STREQ(BranchId(Branch::kCustomKernel), "custom_cuda_kernel");
  EXPECT_STREQ(BranchId(Branch::kFramework), "training_framework");
  EXPECT_STREQ(BranchTitle(Branch::kDistributed), "Distributed (NCCL)");
  EXPECT_STREQ(SeverityName(Severity::kBlocker), "blocker");
  EXPECT_STREQ(UsageName(Usage::kDependency), "dependency only");
  EXPECT_STREQ(LevelName(Level::kNotAdvised), "not advised");
  EXPECT_EQ(LibraryFamily("bnb.optim"), "bitsandbytes");
  EXPECT_EQ(LibraryFamily("apex.amp"), "apex");
  EXPECT_EQ(LibraryFamily("amp_C"), "apex");
  EXPECT_EQ(LibraryFamily("lightning.gpu"), "lightning");
  EXPECT_EQ(LibraryFamily("flash_attn"), "flash_attn");
}

}  // namespace
}  // namespace oc::migrate
