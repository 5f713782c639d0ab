#include "migrate/migrate.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "base/file.h"
#include "migrate/analysis.h"
#include "migrate/python_context.h"
#include "migrate/python_lexer.h"
#include "migrate/text_util.h"

namespace fs = std::filesystem;

namespace oc::migrate {
namespace {

std::vector<std::string> SplitLines(const std::string& text, bool* trailing_newline) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  *trailing_newline = !text.empty() && text.back() == '\n';
  return lines;
}

std::string JoinLines(const std::vector<std::string>& lines, bool trailing_newline) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i)
    out += lines[i] + (i + 1 < lines.size() || trailing_newline ? "\n" : "");
  return out;
}

struct Span {
  int line, col;  // 1-based line, 0-based byte column
  size_t len;
  std::string with, message;
};

// Applies spans (no overlaps) right to left on each line.
void Apply(std::vector<std::string>* lines, std::vector<Span> spans, const std::string& file,
           std::vector<Edit>* edits) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    return std::tie(a.line, a.col) > std::tie(b.line, b.col);
  });
  std::map<int, std::pair<std::string, std::vector<std::string>>> per_line;  // before, messages
  int last_line = -1, last_col = -1;
  for (const auto& s : spans) {
    if (s.line == last_line && s.col + static_cast<int>(s.len) > last_col) continue;  // overlaps
    last_line = s.line, last_col = s.col;
    std::string& l = (*lines)[s.line - 1];
    if (s.col < 0 || s.col + s.len > l.size()) continue;
    auto& entry = per_line[s.line];
    if (entry.first.empty()) entry.first = l;
    l.replace(static_cast<size_t>(s.col), s.len, s.with);
    entry.second.push_back(s.message);
  }
  for (auto& [line, entry] : per_line) {
    std::string msg;
    for (auto it = entry.second.rbegin(); it != entry.second.rend(); ++it)
      msg += (msg.empty() ? "" : "; ") + *it;
    edits->push_back({file, line, "replace", entry.first, (*lines)[line - 1], msg});
  }
}

}  // namespace

namespace {

// torch.cuda members that have no NPU counterpart of the same name and meaning: never
// rewritten (the analysis lists them for a person).
bool KeepCudaMember(const std::string& name) {
  return name == "nccl" || name == "comm" || name == "get_device_capability" ||
         name == "memory_usage" || name == "jiterator";
}

// torch.cuda members whose NPU name differs.
std::string NpuMemberName(const std::string& name) {
  return name == "CUDAGraph" ? "NPUGraph" : name;
}

}  // namespace

