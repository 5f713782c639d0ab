// Host helpers operator packages' tiling code calls: element sizes by data type
// (ge::GetSizeByDataType, ge::TypeUtils::GetDataTypeLength).
#include <gtest/gtest.h>

#include "graph/ascend_string.h"
#include "graph/types.h"
#include "graph/utils/type_utils.h"

namespace {

TEST(HostTypes, ElementSizesByDataType) {
  EXPECT_EQ(ge::GetSizeByDataType(ge::DT_FLOAT16), 2);
  EXPECT_EQ(ge::GetSizeByDataType(ge::DT_BF16), 2);
  EXPECT_EQ(ge::GetSizeByDataType(ge::DT_FLOAT), 4);
  EXPECT_EQ(ge::GetSizeByDataType(ge::DT_INT8), 1);
  EXPECT_EQ(ge::GetSizeByDataType(ge::DT_BOOL), 1);
  EXPECT_EQ(ge::GetSizeByDataType(ge::DT_INT64), 8);
  EXPECT_EQ(ge::GetSizeByDataType(ge::DT_COMPLEX128), 16);
  EXPECT_EQ(ge::GetSizeByDataType(ge::DT_STRING), -1);
  uint32_t length = 7;
  EXPECT_TRUE(ge::TypeUtils::GetDataTypeLength(ge::DT_UINT16, length));
  EXPECT_EQ(length, 2u);
  EXPECT_FALSE(ge::TypeUtils::GetDataTypeLength(ge::DT_UNDEFINED, length));
  EXPECT_EQ(length, 2u);  // untouched
}

TEST(HostTypes, AscendStringHoldsTextWithoutStdString) {
  const ge::AscendString empty, null_text(static_cast<const char*>(nullptr)), a("add"),
      b(std::string("add_custom")), cut("add_custom", 3);
  EXPECT_STREQ(empty.GetString(), "");
  EXPECT_TRUE(null_text.empty());
  EXPECT_EQ(a.GetLength(), 3u);
  EXPECT_EQ(a, cut);
  EXPECT_TRUE(a < b && b > a && a != b);
  EXPECT_TRUE(a == "add" && "add" == a && a != "ad");
  EXPECT_EQ(std::string("op ") + b, "op add_custom");
}

}  // namespace
