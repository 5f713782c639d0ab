// Unit tests of ccec's command line and its rewrite of <<<>>> kernel launches.
#include "ccec/ccec_driver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace oc::ccec {
namespace {

TEST(CcecCommandLine, ReadsTheSamplesCompileLine) {
  // The kernel_invocation samples' ccec call: one Ascend C and one host source, linked.
  auto r = ParseCommandLine({"-x", "cce", "add_custom.cpp", "-x", "c++", "main.cpp",
                             "--cce-aicore-arch=dav-c220-vec", "-O2", "-std=c++17", "-Iinc",
                             "-L/lib", "-lruntime", "-lascendcl", "-o", "add_custom_npu"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->inputs.size(), 2u);
  EXPECT_EQ(r->inputs[0].language, Language::kCce);
  EXPECT_EQ(r->inputs[1].language, Language::kCxx);
  EXPECT_EQ(r->output, "add_custom_npu");
  EXPECT_EQ(r->core_type, "VecCore");
  EXPECT_EQ(r->soc, "Ascend910B3");
  EXPECT_EQ(r->link_flags, (std::vector<std::string>{"-L/lib", "-lruntime", "-lascendcl"}));
  EXPECT_EQ(r->host_flags, (std::vector<std::string>{"-O2", "-Iinc"}));
}

TEST(CcecCommandLine, BishengFormsAndCMakeCompileLine) {
  auto r =
      ParseCommandLine({"-xcce", "--cce-soc-version=Ascend910B1", "--cce-soc-core-type=CubeCore",
                        "-MD", "-MT", "k.o", "-MF", "k.o.d", "-o", "k.o", "-c", "k.cpp"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->compile_only);
  EXPECT_EQ(r->soc, "Ascend910B1");
  auto defines = DeviceDefines(*r);
  EXPECT_NE(std::find(defines.begin(), defines.end(), "-D__DAV_C220_CUBE__=1"), defines.end());
  EXPECT_NE(std::find(defines.begin(), defines.end(), "-DOCANN_TIKICPU_SOC=\"Ascend910B1\""),
            defines.end());
  EXPECT_EQ(r->inputs.at(0).language, Language::kCce);
  // The CCE attribute [aicore] that NPU-mode headers spell __aicore__ with compiles.
  EXPECT_NE(std::find(defines.begin(), defines.end(), "-Daicore=[]"), defines.end());
}

TEST(CcecCommandLine, BishengNpuArchAndAscSources) {
  // bisheng hello_world.asc --npu-arch=dav-2201: .asc sources are Ascend C.
  auto r = ParseCommandLine({"hello_world.asc", "--npu-arch=dav-2201", "-o", "demo"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->inputs.at(0).language, Language::kCce);
  EXPECT_FALSE(ParseCommandLine({"k.asc", "--npu-arch=dav-3510"}).ok());
}

TEST(CcecCommandLine, FindPackageAscCompileLine) {
  // CMake's ASC language rule (find_package(ASC)): --asc-aicore-lang before the source, the
  // run mode, and ascendc_compile_options' device/host brackets.
  auto r =
      ParseCommandLine({"-DX=1", "-Iinc", "-std=c++17", "-O3", "--npu-arch=dav-2201",
                        "--run-mode=cpu", "-Xaicore-start", "-O2", "-Xaicore-end", "-Xhost-start",
                        "-Xhost-end", "-o", "k.asc.o", "-c", "--asc-aicore-lang", "k.asc"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->compile_only);
  EXPECT_EQ(r->inputs.at(0).language, Language::kCce);
  EXPECT_EQ(ParseCommandLine({"-x", "asc", "k.cpp"})->inputs.at(0).language, Language::kCce);
  EXPECT_FALSE(ParseCommandLine({"--run-mode=fpga", "k.asc"}).ok());
  auto simt = ParseCommandLine({"--enable-simt", "k.asc"});
  ASSERT_FALSE(simt.ok());
  EXPECT_NE(simt.status().message().find("SIMT"), std::string::npos);
  EXPECT_FALSE(ParseCommandLine({"--aicore-only", "k.asc"}).ok());
}

TEST(CcecCommandLine, NpuOnlyOptionsAndOtherChipsAreRefused) {
  for (const char* bad : {"-S", "--cce-aicore-only"}) {
    auto r = ParseCommandLine({"-xcce", bad, "k.cpp"});
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("NPU machine code"), std::string::npos);
  }
  auto arch = ParseCommandLine({"--cce-aicore-arch=dav-m200", "-xcce", "k.cpp"});
  ASSERT_FALSE(arch.ok());
  EXPECT_NE(arch.status().message().find("not modelled"), std::string::npos);
  auto soc = ParseCommandLine({"--cce-soc-version=Ascend310P3", "-xcce", "k.cpp"});
  ASSERT_FALSE(soc.ok());
  EXPECT_FALSE(ParseCommandLine({"--cce-made-up", "k.cpp"}).ok());
  EXPECT_FALSE(ParseCommandLine({"-O2"}).ok());  // no input
  EXPECT_FALSE(ParseCommandLine({"-c", "a.cpp", "b.cpp", "-o", "x.o"}).ok());
}

TEST(CcecCommandLine, CodeGenerationOptionsAreRecordedWithAWarning) {
  auto r = ParseCommandLine({"-mllvm", "-cce-aicore-record-overflow=true", "--cce-fatobj-link",
                             "--cce-auto-sync", "-xcce", "k.cpp"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->warnings.size(), 2u);
  EXPECT_NE(r->warnings[0].find("-cce-aicore-record-overflow=true"), std::string::npos);
  EXPECT_NE(r->warnings[1].find("--cce-auto-sync"), std::string::npos);
}

TEST(CcecRewrite, LaunchesBecomeStreamLaunches) {
  auto r = RewriteLaunches(
      "void f(){ add_custom<<<8, nullptr, stream>>>(x, y, z); }\n"
      "void g(){ ns::k<half, 2> <<< n, l2,\n s >>> (a); }\n",
      "k.cpp");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->find("::oc_ccec::Launch<&add_custom>(\"add_custom\", 8, nullptr, stream)(x, y, z)"),
            std::string::npos)
      << *r;
  EXPECT_NE(r->find("::oc_ccec::Launch<&ns::k<half, 2>>(\"k\",  n, l2,\n s )"), std::string::npos)
      << *r;
  EXPECT_EQ(r->rfind("#line 1 \"k.cpp\"\n", 0), 0u);
}

TEST(CcecRewrite, CoreTypeMarksSelectTheCores) {
  // A __cube__ kernel launches on cube cores only (KERNEL_TYPE_AIC_ONLY = 1), a __vector__ one
  // on vector cores (0); an unmarked one as before.
  auto r = RewriteLaunches(
      "__global__ __cube__ void mm(GM_ADDR a) {}\n"
      "extern \"C\" __global__ __aicore__ __vector__ void\n  add(GM_ADDR x) {}\n"
      "__global__ __aicore__ void plain(GM_ADDR x) {}\n"
      "void h(){ mm<<<20, nullptr, s>>>(a); add<<<8, nullptr, s>>>(x); plain<<<1, nullptr, "
      "s>>>(x); }\n",
      "k.asc");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->find("::oc_ccec::Launch<&mm, 1>(\"mm\""), std::string::npos) << *r;
  EXPECT_NE(r->find("::oc_ccec::Launch<&add, 0>(\"add\""), std::string::npos) << *r;
  EXPECT_NE(r->find("::oc_ccec::Launch<&plain>(\"plain\""), std::string::npos) << *r;
}

TEST(CcecRewrite, MarksInIncludedFilesCount) {
  // The kernel lives in an included .asc (marked there), the launch in the including file.
  const auto dir = std::filesystem::temp_directory_path() / "oc_ccec_marks_test";
  std::filesystem::create_directories(dir / "inc");
  std::ofstream(dir / "kernel.asc") << "#include \"inc/more.h\"\n"
                                       "extern \"C\" __global__ __cube__ void mm(GM_ADDR a) {}\n";
  std::ofstream(dir / "inc" / "more.h") << "__global__ __mix__(1, 2) void fused(GM_ADDR a) {}\n";
  std::ofstream(dir / "other.h") << "__global__ __vector__ void vec(GM_ADDR a) {}\n";
  auto r = RewriteLaunches(
      "#include \"kernel.asc\"\n#include \"other.h\"\n"
      "void h(){ mm<<<1, 0, s>>>(a); fused<<<1, 0, s>>>(a); vec<<<1, 0, s>>>(a); }\n",
      (dir / "host.asc").string());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->find("::oc_ccec::Launch<&mm, 1>"), std::string::npos) << *r;
  EXPECT_NE(r->find("::oc_ccec::Launch<&fused, 5>"), std::string::npos) << *r;
  EXPECT_NE(r->find("::oc_ccec::Launch<&vec, 0>"), std::string::npos) << *r;
  // Found through an -I folder too.
  auto r2 = RewriteLaunches("#include \"more.h\"\nvoid h(){ fused<<<1, 0, s>>>(a); }\n",
                            (dir / "host.asc").string(), {(dir / "inc").string()});
  ASSERT_TRUE(r2.ok());
  EXPECT_NE(r2->find("::oc_ccec::Launch<&fused, 5>"), std::string::npos) << *r2;
  std::filesystem::remove_all(dir);
}

TEST(CcecRewrite, MixMarksDeclareTheirRatio) {
  // __mix__(1, 2): one cube and two vector cores per launch unit (KERNEL_TYPE_MIX_AIC_1_2 = 5);
  // __mix__(1, 1) is 4. A ratio the NPU does not have leaves the kernel unmarked.
  auto r = RewriteLaunches(
      "__global__ __mix__(1, 2) void mm(GM_ADDR a, AscendC::tiling::TCubeTiling t) {}\n"
      "__global__ __mix__( 1 , 1 ) void mm11(GM_ADDR a) {}\n"
      "__global__ __mix__(3, 5) void odd(GM_ADDR a) {}\n"
      "void h(){ mm<<<1, 0, s>>>(a, t); mm11<<<1, 0, s>>>(a); odd<<<1, 0, s>>>(a); }\n",
      "k.asc");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_NE(r->find("::oc_ccec::Launch<&mm, 5>(\"mm\""), std::string::npos) << *r;
  EXPECT_NE(r->find("::oc_ccec::Launch<&mm11, 4>(\"mm11\""), std::string::npos) << *r;
  EXPECT_NE(r->find("::oc_ccec::Launch<&odd>(\"odd\""), std::string::npos) << *r;
}

TEST(CcecRewrite, CommentsAndStringsAreLeftAlone) {
  const std::string text =
      "// k<<<1, nullptr, s>>>(a);\n/* k<<<1>>>() */\nconst char* t = \"k<<<1, 0, s>>>(a)\";\n";
  auto r = RewriteLaunches(text, "k.cpp");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->find("oc_ccec"), std::string::npos);
}

TEST(CcecRewrite, BrokenLaunchesAreReportedWithTheLine) {
  auto r = RewriteLaunches("int a;\nk<<<1, nullptr, s(a);\n", "k.cpp");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("k.cpp:2"), std::string::npos) << r.status().message();
  EXPECT_FALSE(RewriteLaunches("x = <<<1, 0, s>>>(a);", "k.cpp").ok());
  EXPECT_FALSE(RewriteLaunches("k<<<1, 0, s>>>;", "k.cpp").ok());
}

}  // namespace
}  // namespace oc::ccec