// The rewrite of one Python module. `insert_import`: add `import torch_npu` when anything
// changed; `*inserted_at` gets the new line's number (0: none).
std::string MigratePythonModule(const std::string& file, const std::string& text,
                                std::vector<Edit>* edits, bool insert_import, int* inserted_at,
                                bool setup_py) {
  if (inserted_at) *inserted_at = 0;
  std::vector<Token> t;
  std::string error;
  if (!TokenizePython(text, &t, &error)) return text;  // the analysis lists it as skipped
  const PyContext ctx(t);
  bool trailing = false;
  auto lines = SplitLines(text, &trailing);
  const bool crlf = !lines.empty() && !lines[0].empty() && lines[0].back() == '\r';
  std::vector<Span> spans;
  auto at = [&](const Token& k) { return k.column - 1; };
  bool imports_npu = false;
  int last_torch_import = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const Token& k = t[i];
    const bool line_start = i == 0 || t[i - 1].kind == Token::kNewline;
    if (line_start && k.kind == Token::kName && (k.text == "import" || k.text == "from") &&
        i + 1 < t.size()) {
      if (t[i + 1].text == "torch_npu") imports_npu = true;
      if (t[i + 1].text == "torch" && !ctx.InFunction(i) && k.column == 1) {
        size_t end = i;  // the statement may span lines (parentheses)
        while (end < t.size() && t[end].kind != Token::kNewline) ++end;
        last_torch_import = end < t.size() ? t[end].line : static_cast<int>(lines.size());
      }
    }
    if (k.kind == Token::kString && !k.docstring) {
      static const std::map<std::string, std::pair<std::string, std::string>> kStrings = {
          {"nccl", {"hccl", "NCCL backend -> HCCL"}},
          {"CUDA_VISIBLE_DEVICES", {"ASCEND_RT_VISIBLE_DEVICES", "device visibility variable"}},
          {"nvidia-smi", {"npu-smi", "device status tool"}}};
      std::string value = k.text, with, why;
      size_t len = value.size();
      // Folder and file names (glob("csrc/cuda/*"), join(root, "cuda")) and setup.py's
      // strings are paths, not devices: rewriting them breaks the build.
      const bool path = setup_py || PathCall(ctx.EnclosingCall(i));
      if (auto it = kStrings.find(value); it != kStrings.end() && !path) {
        with = it->second.first, why = it->second.second;
      } else if (const size_t n = CudaDevicePrefix(k); n && !path) {
        with = "npu", len = n, why = "device string";
      }
      if (!with.empty()) {
        // The literal's text on its line: the value right after the opening quote.
        const std::string& l = lines[k.line - 1];
        const size_t q = l.find_first_of("'\"", static_cast<size_t>(at(k)));
        if (q != std::string::npos && l.compare(q + 1, len, value, 0, len) == 0)
          spans.push_back({k.line, static_cast<int>(q + 1), len, with,
                           why + ": \"" + value + "\" -> \"" + with + value.substr(len) + "\""});
      }
      continue;
    }
    if (k.kind == Token::kOp && k.text == "." && i + 1 < t.size() &&
        t[i + 1].kind == Token::kName) {
      const Token& n = t[i + 1];
      const bool call = i + 2 < t.size() && t[i + 2].text == "(";
      // torch.cuda.X / torch.cuda as written: the chain starts at the name before the dot.
      if (n.text == "cuda" && i > 0 && t[i - 1].kind == Token::kName && t[i - 1].text == "torch" &&
          (i < 2 || t[i - 2].text != ".")) {
        const Token& torch_tok = t[i - 1];
        const bool member =
            i + 3 < t.size() && t[i + 2].text == "." && t[i + 3].kind == Token::kName;
        std::string name = member ? t[i + 3].text : "";
        // from torch.cuda import X: X decides.
        const bool from_import = i >= 2 && t[i - 2].text == "from";
        if (from_import && !member) {
          size_t j = i + 2;
          while (j < t.size() && t[j].kind != Token::kNewline && t[j].text != "import") ++j;
          bool keep = false;
          for (size_t m = j + 1; m < t.size() && t[m].kind != Token::kNewline; ++m)
            if (t[m].kind == Token::kName && t[m - 1].text != "as") {
              keep |= KeepCudaMember(t[m].text);
              if (t[m].text == "CUDAGraph") {
                const bool aliased = m + 1 < t.size() && t[m + 1].text == "as";
                spans.push_back({t[m].line, at(t[m]), 9,
                                 aliased ? "NPUGraph" : "NPUGraph as CUDAGraph",
                                 "CUDAGraph -> NPUGraph (torch_npu >= 7.0.0)"});
              }
            }
          if (keep) {
            // Leave the whole statement (and drop the CUDAGraph span just added on it).
            while (!spans.empty() && spans.back().line == torch_tok.line) spans.pop_back();
            ++i;
            continue;
          }
        }
        if (KeepCudaMember(name)) {
          ++i;
          continue;
        }
        spans.push_back({torch_tok.line, at(torch_tok),
                         n.column - torch_tok.column + n.text.size() - 1 + 1, "torch_npu.npu",
                         "torch.cuda -> torch_npu.npu"});
        if (member && NpuMemberName(name) != name)
          spans.push_back({t[i + 3].line, at(t[i + 3]), name.size(), NpuMemberName(name),
                           name + " -> " + NpuMemberName(name) + " (torch_npu >= 7.0.0)"});
        ++i;
        continue;
      }
      // torch.profiler.ProfilerActivity.CUDA / ProfilerActivity.CUDA -> the NPU profiler's NPU.
      if (n.text == "profiler" && i > 0 && t[i - 1].text == "torch" &&
          (i < 2 || t[i - 2].text != ".")) {
        const Token& torch_tok = t[i - 1];
        spans.push_back({torch_tok.line, at(torch_tok), 5, "torch_npu",
                         "torch.profiler -> torch_npu.profiler"});
      }
      if (n.text == "CUDA" && i > 0 && t[i - 1].text == "ProfilerActivity")
        spans.push_back({n.line, at(n), 4, "NPU", "ProfilerActivity.CUDA -> ProfilerActivity.NPU"});
      if (n.text == "cuda" && call) spans.push_back({n.line, at(n), 4, "npu", ".cuda() -> .npu()"});
      if (n.text == "is_cuda") spans.push_back({n.line, at(n), 7, "is_npu", ".is_cuda -> .is_npu"});
      if (n.text == "NCCL" && i > 0 && t[i - 1].text == "Backend")
        spans.push_back({n.line, at(n), 4, "HCCL", "Backend.NCCL -> Backend.HCCL"});
      // "hccl" if dist.is_nccl_available() else "gloo" must pick HCCL on an NPU.
      if (n.text == "is_nccl_available")
        spans.push_back(
            {n.line, at(n), 17, "is_hccl_available", "is_nccl_available -> is_hccl_available"});
      ++i;
      continue;
    }
    // from torch import cuda [as x] -> from torch_npu import npu as cuda|x
    if (line_start && k.text == "from" && i + 3 < t.size() && t[i + 1].text == "torch" &&
        t[i + 2].text == "import") {
      for (size_t j = i + 3; j < t.size() && t[j].kind != Token::kNewline; ++j)
        if (t[j].text == "cuda" && t[j].kind == Token::kName && t[j - 1].text != "as") {
          const bool aliased = j + 1 < t.size() && t[j + 1].text == "as";
          if (j == i + 3 && (j + 1 >= t.size() || t[j + 1].kind == Token::kNewline || aliased)) {
            spans.push_back({t[i + 1].line, at(t[i + 1]), 5, "torch_npu",
                             "from torch import cuda -> from torch_npu import npu"});
            spans.push_back(
                {t[j].line, at(t[j]), 4, aliased ? "npu" : "npu as cuda", "cuda -> npu"});
          }
        }
    }
  }
  if (spans.empty()) return text;
  Apply(&lines, spans, file, edits);
  // `import torch_npu` after the module-level torch import, else after the module header
  // (shebang, encoding line, docstring, __future__ imports), once.
  if (!imports_npu && insert_import) {
    const int after = last_torch_import ? last_torch_import : ctx.HeaderEndLine(lines);
    lines.insert(lines.begin() + after, std::string("import torch_npu  # added by gpu2npu: "
                                                    "registers the NPU device") +
                                            (crlf ? "\r" : ""));
    edits->push_back({file, after + 1, "insert", "", lines[after], "import torch_npu"});
    if (inserted_at) *inserted_at = after + 1;
  }
  return JoinLines(lines, trailing);
}

