// Unit tests of gpu2npu migrate (migrate/migrate.h): the exact rewritten text of small Python,
// shell, YAML and notebook inputs (device strings, .cuda(), torch.cuda.* -> torch_npu.npu.*,
// NCCL -> HCCL, environment variables, the added `import torch_npu`), the edits listed, what
// is left alone (already-NPU code, comments, docstrings, paths, calls without an NPU twin), a
// second run changing nothing, and MigrateProject's copy, reports and refusals.
#include "migrate/migrate.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace oc::migrate {
namespace {

const std::string kImport = "import torch_npu  # added by gpu2npu: registers the NPU device";

std::string Migrate(const std::string& text, std::vector<Edit>* edits = nullptr) {
  std::vector<Edit> local;
  return MigratePython("train.py", text, edits ? edits : &local);
}

TEST(MigratePython, DeviceCodeIsRewrittenAndTorchNpuImported) {
  std::vector<Edit> edits;
  const std::string out = Migrate(
      "import torch\n"
      "model = model.cuda()\n"
      "x = torch.randn(2, device=\"cuda:0\")\n"
      "if torch.cuda.is_available():\n"
      "    torch.cuda.synchronize()\n",
      &edits);
  EXPECT_EQ(out, "import torch\n" + kImport +
                     "\n"
                     "model = model.npu()\n"
                     "x = torch.randn(2, device=\"npu:0\")\n"
                     "if torch_npu.npu.is_available():\n"
                     "    torch_npu.npu.synchronize()\n");
  ASSERT_EQ(edits.size(), 5u);
  EXPECT_EQ(edits[0].line, 2);
  EXPECT_EQ(edits[0].kind, "replace");
  EXPECT_EQ(edits[0].before, "model = model.cuda()");
  EXPECT_EQ(edits[0].after, "model = model.npu()");
  EXPECT_EQ(edits[0].message, ".cuda() -> .npu()");
  EXPECT_EQ(edits[1].message, "device string: \"cuda:0\" -> \"npu:0\"");
  EXPECT_EQ(edits[2].message, "torch.cuda -> torch_npu.npu");
  EXPECT_EQ(edits[4].kind, "insert");
  EXPECT_EQ(edits[4].line, 2);
  EXPECT_EQ(edits[4].after, kImport);
}

TEST(MigratePython, SecondRunChangesNothing) {
  const std::string once = Migrate(
      "import torch\n"
      "d = torch.device(\"cuda\" if torch.cuda.is_available() else \"cpu\")\n"
      "x = x.cuda(); ok = x.is_cuda\n");
  EXPECT_EQ(once, "import torch\n" + kImport +
                      "\n"
                      "d = torch.device(\"npu\" if torch_npu.npu.is_available() else \"cpu\")\n"
                      "x = x.npu(); ok = x.is_npu\n");
  std::vector<Edit> edits;
  EXPECT_EQ(Migrate(once, &edits), once);
  EXPECT_TRUE(edits.empty());
}

TEST(MigratePython, AlreadyNpuCodeIsLeftUnchanged) {
  const std::string npu =
      "import torch\n"
      "import torch_npu\n"
      "model = model.npu()\n"
      "x = torch.randn(2, device=\"npu:0\")\n"
      "torch_npu.npu.synchronize()\n"
      "dist.init_process_group(backend=\"hccl\")\n"
      "os.environ[\"ASCEND_RT_VISIBLE_DEVICES\"] = \"0\"\n";
  std::vector<Edit> edits;
  EXPECT_EQ(Migrate(npu, &edits), npu);
  EXPECT_TRUE(edits.empty());
}

TEST(MigratePython, FormattedDeviceStrings) {
  EXPECT_EQ(Migrate("a = f\"cuda:{rank}\"\n"
                    "b = \"cuda:{}\".format(rank)\n"
                    "c = 'cuda:%d' % rank\n"
                    "d = \"cuda:\" + str(rank)\n"),
            kImport +
                "\n"
                "a = f\"npu:{rank}\"\n"
                "b = \"npu:{}\".format(rank)\n"
                "c = 'npu:%d' % rank\n"
                "d = \"npu:\" + str(rank)\n");
}

TEST(MigratePython, DistributedAndEnvironmentStrings) {
  EXPECT_EQ(Migrate("import os\n"
                    "import torch\n"
                    "os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"0\"\n"
                    "dist.init_process_group(backend=\"nccl\")\n"
                    "os.system(\"nvidia-smi\")\n"
                    "b = dist.Backend.NCCL if dist.is_nccl_available() else None\n"),
            "import os\n"
            "import torch\n" +
                kImport +
                "\n"
                "os.environ[\"ASCEND_RT_VISIBLE_DEVICES\"] = \"0\"\n"
                "dist.init_process_group(backend=\"hccl\")\n"
                "os.system(\"npu-smi\")\n"
                "b = dist.Backend.HCCL if dist.is_hccl_available() else None\n");
}

TEST(MigratePython, CommentsDocstringsAndPathsStay) {
  const std::string text =
      "\"\"\"Moves the model with .cuda().\"\"\"\n"
      "import os\n"
      "# model.cuda() and \"cuda:0\" in a comment\n"
      "src = os.path.join(root, \"cuda\")\n"
      "name = \"cuda_ops\"\n";
  std::vector<Edit> edits;
  EXPECT_EQ(Migrate(text, &edits), text);
  EXPECT_TRUE(edits.empty());
}

TEST(MigratePython, CallsWithoutAnNpuTwinStay) {
  const std::string text =
      "import torch\n"
      "cap = torch.cuda.get_device_capability()\n"
      "torch.cuda.nccl.all_reduce(xs)\n"
      "from torch.cuda import comm\n";
  EXPECT_EQ(Migrate(text), text);
}

TEST(MigratePython, ImportFormsAndRenamedMembers) {
  EXPECT_EQ(Migrate("import torch\n"
                    "from torch import cuda\n"
                    "from torch.cuda import amp\n"
                    "from torch.cuda import CUDAGraph\n"
                    "g = torch.cuda.CUDAGraph()\n"
                    "acts = [torch.profiler.ProfilerActivity.CUDA]\n"),
            "import torch\n"
            "from torch_npu import npu as cuda\n"
            "from torch_npu.npu import amp\n"
            "from torch_npu.npu import NPUGraph as CUDAGraph\n" +
                kImport +
                "\n"
                "g = torch_npu.npu.NPUGraph()\n"
                "acts = [torch_npu.profiler.ProfilerActivity.NPU]\n");
}

TEST(MigratePython, ImportGoesAfterTheModuleHeaderWithoutATorchImport) {
  EXPECT_EQ(Migrate("#!/usr/bin/env python\n"
                    "\"\"\"Helpers.\"\"\"\n"
                    "from __future__ import annotations\n"
                    "def to_dev(x):\n"
                    "    return x.cuda()\n"),
            "#!/usr/bin/env python\n"
            "\"\"\"Helpers.\"\"\"\n"
            "from __future__ import annotations\n" +
                kImport +
                "\n"
                "def to_dev(x):\n"
                "    return x.npu()\n");
}

TEST(MigratePython, CrlfAndMissingFinalNewlineAreKept) {
  EXPECT_EQ(Migrate("import torch\r\nx = y.cuda()\r\n"),
            "import torch\r\n" + kImport + "\r\nx = y.npu()\r\n");
  EXPECT_EQ(Migrate("import torch\nx = y.cuda()"), "import torch\n" + kImport + "\nx = y.npu()");
}

// BUG: the torch.cuda span is measured from the column of `torch` to the end of `cuda`, as if
// both were on one line; when the chain is split across lines only `torch` is replaced (by
// "torch_npu.npu") and `.cuda` stays, giving torch_npu.npu.cuda.current_device().
TEST(MigratePython, DISABLED_TorchCudaSplitAcrossLines) {
  EXPECT_EQ(Migrate("import torch\n"
                    "d = (torch\n"
                    "     .cuda.current_device())\n"),
            "import torch\n" + kImport +
                "\n"
                "d = (torch_npu\n"
                "     .npu.current_device())\n");
}

TEST(MigratePython, UnparsableSourceIsReturnedAsItIs) {
  const std::string broken = "x = y.cuda()\ns = 'never closed\n";
  std::vector<Edit> edits;
  EXPECT_EQ(Migrate(broken, &edits), broken);
  EXPECT_TRUE(edits.empty());
}

TEST(MigratePythonModule, SetupPyStringsAreNotDevices) {
  std::vector<Edit> edits;
  int inserted = -1;
  const std::string setup = "setup(name=\"cuda\", backend=\"nccl\")\n";
  EXPECT_EQ(MigratePythonModule("setup.py", setup, &edits, true, &inserted, true), setup);
  EXPECT_EQ(inserted, 0);
  // Without the import (a notebook's cells get it separately).
  const std::string plain =
      MigratePythonModule("a.py", "x = y.cuda()\n", &edits, false, &inserted, false);
  EXPECT_EQ(plain, "x = y.npu()\n");
  EXPECT_EQ(inserted, 0);
}

TEST(MigrateText, ShellAndYamlReplacementsKeepComments) {
  std::vector<Edit> edits;
  EXPECT_EQ(MigrateText("run.sh",
                        "export CUDA_VISIBLE_DEVICES=0,1  # not CUDA_VISIBLE_DEVICES here\n"
                        "torchrun train.py --ddp_backend nccl\n"
                        "# nvidia-smi\n"
                        "nvidia-smi\n",
                        &edits),
            "export ASCEND_RT_VISIBLE_DEVICES=0,1  # not CUDA_VISIBLE_DEVICES here\n"
            "torchrun train.py --ddp_backend hccl\n"
            "# nvidia-smi\n"
            "npu-smi\n");
  ASSERT_EQ(edits.size(), 3u);
  EXPECT_EQ(edits[0].line, 1);
  EXPECT_EQ(edits[0].message, "CUDA_VISIBLE_DEVICES -> ASCEND_RT_VISIBLE_DEVICES");
  EXPECT_EQ(edits[1].line, 2);
  EXPECT_EQ(edits[2].line, 4);
  edits.clear();
  EXPECT_EQ(MigrateText("acc.yaml", "distributed_type: MULTI_GPU\nbackend: nccl\n", &edits),
            "distributed_type: MULTI_NPU\nbackend: hccl\n");
  const std::string unchanged = "echo npu-smi\n";
  EXPECT_EQ(MigrateText("a.sh", unchanged, &edits), unchanged);
}

// Every occurrence on a line is replaced (once only the first was, and a second run of
// migrate changed the output again, against migrate.h's "running it again on its output
// changes nothing").
TEST(MigrateText, EveryOccurrenceOnALineIsReplaced) {
  std::vector<Edit> edits;
  const std::string once = MigrateText(
      "run.sh", "CUDA_VISIBLE_DEVICES=0 python a.py & CUDA_VISIBLE_DEVICES=1 python b.py\n",
      &edits);
  EXPECT_EQ(once,
            "ASCEND_RT_VISIBLE_DEVICES=0 python a.py & ASCEND_RT_VISIBLE_DEVICES=1 python b.py\n");
  std::vector<Edit> again;
  EXPECT_EQ(MigrateText("run.sh", once, &again), once);
  EXPECT_TRUE(again.empty());
}

TEST(MigrateNotebook, CellsAreRewrittenAndTheImportAddedOnce) {
  std::vector<Edit> edits;
  std::map<std::string, int> inserted;
  const std::string nb = R"nb({"cells": [
 {"cell_type": "markdown", "metadata": {}, "source": ["x.cuda()"]},
 {"cell_type": "code", "metadata": {}, "outputs": [],
  "source": ["import torch\n", "x = torch.zeros(1)"]},
 {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["!nvidia-smi\n", "y = x.cuda()"]}
]}
)nb";
  const std::string out = MigrateNotebook("nb.ipynb", nb, &edits, &inserted);
  const auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["cells"][0]["source"], nlohmann::json::array({"x.cuda()"}));  // markdown stays
  EXPECT_EQ(j["cells"][1]["source"],
            nlohmann::json::array({"import torch\n", kImport + "\n", "x = torch.zeros(1)"}));
  EXPECT_EQ(j["cells"][2]["source"], nlohmann::json::array({"!npu-smi\n", "y = x.npu()"}));
  EXPECT_EQ(inserted, (std::map<std::string, int>{{"nb.ipynb#cell2", 2}}));
  std::vector<std::string> where;
  for (const auto& e : edits) where.push_back(e.file + ":" + std::to_string(e.line) + ":" + e.kind);
  std::sort(where.begin(), where.end());
  EXPECT_EQ(where, (std::vector<std::string>{"nb.ipynb#cell2:2:insert", "nb.ipynb#cell3:1:replace",
                                             "nb.ipynb#cell3:2:replace"}));
}

