// libFuzzer: gpu2npu's Python tokenizer and analyzers on arbitrary text, and its notebook
// reader on arbitrary JSON-ish text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "migrate/analyzers.h"
#include "migrate/python_lexer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<oc::migrate::Token> tokens;
  std::string error;
  (void)oc::migrate::TokenizePython(text, &tokens, &error);
  (void)oc::migrate::AnalyzePython("fuzz.py", text);
  (void)oc::migrate::AnalyzeNotebook("fuzz.ipynb", text);
  return 0;
}
