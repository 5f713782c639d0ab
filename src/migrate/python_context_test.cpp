// Unit tests of migrate/python_context.h: whether a token of a small Python source is on the
// main path, behind a flag, in an import guard or in a test (PyContext::UsageAt), the call a
// string is an argument of, where a module's header ends, and which strings are CUDA device
// strings (CudaDevicePrefix).
#include "migrate/python_context.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "migrate/python_lexer.h"
#include "migrate/text_util.h"

namespace oc::migrate {
namespace {

class Ctx {
 public:
  explicit Ctx(const std::string& src) : lines_(Lines(src)) {
    std::string error;
    EXPECT_TRUE(TokenizePython(src, &t_, &error)) << error;
    ctx_ = std::make_unique<PyContext>(t_);
  }
  // The index of the token `text` on `line` (the first one there).
  size_t At(int line, const std::string& text) const {
    for (size_t i = 0; i < t_.size(); ++i)
      if (t_[i].line == line && t_[i].text == text) return i;
    ADD_FAILURE() << "no token [" << text << "] on line " << line;
    return 0;
  }
  Usage UsageOf(int line, const std::string& text, std::string* why = nullptr) const {
    std::string w;
    Usage u = ctx_->UsageAt(At(line, text), &w);
    if (why) *why = w;
    return u;
  }
  const PyContext& ctx() const { return *ctx_; }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
  std::vector<Token> t_;
  std::unique_ptr<PyContext> ctx_;
};

TEST(PyContext, ModuleLevelCodeIsRequired) {
  Ctx c("import torch\nx = torch.zeros(1)\n");
  std::string why = "unset";
  EXPECT_EQ(c.UsageOf(2, "torch", &why), Usage::kRequired);
  EXPECT_EQ(why, "");
}

TEST(PyContext, FlagConditionMakesTheBlockOptional) {
  Ctx c(
      "if args.compile:\n"
      "    model = torch.compile(model)\n"
      "else:\n"
      "    model = model.eval()\n"
      "model.train()\n");
  std::string why;
  EXPECT_EQ(c.UsageOf(2, "compile", &why), Usage::kOptional);
  EXPECT_EQ(why, "behind a condition: if args.compile");
  // The else branch is the flag's other side: also not the main path.
  EXPECT_EQ(c.UsageOf(4, "eval"), Usage::kOptional);
  // The condition itself runs every time; the code after the block is the main path.
  EXPECT_EQ(c.UsageOf(1, "args"), Usage::kRequired);
  EXPECT_EQ(c.UsageOf(5, "train"), Usage::kRequired);
}

TEST(PyContext, AvailabilityCheckIsEvaluatedOnTheMainPath) {
  Ctx c("if torch.cuda.is_available():\n    x = x.cuda()\n");
  EXPECT_EQ(c.UsageOf(1, "cuda"), Usage::kRequired);
  std::string why;
  EXPECT_EQ(c.UsageOf(2, "cuda", &why), Usage::kOptional);
  EXPECT_EQ(why, "behind a condition: if torch.cuda.is_available()");
}

TEST(PyContext, MainGuardAndLoopsAreTheMainPath) {
  Ctx c(
      "if __name__ == \"__main__\":\n"
      "    main()\n"
      "while is_running:\n"
      "    step()\n"
      "for x in use_items:\n"
      "    go(x)\n");
  EXPECT_EQ(c.UsageOf(2, "main"), Usage::kRequired);
  EXPECT_EQ(c.UsageOf(4, "step"), Usage::kRequired);
  EXPECT_EQ(c.UsageOf(6, "go"), Usage::kRequired);
}

TEST(PyContext, ImportGuardsAndTheirFallbacksAreOptional) {
  Ctx c(
      "try:\n"
      "    import apex\n"
      "except ImportError:\n"
      "    apex = None\n"
      "try:\n"
      "    run()\n"
      "except ValueError:\n"
      "    pass\n");
  std::string why;
  EXPECT_EQ(c.UsageOf(2, "apex", &why), Usage::kOptional);
  EXPECT_EQ(why, "guarded by try/except ImportError");
  EXPECT_EQ(c.UsageOf(4, "apex", &why), Usage::kOptional);
  EXPECT_EQ(why, "in an except ImportError fallback");
  // A try that only handles other errors is the main path.
  EXPECT_EQ(c.UsageOf(6, "run"), Usage::kRequired);
}

TEST(PyContext, TestFunctionsAreAuxiliaryAndCompileHelpersOptional) {
  Ctx c(
      "def test_forward():\n"
      "    model.cuda()\n"
      "def maybe_compile(m):\n"
      "    return torch.compile(m)\n"
      "def forward(x):\n"
      "    return x.cuda()\n");
  std::string why;
  EXPECT_EQ(c.UsageOf(2, "cuda", &why), Usage::kAuxiliary);
  EXPECT_EQ(why, "a test function");
  EXPECT_EQ(c.UsageOf(4, "compile", &why), Usage::kOptional);
  EXPECT_EQ(why, "in maybe_compile(), which compiles on request");
  EXPECT_EQ(c.UsageOf(6, "cuda"), Usage::kRequired);
  EXPECT_TRUE(c.ctx().InFunction(c.At(6, "cuda")));
}

TEST(PyContext, InlineConditionalValueIsOptionalButItsFlagIsNot) {
  Ctx c("device = \"cuda\" if use_cuda else \"cpu\"\n");
  EXPECT_EQ(c.UsageOf(1, "cuda"), Usage::kOptional);
  EXPECT_EQ(c.UsageOf(1, "use_cuda"), Usage::kRequired);
}

TEST(PyContext, NestedBlocksInheritTheOuterUsage) {
  Ctx c(
      "if cfg.use_amp:\n"
      "    for p in params:\n"
      "        with ctx():\n"
      "            p.cuda()\n");
  std::string why;
  EXPECT_EQ(c.UsageOf(4, "cuda", &why), Usage::kOptional);
  EXPECT_EQ(why, "behind a condition: if cfg.use_amp");
}

TEST(PyContext, EnclosingCallNamesTheFunctionOfAnArgument) {
  Ctx c(
      "p = os.path.join(root, \"cuda\")\n"
      "d = torch.device(\"cuda\", index)\n"
      "l = [\"cuda\"]\n"
      "v = \"cuda\"\n");
  EXPECT_EQ(c.ctx().EnclosingCall(c.At(1, "cuda")), "join");
  EXPECT_EQ(c.ctx().EnclosingCall(c.At(2, "cuda")), "device");
  EXPECT_EQ(c.ctx().EnclosingCall(c.At(3, "cuda")), "");
  EXPECT_EQ(c.ctx().EnclosingCall(c.At(4, "cuda")), "");
  EXPECT_TRUE(PathCall("join"));
  EXPECT_TRUE(PathCall("glob"));
  EXPECT_FALSE(PathCall("device"));
  EXPECT_FALSE(PathCall(""));
}

TEST(PyContext, HeaderEndsAfterShebangDocstringAndFutureImports) {
  Ctx c(
      "#!/usr/bin/env python\n"
      "# -*- coding: utf-8 -*-\n"
      "\"\"\"Module doc\n"
      "on two lines.\"\"\"\n"
      "from __future__ import annotations\n"
      "import os\n");
  EXPECT_EQ(c.ctx().HeaderEndLine(c.lines()), 5);
  Ctx plain("import os\n");
  EXPECT_EQ(plain.ctx().HeaderEndLine(plain.lines()), 0);
  Ctx shebang("#!/bin/python\nx = 1\n");
  EXPECT_EQ(shebang.ctx().HeaderEndLine(shebang.lines()), 1);
}

Token Str(const std::string& value, const std::string& prefix = "") {
  Token t;
  t.kind = Token::kString;
  t.text = value;
  t.prefix = prefix;
  return t;
}

TEST(PyContext, CudaDevicePrefixRecognisesDeviceStrings) {
  EXPECT_EQ(CudaDevicePrefix(Str("cuda")), 4u);
  EXPECT_EQ(CudaDevicePrefix(Str("cuda:0")), 4u);
  EXPECT_EQ(CudaDevicePrefix(Str("cuda:12")), 4u);
  EXPECT_EQ(CudaDevicePrefix(Str("cuda:")), 4u);  // "cuda:" + str(rank)
  EXPECT_EQ(CudaDevicePrefix(Str("cuda:{rank}", "f")), 4u);
  EXPECT_EQ(CudaDevicePrefix(Str("cuda:{}")), 4u);  // "cuda:{}".format(rank)
  EXPECT_EQ(CudaDevicePrefix(Str("cuda:%d")), 4u);  // "cuda:%d" % rank
}

TEST(PyContext, CudaDevicePrefixRefusesOtherStrings) {
  EXPECT_EQ(CudaDevicePrefix(Str("CUDA")), 0u);
  EXPECT_EQ(CudaDevicePrefix(Str("cudart")), 0u);
  EXPECT_EQ(CudaDevicePrefix(Str("cuda:0,1")), 0u);
  EXPECT_EQ(CudaDevicePrefix(Str("cuda:{a}-{b}", "f")), 0u);
  EXPECT_EQ(CudaDevicePrefix(Str("cuda:%d", "f")), 0u);
  EXPECT_EQ(CudaDevicePrefix(Str("csrc/cuda")), 0u);
  Token doc = Str("cuda");
  doc.docstring = true;
  EXPECT_EQ(CudaDevicePrefix(doc), 0u);
  Token name;
  name.kind = Token::kName;
  name.text = "cuda";
  EXPECT_EQ(CudaDevicePrefix(name), 0u);
}

}  // namespace
}  // namespace oc::migrate