std::string MigratePython(const std::string& file, const std::string& text,
                          std::vector<Edit>* edits) {
  return MigratePythonModule(file, text, edits, true, nullptr, false);
}

std::string MigrateNotebook(const std::string& file, const std::string& text,
                            std::vector<Edit>* edits, std::map<std::string, int>* inserted) {
  using json = nlohmann::ordered_json;
  json nb = json::parse(text, nullptr, false);
  if (nb.is_discarded() || !nb.is_object() || !nb.contains("cells") || !nb["cells"].is_array())
    return text;
  // The code cells as one module (imports carry across cells); shell and magic lines are
  // blanked so that line numbers still map back to the cells.
  struct Cell {
    size_t index;
    int first_line, lines;
    bool as_list;
    std::vector<std::string> src;  // the cell's lines, without '\n'
    std::vector<bool> shell;
  };
  std::vector<Cell> cells;
  std::string python;
  int next = 1;
  for (size_t c = 0; c < nb["cells"].size(); ++c) {
    const json& cell = nb["cells"][c];
    if (!cell.is_object() || !cell.contains("cell_type") || cell["cell_type"] != "code" ||
        !cell.contains("source"))
      continue;
    std::string src;
    const bool as_list = cell["source"].is_array();
    if (as_list) {
      for (const auto& l : cell["source"])
        if (l.is_string()) src += l.get<std::string>();
    } else if (cell["source"].is_string()) {
      src = cell["source"].get<std::string>();
    } else {
      return text;
    }
    Cell k{c, next, 0, as_list, Lines(src), {}};
    for (const auto& l : k.src) {
      const std::string tl = Trim(l);
      k.shell.push_back(!tl.empty() && (tl[0] == '!' || tl[0] == '%'));
      python += (k.shell.back() ? "" : l) + "\n";
    }
    k.lines = static_cast<int>(k.src.size());
    next += k.lines;
    cells.push_back(std::move(k));
  }
  std::vector<Edit> found;
  const std::string migrated = MigratePythonModule(file, python, &found, false, nullptr, false);
  // Shell lines (!nvidia-smi, %env CUDA_VISIBLE_DEVICES=0) as shell text.
  size_t shell_edits = 0;
  for (auto& c : cells)
    for (int l = 0; l < c.lines; ++l) {
      if (!c.shell[l]) continue;
      std::vector<Edit> e;
      const std::string fixed = MigrateText(file, c.src[l], &e);
      if (e.empty()) continue;
      c.src[l] = fixed;
      for (auto& x : e)
        edits->push_back({file + "#cell" + std::to_string(c.index + 1), l + 1, x.kind, x.before,
                          x.after, x.message});
      ++shell_edits;
    }
  if (found.empty() && !shell_edits) return text;
  const auto new_lines = Lines(migrated);
  auto cell_of = [&](int line) -> Cell* {
    for (auto& c : cells)
      if (line >= c.first_line && line < c.first_line + c.lines) return &c;
    return nullptr;
  };
  for (auto& e : found) {
    Cell* c = cell_of(e.line);
    if (!c) continue;
    const int local = e.line - c->first_line;
    c->src[local] = new_lines[e.line - 1];
    edits->push_back({file + "#cell" + std::to_string(c->index + 1), local + 1, e.kind, e.before,
                      e.after, e.message});
  }
  // import torch_npu: after the torch imports of the first cell that has them, else at the
  // top of the first code cell.
  bool has_npu = python.find("import torch_npu") != std::string::npos;
  if (!has_npu && !found.empty() && !cells.empty()) {
    Cell* target = &cells[0];
    int after = 0;
    for (auto& c : cells) {
      for (int l = 0; l < c.lines; ++l) {
        const std::string tl = c.src[l];
        if (tl.rfind("import torch", 0) == 0 || tl.rfind("from torch", 0) == 0)
          target = &c, after = l + 1;
      }
      if (after) break;
    }
    target->src.insert(target->src.begin() + after,
                       "import torch_npu  # added by gpu2npu: registers the NPU device");
    target->shell.insert(target->shell.begin() + after, false);
    const std::string name = file + "#cell" + std::to_string(target->index + 1);
    edits->push_back({name, after + 1, "insert", "", target->src[after], "import torch_npu"});
    (*inserted)[name] = after + 1;
  }
  for (const auto& c : cells) {
    json& source = nb["cells"][c.index]["source"];
    // Lines(src) ends with "" when the source ended with a newline: keep that shape.
    if (c.as_list) {
      json list = json::array();
      for (size_t l = 0; l < c.src.size(); ++l) {
        const bool last = l + 1 == c.src.size();
        if (last && c.src[l].empty()) break;
        list.push_back(c.src[l] + (last ? "" : "\n"));
      }
      source = list;
    } else {
      std::string joined;
      for (size_t l = 0; l < c.src.size(); ++l)
        joined += c.src[l] + (l + 1 < c.src.size() ? "\n" : "");
      source = joined;
    }
  }
  // Jupyter writes one-space indentation and a final newline.
  return nb.dump(1) + (text.empty() || text.back() == '\n' ? "\n" : "");
}

