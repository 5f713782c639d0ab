// The Matmul API by its path before CANN 8.0 (lib/matrix/matmul/matmul.h); the same as
// lib/matmul_intf.h.
#pragma once
#include "lib/matmul_intf.h"
