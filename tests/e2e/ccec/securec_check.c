/* libc_sec from C: the bounds-checked functions return securec's codes and leave the
 * destination as securec does (tests/e2e/test_ccec.py). Prints one line per check. */
#include <stdio.h>
#include <string.h>

#include "securec.h"

int main(void) {
  char buf[8];
  int fails = 0;
#define EXPECT(cond)                 \
  do {                               \
    if (!(cond)) {                   \
      printf("FAILED: %s\n", #cond); \
      ++fails;                       \
    }                                \
  } while (0)
  EXPECT(memcpy_s(buf, sizeof(buf), "abcdefg", 8) == EOK && strcmp(buf, "abcdefg") == 0);
  EXPECT(memcpy_s(buf, sizeof(buf), "abcdefghi", 9) == ERANGE_AND_RESET && buf[0] == 0);
  EXPECT(memcpy_s(NULL, 4, "a", 1) == EINVAL);
  EXPECT(memcpy_s(buf, 0, "a", 1) == ERANGE);
  EXPECT(memcpy_s(buf, sizeof(buf), buf + 1, 4) == EOVERLAP_AND_RESET);
  EXPECT(memmove_s(buf, sizeof(buf), "xyz", 4) == EOK && memmove_s(buf, 8, buf + 1, 3) == EOK &&
         strcmp(buf, "yz") == 0);
  EXPECT(memset_s(buf, sizeof(buf), 'q', 9) == ERANGE_AND_RESET && buf[7] == 'q');
  EXPECT(strcpy_s(buf, sizeof(buf), "1234567") == EOK);
  EXPECT(strcpy_s(buf, sizeof(buf), "12345678") == ERANGE_AND_RESET && buf[0] == 0);
  EXPECT(strncpy_s(buf, sizeof(buf), "123456789", 3) == EOK && strcmp(buf, "123") == 0);
  EXPECT(strcat_s(buf, sizeof(buf), "4567") == EOK && strcmp(buf, "1234567") == 0);
  EXPECT(strcat_s(buf, sizeof(buf), "8") == ERANGE_AND_RESET && buf[0] == 0);
  EXPECT(sprintf_s(buf, sizeof(buf), "%d-%s", 42, "ab") == 5 && strcmp(buf, "42-ab") == 0);
  EXPECT(sprintf_s(buf, sizeof(buf), "%s", "too long text") == -1 && buf[0] == 0);
  EXPECT(snprintf_s(buf, sizeof(buf), 3, "%s", "abcdef") == -1 && strcmp(buf, "abc") == 0);
  EXPECT(snprintf_s(buf, sizeof(buf), 7, "%d", 12) == 2 && strcmp(buf, "12") == 0);
  printf(fails ? "securec: %d checks failed\n" : "securec: all checks passed\n", fails);
  return fails != 0;
}