std::string MigrateText(const std::string& file, const std::string& text,
                        std::vector<Edit>* edits) {
  static const std::pair<const char*, const char*> kRules[] = {
      {"CUDA_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"},
      {"nvidia-smi", "npu-smi"},
      {"--ddp_backend nccl", "--ddp_backend hccl"},
      {"--backend nccl", "--backend hccl"},
      {"--backend=nccl", "--backend=hccl"},
      {"--dist-backend nccl", "--dist-backend hccl"},
      {"--dist_backend nccl", "--dist_backend hccl"},
      {"--ddp_backend=nccl", "--ddp_backend=hccl"},
      {"backend: nccl", "backend: hccl"},
      {"distributed_type: MULTI_GPU", "distributed_type: MULTI_NPU"}};
  bool trailing = false;
  auto lines = SplitLines(text, &trailing);
  bool changed = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string before = lines[i];
    std::string msg;
    for (const auto& [from, to] : kRules) {
      // Every occurrence before a comment, so that a second run changes nothing.
      bool hit = false;
      for (size_t p = lines[i].find(from); p != std::string::npos;
           p = lines[i].find(from, p + std::strlen(to))) {
        const size_t hash = lines[i].find('#');
        if (hash != std::string::npos && p > hash) break;  // comments stay
        lines[i].replace(p, std::strlen(from), to);
        hit = true;
      }
      if (hit) msg += (msg.empty() ? "" : "; ") + std::string(from) + " -> " + to;
    }
    if (lines[i] != before) {
      changed = true;
      edits->push_back({file, static_cast<int>(i + 1), "replace", before, lines[i], msg});
    }
  }
  return changed ? JoinLines(lines, trailing) : text;
}

