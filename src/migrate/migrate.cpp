#include "migrate/migrate.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "base/file.h"
#include "migrate/analysis.h"
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

std::string MigratePython(const std::string& file, const std::string& text,
                          std::vector<Edit>* edits) {
  std::vector<Token> t;
  std::string error;
  if (!TokenizePython(text, &t, &error)) return text;  // the analysis lists it as skipped
  bool trailing = false;
  auto lines = SplitLines(text, &trailing);
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
      if (t[i + 1].text == "torch" && k.column == 1) {
        size_t end = i;  // the statement may span lines (parentheses)
        while (end < t.size() && t[end].kind != Token::kNewline) ++end;
        last_torch_import = end < t.size() ? t[end].line : static_cast<int>(lines.size());
      }
    }
    if (k.kind == Token::kString && !k.docstring) {
      static const std::map<std::string, std::pair<std::string, std::string>> kStrings = {
          {"cuda", {"npu", "device string"}},
          {"nccl", {"hccl", "NCCL backend -> HCCL"}},
          {"CUDA_VISIBLE_DEVICES", {"ASCEND_RT_VISIBLE_DEVICES", "device visibility variable"}},
          {"nvidia-smi", {"npu-smi", "device status tool"}}};
      std::string value = k.text, with, why;
      if (auto it = kStrings.find(value); it != kStrings.end()) {
        with = it->second.first, why = it->second.second;
      } else if (value.rfind("cuda:", 0) == 0 && value.size() > 5 &&
                 value.find_first_not_of("0123456789", 5) == std::string::npos) {
        with = "npu:" + value.substr(5), why = "device string";
      }
      if (!with.empty()) {
        // The literal's text on its line: the value right after the opening quote.
        const std::string& l = lines[k.line - 1];
        const size_t q = l.find_first_of("'\"", static_cast<size_t>(at(k)));
        if (q != std::string::npos && l.compare(q + 1, value.size(), value) == 0)
          spans.push_back({k.line, static_cast<int>(q + 1), value.size(), with,
                           why + ": \"" + value + "\" -> \"" + with + "\""});
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
        spans.push_back({torch_tok.line, at(torch_tok),
                         n.column - torch_tok.column + n.text.size() - 1 + 1, "torch_npu.npu",
                         "torch.cuda -> torch_npu.npu"});
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
  // `import torch_npu` after the top-level torch import (or first), once.
  Apply(&lines, spans, file, edits);
  if (!imports_npu) {
    const int after = last_torch_import;  // 0: at the top
    lines.insert(lines.begin() + after,
                 "import torch_npu  # added by gpu2npu: registers the NPU device");
    edits->push_back({file, after + 1, "insert", "", lines[after], "import torch_npu"});
  }
  return JoinLines(lines, trailing);
}

std::string MigrateText(const std::string& file, const std::string& text,
                        std::vector<Edit>* edits) {
  static const std::pair<const char*, const char*> kRules[] = {
      {"CUDA_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"},
      {"nvidia-smi", "npu-smi"},
      {"--ddp_backend nccl", "--ddp_backend hccl"},
      {"--ddp_backend=nccl", "--ddp_backend=hccl"},
      {"backend: nccl", "backend: hccl"},
      {"distributed_type: MULTI_GPU", "distributed_type: MULTI_NPU"}};
  bool trailing = false;
  auto lines = SplitLines(text, &trailing);
  bool changed = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string before = lines[i];
    const size_t hash = lines[i].find('#');
    std::string msg;
    for (const auto& [from, to] : kRules) {
      size_t p = lines[i].find(from);
      if (p == std::string::npos || (hash != std::string::npos && p > hash))
        continue;  // comments stay
      lines[i].replace(p, std::strlen(from), to);
      msg += (msg.empty() ? "" : "; ") + std::string(from) + " -> " + to;
    }
    if (lines[i] != before) {
      changed = true;
      edits->push_back({file, static_cast<int>(i + 1), "replace", before, lines[i], msg});
    }
  }
  return changed ? JoinLines(lines, trailing) : text;
}

