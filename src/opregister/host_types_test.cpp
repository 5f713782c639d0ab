// Host helpers operator packages' tiling code calls: element sizes by data type
// (ge::GetSizeByDataType, ge::TypeUtils::GetDataTypeLength).
#include <gtest/gtest.h>

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

}  // namespace