namespace {

// The edit script of two line sequences: (kind, old index, new index), kind ' ', '-' or '+'.
// Common ends are trimmed, the middle goes through Myers' O(ND) algorithm keeping only the
// diagonals each step reaches (O(D^2) memory); past kMaxD differences the middle becomes one
// replacement, still a diff that patch applies.
std::vector<std::tuple<char, int, int>> EditScript(const std::vector<std::string>& a,
                                                   const std::vector<std::string>& b) {
  constexpr int kMaxD = 4000;
  const int n0 = static_cast<int>(a.size()), m0 = static_cast<int>(b.size());
  int pre = 0;
  while (pre < n0 && pre < m0 && a[pre] == b[pre]) ++pre;
  int suf = 0;
  while (suf < n0 - pre && suf < m0 - pre && a[n0 - 1 - suf] == b[m0 - 1 - suf]) ++suf;
  const int n = n0 - pre - suf, m = m0 - pre - suf;
  auto A = [&](int i) -> const std::string& { return a[pre + i]; };
  auto B = [&](int j) -> const std::string& { return b[pre + j]; };
  std::vector<std::tuple<char, int, int>> mid;
  std::vector<std::vector<int>> trace;  // trace[d][k + d] = furthest x on diagonal k after d
  bool found = n == 0 && m == 0;
  int d_end = 0;
  std::vector<int> v(3, 0);  // previous step, indexed k + (d - 1) + 1
  for (int d = 0; d <= std::min(n + m, kMaxD) && !found; ++d) {
    std::vector<int> cur(2 * static_cast<size_t>(d) + 1, 0);
    auto prev = [&](int k) { return trace.empty() ? 0 : trace.back()[k + d - 1]; };
    for (int k = -d; k <= d; k += 2) {
      int x;
      if (d == 0)
        x = 0;
      else if (k == -d || (k != d && prev(k - 1) < prev(k + 1)))
        x = prev(k + 1);
      else
        x = prev(k - 1) + 1;
      int y = x - k;
      while (x < n && y < m && A(x) == B(y)) ++x, ++y;
      cur[k + d] = x;
      if (x >= n && y >= m) found = true;
    }
    trace.push_back(std::move(cur));
    d_end = d;
  }
  if (!found) {
    for (int i = 0; i < n; ++i) mid.emplace_back('-', pre + i, pre);
    for (int j = 0; j < m; ++j) mid.emplace_back('+', pre + n, pre + j);
  } else {
    int x = n, y = m;
    for (int d = d_end; d > 0; --d) {
      const std::vector<int>& pv = trace[d - 1];
      auto P = [&](int k) { return pv[k + d - 1]; };
      const int k = x - y;
      const int prev_k = (k == -d || (k != d && P(k - 1) < P(k + 1))) ? k + 1 : k - 1;
      const int prev_x = P(prev_k), prev_y = prev_x - prev_k;
      while (x > prev_x && y > prev_y) --x, --y, mid.emplace_back(' ', pre + x, pre + y);
      if (x == prev_x)
        --y, mid.emplace_back('+', pre + x, pre + y);
      else
        --x, mid.emplace_back('-', pre + x, pre + y);
    }
    while (x > 0 && y > 0) --x, --y, mid.emplace_back(' ', pre + x, pre + y);
    std::reverse(mid.begin(), mid.end());
  }
  std::vector<std::tuple<char, int, int>> ops;
  for (int i = 0; i < pre; ++i) ops.emplace_back(' ', i, i);
  ops.insert(ops.end(), mid.begin(), mid.end());
  for (int i = 0; i < suf; ++i) ops.emplace_back(' ', pre + n + i, pre + m + i);
  return ops;
}

// A unified diff of two versions of one file, three lines of context, hunks merged when
// their contexts touch.
std::string UnifiedDiff(const std::string& file, std::vector<std::string> a, bool a_newline,
                        std::vector<std::string> b, bool b_newline) {
  // A last line without its newline differs from the same text with one: mark it so the
  // script sees that, and print diff's "\ No newline at end of file" after it.
  static const std::string kNoNewline = std::string("\0", 1) + "no newline";
  if (!a_newline && !a.empty()) a.back() += kNoNewline;
  if (!b_newline && !b.empty()) b.back() += kNoNewline;
  auto line = [&](const std::string& l) {
    const size_t at = l.size() >= kNoNewline.size() ? l.size() - kNoNewline.size() : l.size();
    if (l.compare(at, std::string::npos, kNoNewline) == 0 && at < l.size())
      return l.substr(0, at) + "\n\\ No newline at end of file\n";
    return l + "\n";
  };
  const auto ops = EditScript(a, b);
  std::string out = "--- a/" + file + "\n+++ b/" + file + "\n";
  size_t i = 0;
  while (i < ops.size()) {
    if (std::get<0>(ops[i]) == ' ') {
      ++i;
      continue;
    }
    size_t start = i >= 3 ? i - 3 : 0, end = i;
    while (end < ops.size()) {
      size_t next = end;
      while (next < ops.size() && std::get<0>(ops[next]) == ' ') ++next;
      if (next == ops.size() || next - end > 6) break;
      while (next < ops.size() && std::get<0>(ops[next]) != ' ') ++next;
      end = next;
    }
    end = std::min(ops.size(), end + 3);
    int old_start = -1, new_start = -1, old_n = 0, new_n = 0;
    std::string body;
    for (size_t p = start; p < end; ++p) {
      const auto [kind, oi, ni] = ops[p];
      if (old_start < 0) old_start = oi, new_start = ni;
      if (kind == ' ') body += " " + line(a[oi]), ++old_n, ++new_n;
      if (kind == '-') body += "-" + line(a[oi]), ++old_n;
      if (kind == '+') body += "+" + line(b[ni]), ++new_n;
    }
    // An empty side starts one line before (diff's convention).
    out += "@@ -" + std::to_string(old_n ? old_start + 1 : old_start) + "," +
           std::to_string(old_n) + " +" + std::to_string(new_n ? new_start + 1 : new_start) + "," +
           std::to_string(new_n) + " @@\n" + body;
    i = end;
  }
  return out;
}

bool Inside(const fs::path& a, const fs::path& b) {  // a is b or inside b
  auto ai = a.begin(), bi = b.begin();
  for (; bi != b.end() && !bi->empty(); ++ai, ++bi)
    if (ai == a.end() || *ai != *bi) return false;
  return true;
}

Status MigrateInto(const fs::path& s, const fs::path& o, Migration* m);

}  // namespace

