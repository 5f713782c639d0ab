// kernel_utils.h: the header CANN's CPU-debug builds (__CCE_KT_TEST__) include for the
// kernel qualifiers and integer types; here it is the kernel API itself.
#pragma once

#include <cstdint>

#include "kernel_operator.h"
