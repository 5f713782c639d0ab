// Conversion as a library: the frontend registry, input shapes, gears and the .om file,
// driven without atc. Models come from the ONNX conformance data (libonnx-testdata).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "driver/convert.h"
#include "frontend/frontend.h"
#include "runtime/model.h"

namespace oc {
namespace {

const std::string kNodeData = "/usr/share/libonnx-testdata/data/node/";

ConvertOptions Relu() {
  ConvertOptions o;
  o.model = kNodeData + "test_relu/model.onnx";  // x: [3,4,5] float
  o.soc_version = "Ascend910B4";
  return o;
}

TEST(Driver, FrontendsAreFoundByFramework) {
  const Frontend* onnx = FrontendRegistry::Global().Find("5");
  ASSERT_NE(onnx, nullptr);
  EXPECT_EQ(onnx->name, "ONNX");
  ConvertOptions o = Relu();
  o.framework = "7";  // no such framework
  auto r = ImportModel(o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), "E10001");
  EXPECT_NE(r.status().message().find("0 (Caffe), 1 (MindSpore), 3 (TensorFlow), 5 (ONNX)"),
            std::string::npos)
      << r.status().message();
}

TEST(Driver, ConvertsAndRecordsTheTarget) {
  auto c = Convert(Relu());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->graphs.size(), 1u);
  EXPECT_EQ(c->write.soc_version, "Ascend910B4");
  EXPECT_EQ(c->write.model_attrs.at("framework_type"), "5");
  EXPECT_FALSE(c->pass_log.empty());
  EXPECT_FALSE(c->write.dynamic);
}

TEST(Driver, RefusesWhatIsMissing) {
  ConvertOptions o = Relu();
  o.model = "/nonexistent/model.onnx";
  auto r = Convert(o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), "E10001");
  o = Relu();
  o.shapes = {{"nope", {3, 4, 5}, {}}};
  r = Convert(o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), "E10016");
}

TEST(Driver, GearsGiveOneGraphEach) {
  ConvertOptions o = Relu();
  auto shapes = ParseInputShapes("x:-1,4,5");
  ASSERT_TRUE(shapes.ok());
  o.shapes = shapes.value();
  const std::string batches = "1,2,3";
  auto gears = ParseGearOption(&batches, nullptr, nullptr);
  ASSERT_TRUE(gears.ok());
  o.gears = gears.value();
  auto c = Convert(o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_EQ(c->graphs.size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(c->graphs[k].gear, std::vector<int64_t>{static_cast<int64_t>(k + 1)});
    EXPECT_EQ(c->graphs[k].graph.inputs.back(), kDynamicGearInput);
  }
}

TEST(Driver, WritesALoadableOmNamedAfterTheFile) {
  char dir[] = "/tmp/oc_driver_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/relu_model.om";
  ASSERT_TRUE(ConvertToOmFile(Relu(), path).ok());
  auto m = Model::LoadFile(path);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m.value()->name(), "relu_model");
  EXPECT_EQ(m.value()->attrs().at("soc_version"), "Ascend910B4");
  std::remove(path.c_str());
  rmdir(dir);
}

}  // namespace
}  // namespace oc