Result<Migration> MigrateProject(const std::string& src, const std::string& out) {
  std::error_code ec;
  if (!fs::is_directory(src, ec)) return InvalidArgument("[" + src + "] is not a folder");
  const fs::path s = fs::weakly_canonical(src, ec), o = fs::weakly_canonical(out, ec);
  if (Inside(o, s) || Inside(s, o))
    return InvalidArgument("the output folder [" + out + "] must not overlap the project [" + src +
                           "]");
  if (fs::exists(o, ec) && !fs::is_empty(o, ec))
    return InvalidArgument("the output folder [" + out + "] is not empty");
  // The copy is migrated in a staging folder renamed into place at the end: a failed or
  // killed run leaves no half-migrated copy that looks finished.
  Migration m;
  Status written = WriteFolderAtomic(o.string(), "gpu2npu", [&](const std::string& staging) {
    return MigrateInto(s, staging, &m);
  });
  if (!written.ok()) return written;
  return m;
}

namespace {

Status MigrateInto(const fs::path& s, const fs::path& o, Migration* migration) {
  Migration& m = *migration;
  std::map<std::string, int> inserted;  // file (or notebook cell) -> the inserted line
  std::error_code ec;
  fs::copy(s, o, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) return IoError("cannot copy [" + s.string() + "]: " + ec.message());
  for (const char* vcs : {".git", ".hg", ".svn"}) fs::remove_all(o / vcs, ec);

  for (auto it = fs::recursive_directory_iterator(o, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    const fs::path p = it->path();
    const std::string ext = p.extension().string(), name = p.filename().string();
    const bool py = ext == ".py", notebook = ext == ".ipynb";
    const bool text = ext == ".sh" || ext == ".bash" || ext == ".yaml" || ext == ".yml" ||
                      name.rfind("Dockerfile", 0) == 0;
    // setup.py builds the CUDA extension: ported with the kernels, not rewritten.
    if ((!py && !text && !notebook) || name == "setup.py") continue;
    auto content = ReadFile(p.string());
    if (!content.ok() || content->find('\0') != std::string::npos) continue;
    const std::string rel = fs::relative(p, o).string();
    const size_t before = m.edits.size();
    int inserted_at = 0;
    const std::string migrated = py ? MigratePythonModule(rel, content.value(), &m.edits, true,
                                                          &inserted_at, name == "setup.py")
                                 : notebook
                                     ? MigrateNotebook(rel, content.value(), &m.edits, &inserted)
                                     : MigrateText(rel, content.value(), &m.edits);
    if (inserted_at) inserted[rel] = inserted_at;
    if (m.edits.size() == before) continue;
    OC_RETURN_IF_ERROR(WriteFileAtomic(p.string(), migrated));
    ++m.files_changed;
    bool t1 = false, t2 = false;
    auto old_lines = SplitLines(content.value(), &t1);
    auto new_lines = SplitLines(migrated, &t2);
    m.diff += UnifiedDiff(rel, std::move(old_lines), t1, std::move(new_lines), t2);
  }
  // What still needs a person: the analysis of the migrated copy.
  auto after = AnalyseProject(o.string());
  if (after.ok())
    for (auto f : after->findings) {
      if (f.severity == Severity::kInfo) continue;
      // Lines in the original's numbering, like change_list.csv: below an inserted
      // `import torch_npu` they move up by one.
      if (auto it = inserted.find(f.file); it != inserted.end() && f.line > it->second)
        --f.line, --f.end_line;
      m.left.push_back(f);
    }
  std::sort(m.edits.begin(), m.edits.end(), [](const Edit& a, const Edit& b) {
    return std::tie(a.file, a.line) < std::tie(b.file, b.line);
  });
  const std::string report = (o / "gpu2npu_report").string();
  OC_RETURN_IF_ERROR(CreateDirectories(report));
  std::string changes = "File,Start Line,End Line,Operation Type,Message\n";
  for (const auto& e : m.edits)
    changes += CsvField(e.file) + "," + std::to_string(e.line) + "," + std::to_string(e.line) +
               "," + e.kind + "," + CsvField(e.message) + "\n";
  std::string left = "File,Start Line,End Line,OP,Tips\n";
  for (const auto& f : m.left)
    left += CsvField(f.file) + "," + std::to_string(f.line) + "," + std::to_string(f.end_line) +
            "," + CsvField(f.api) + "," + CsvField(f.message + "; on Ascend: " + f.counterpart) +
            "\n";
  OC_RETURN_IF_ERROR(WriteFileAtomic(report + "/change_list.csv", changes));
  OC_RETURN_IF_ERROR(WriteFileAtomic(report + "/unmigrated.csv", left));
  OC_RETURN_IF_ERROR(WriteFileAtomic(report + "/migration.diff", m.diff));
  return Status::Ok();
}

}  // namespace
}  // namespace oc::migrate
