// libFuzzer: gpu2npu's Python tokenizer, analyzers and rewriters on arbitrary text, and its
// notebook reader and rewriter on arbitrary JSON-ish text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "migrate/analyzers.h"
#include "migrate/migrate.h"
#include "migrate/python_lexer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<oc::migrate::Token> tokens;
  std::string error;
  (void)oc::migrate::TokenizePython(text, &tokens, &error);
  (void)oc::migrate::AnalyzePython("fuzz.py", text);
  (void)oc::migrate::AnalyzeNotebook("fuzz.ipynb", text);
  // The rewriters on the same text: spans, the inserted import, notebook cells.
  std::vector<oc::migrate::Edit> edits;
  std::map<std::string, int> inserted;
  int at = 0;
  (void)oc::migrate::MigratePythonModule("fuzz.py", text, &edits, true, &at, false);
  (void)oc::migrate::MigrateNotebook("fuzz.ipynb", text, &edits, &inserted);
  return 0;
}