namespace {

// A unified diff from the edits of one file (replacements keep line counts; one insertion).
std::string UnifiedDiff(const std::string& file, const std::vector<std::string>& old_lines,
                        const std::vector<std::string>& new_lines) {
  // Lines match up to the single inserted line, if any.
  std::vector<std::pair<int, int>> ops;  // (old index or -1, new index or -1) per position
  size_t i = 0, j = 0;
  while (i < old_lines.size() || j < new_lines.size()) {
    if (i < old_lines.size() && j < new_lines.size() && old_lines[i] == new_lines[j])
      ops.emplace_back(i++, j++);
    else if (new_lines.size() > old_lines.size() && j < new_lines.size() &&
             (i >= old_lines.size() ||
              (j + 1 < new_lines.size() && new_lines[j + 1] == old_lines[i]) ||
              new_lines[j].find("added by gpu2npu") != std::string::npos))
      ops.emplace_back(-1, j++);
    else
      ops.emplace_back(i < old_lines.size() ? static_cast<int>(i++) : -1,
                       j < new_lines.size() ? static_cast<int>(j++) : -1);
  }
  auto changed = [&](size_t k) {
    const auto [a, b] = ops[k];
    return a < 0 || b < 0 || old_lines[a] != new_lines[b];
  };
  std::string out = "--- a/" + file + "\n+++ b/" + file + "\n";
  size_t k = 0;
  while (k < ops.size()) {
    if (!changed(k)) {
      ++k;
      continue;
    }
    size_t start = k >= 3 ? k - 3 : 0, end = k;
    while (end < ops.size()) {
      size_t next = end;
      while (next < ops.size() && !changed(next)) ++next;
      if (next == ops.size() || next - end > 6) break;
      end = next + 1;
    }
    end = std::min(ops.size(), end + 3);
    int old_start = -1, new_start = -1, old_n = 0, new_n = 0;
    std::string body;
    for (size_t p = start; p < end; ++p) {
      const auto [a, b] = ops[p];
      if (a >= 0 && old_start < 0) old_start = a;
      if (b >= 0 && new_start < 0) new_start = b;
      if (a >= 0 && b >= 0 && old_lines[a] == new_lines[b]) {
        body += " " + old_lines[a] + "\n", ++old_n, ++new_n;
      } else {
        if (a >= 0) body += "-" + old_lines[a] + "\n", ++old_n;
        if (b >= 0) body += "+" + new_lines[b] + "\n", ++new_n;
      }
    }
    out += "@@ -" + std::to_string(old_start + 1) + "," + std::to_string(old_n) + " +" +
           std::to_string(new_start + 1) + "," + std::to_string(new_n) + " @@\n" + body;
    k = end;
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
  std::error_code ec;
  fs::copy(s, o, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) return IoError("cannot copy [" + s.string() + "]: " + ec.message());
  for (const char* vcs : {".git", ".hg", ".svn"}) fs::remove_all(o / vcs, ec);

  for (auto it = fs::recursive_directory_iterator(o, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    const fs::path p = it->path();
    const std::string ext = p.extension().string(), name = p.filename().string();
    const bool py = ext == ".py";
    const bool text = ext == ".sh" || ext == ".bash" || ext == ".yaml" || ext == ".yml" ||
                      name.rfind("Dockerfile", 0) == 0;
    if (!py && !text) continue;
    auto content = ReadFile(p.string());
    if (!content.ok() || content->find('\0') != std::string::npos) continue;
    const std::string rel = fs::relative(p, o).string();
    const size_t before = m.edits.size();
    const std::string migrated = py ? MigratePython(rel, content.value(), &m.edits)
                                    : MigrateText(rel, content.value(), &m.edits);
    if (m.edits.size() == before) continue;
    OC_RETURN_IF_ERROR(WriteFileAtomic(p.string(), migrated));
    ++m.files_changed;
    bool t1 = false, t2 = false;
    m.diff += UnifiedDiff(rel, SplitLines(content.value(), &t1), SplitLines(migrated, &t2));
  }
  // What still needs a person: the analysis of the migrated copy.
  auto after = AnalyseProject(o.string());
  if (after.ok())
    for (const auto& f : after->findings)
      if (f.severity != Severity::kInfo) m.left.push_back(f);
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
