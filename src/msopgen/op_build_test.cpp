// op_build's reading of OpDefs: the op spec (types, formats, in-place outputs, attributes)
// and the aic-<unit>-ops-info.ini section the template's scripts parse.
#include "msopgen/op_build.h"

#include <gtest/gtest.h>

#include <string>

#include "register/op_def_registry.h"

namespace oc::msopgen {
namespace {

ops::OpDef MakeDef() {
  ops::OpDef def("NormAddCustom");
  def.Input("x")
      .ParamType(ops::REQUIRED)
      .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
      .Format({ge::FORMAT_ND, ge::FORMAT_NCHW});
  def.Input("bias").ParamType(ops::OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
  def.Output("x").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
  def.Attr("axes").AttrType(ops::OPTIONAL).ListInt({0, -1});
  def.Attr("eps").AttrType(ops::OPTIONAL).Float(0.5f);
  def.Attr("mode").AttrType(ops::REQUIRED).String("mean");
  def.AICore().AddConfig("ascend910b");
  def.AICore().AddConfig("Ascend310B");
  return def;
}

TEST(OpBuild, SpecFromTheOpDef) {
  const ops::OpDef def = MakeDef();
  auto spec = SpecFromOpDef(def);
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->op, "NormAddCustom");
  EXPECT_EQ(spec->kernel_name, "norm_add_custom");
  EXPECT_EQ(spec->combos, 2u);
  EXPECT_EQ(spec->inputs[0].types, (std::vector<std::string>{"DT_FLOAT16", "DT_FLOAT"}));
  EXPECT_EQ(spec->inputs[0].formats, (std::vector<std::string>{"FORMAT_ND", "FORMAT_NCHW"}));
  EXPECT_EQ(spec->inputs[1].param_type, "optional");
  EXPECT_EQ(spec->inputs[1].formats, (std::vector<std::string>{"FORMAT_ND", "FORMAT_ND"}));
  EXPECT_EQ(spec->outputs[0].arg_name, "x_ref");  // named like an input: updated in place
  EXPECT_EQ(spec->attrs[0].type, "listInt");
  EXPECT_EQ(spec->attrs[2].param_type, "required");
  EXPECT_EQ(ComputeUnitsOf(def), (std::vector<std::string>{"ascend910b", "ascend310b"}));
}

TEST(OpBuild, OpsInfoSectionInCannsIniForm) {
  const ops::OpDef def = MakeDef();
  auto spec = SpecFromOpDef(def);
  ASSERT_TRUE(spec.ok());
  const std::string ini = OpsInfoSection(def, *spec);
  for (const char* line :
       {"[NormAddCustom]\n", "input0.name=x\n", "input0.dtype=float16,float32\n",
        "input0.format=ND,NCHW\n", "input1.paramType=optional\n", "output0.name=x\n",
        "attr.list=axes,eps,mode\n", "attr_axes.type=listInt\n", "attr_axes.defaultValue=[0,-1]\n",
        "attr_eps.defaultValue=0.5\n", "attr_mode.paramType=required\n",
        "opFile.value=norm_add_custom\n", "opInterface.value=norm_add_custom\n"})
    EXPECT_NE(ini.find(line), std::string::npos) << line << "\n" << ini;
  // A required attribute has no default.
  EXPECT_EQ(ini.find("attr_mode.defaultValue"), std::string::npos);
}

TEST(OpBuild, ListsOfDifferentLengthsAreRefused) {
  ops::OpDef def("BadCustom");
  def.Input("x").DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
  def.Output("y").DataType({ge::DT_FLOAT16});
  auto spec = SpecFromOpDef(def);
  ASSERT_FALSE(spec.ok());
  EXPECT_NE(spec.status().message().find("op [BadCustom] output [y]: 1 data types where the op's "
                                         "first parameter lists 2"),
            std::string::npos)
      << spec.status().message();
  ops::OpDef no_types("NoTypesCustom");
  no_types.Input("x");
  no_types.Output("y").DataType({ge::DT_FLOAT});
  EXPECT_FALSE(SpecFromOpDef(no_types).ok());
}

}  // namespace
}  // namespace oc::msopgen