TEST(MigrateNotebook, NotebookWithoutCudaIsReturnedAsItIs) {
  std::vector<Edit> edits;
  std::map<std::string, int> inserted;
  const std::string nb = R"nb({"cells": [{"cell_type": "code", "source": ["x = 1\n"]}]})nb";
  EXPECT_EQ(MigrateNotebook("nb.ipynb", nb, &edits, &inserted), nb);
  EXPECT_EQ(MigrateNotebook("bad.ipynb", "{oops", &edits, &inserted), "{oops");
  EXPECT_TRUE(edits.empty());
}

class MigrateProjectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "oc_migrate_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    src_ = root_ + "/proj";
    std::filesystem::create_directories(src_ + "/scripts");
    Write(src_ + "/train.py", "import torch\nx = torch.zeros(1).cuda()\ntorch.cuda.nccl.init()\n");
    Write(src_ + "/scripts/run.sh", "CUDA_VISIBLE_DEVICES=0 python train.py\n");
    Write(src_ + "/util.py", "def add(a, b):\n    return a + b\n");
    Write(src_ + "/setup.py", "setup(name=\"cuda\")\n");
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  static void Write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string root_, src_;
};

TEST_F(MigrateProjectTest, CopiesMigratesAndReports) {
  const std::string out = root_ + "/out";
  auto r = MigrateProject(src_, out);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->files_changed, 2);
  // The original is untouched; the copy is migrated; files without CUDA are copied as they are.
  EXPECT_EQ(Read(src_ + "/train.py"),
            "import torch\nx = torch.zeros(1).cuda()\ntorch.cuda.nccl.init()\n");
  EXPECT_EQ(Read(out + "/train.py"),
            "import torch\n" + kImport + "\nx = torch.zeros(1).npu()\ntorch.cuda.nccl.init()\n");
  EXPECT_EQ(Read(out + "/scripts/run.sh"), "ASCEND_RT_VISIBLE_DEVICES=0 python train.py\n");
  EXPECT_EQ(Read(out + "/util.py"), Read(src_ + "/util.py"));
  EXPECT_EQ(Read(out + "/setup.py"), "setup(name=\"cuda\")\n");
  // torch.cuda.nccl has no NPU twin: it is left for a person, at its original line.
  bool nccl_left = false;
  for (const auto& f : r->left)
    if (f.rule == "cuda.nccl" && f.file == "train.py") nccl_left = f.line == 3;
  EXPECT_TRUE(nccl_left);
  const std::string changes = Read(out + "/gpu2npu_report/change_list.csv");
  EXPECT_EQ(changes.rfind("File,Start Line,End Line,Operation Type,Message\n", 0), 0u);
  EXPECT_NE(changes.find("scripts/run.sh,1,1,replace,"), std::string::npos);
  EXPECT_NE(changes.find("train.py,2,2,insert,import torch_npu\n"), std::string::npos);
  EXPECT_NE(changes.find("train.py,2,2,replace,.cuda() -> .npu()\n"), std::string::npos);
  EXPECT_NE(Read(out + "/gpu2npu_report/unmigrated.csv").find("train.py,3,3,"), std::string::npos);
  const std::string diff = Read(out + "/gpu2npu_report/migration.diff");
  EXPECT_EQ(diff, r->diff);
  EXPECT_NE(diff.find("--- a/train.py\n+++ b/train.py\n@@ -1,3 +1,4 @@\n import torch\n"),
            std::string::npos)
      << diff;
  EXPECT_NE(diff.find("-x = torch.zeros(1).cuda()\n"), std::string::npos);
  EXPECT_NE(diff.find("+x = torch.zeros(1).npu()\n"), std::string::npos);
  EXPECT_NE(diff.find("+" + kImport + "\n"), std::string::npos);
  EXPECT_NE(diff.find("--- a/scripts/run.sh\n+++ b/scripts/run.sh\n@@ -1,1 +1,1 @@\n"),
            std::string::npos)
      << diff;
}

TEST_F(MigrateProjectTest, RefusesOverlappingOrNonEmptyOutput) {
  auto inside = MigrateProject(src_, src_ + "/migrated");
  ASSERT_FALSE(inside.ok());
  EXPECT_EQ(
      inside.status().message(),
      "the output folder [" + src_ + "/migrated] must not overlap the project [" + src_ + "]");
  std::filesystem::create_directories(root_ + "/full");
  Write(root_ + "/full/keep.txt", "x");
  auto full = MigrateProject(src_, root_ + "/full");
  ASSERT_FALSE(full.ok());
  EXPECT_EQ(full.status().message(), "the output folder [" + root_ + "/full] is not empty");
  auto missing = MigrateProject(root_ + "/absent", root_ + "/o");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "[" + root_ + "/absent] is not a folder");
  EXPECT_FALSE(std::filesystem::exists(root_ + "/o"));
}

}  // namespace
}  // namespace oc::migrate
