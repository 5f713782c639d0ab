#include "ccec/ccec_driver.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string_view>

#include "opencann/soc_table.h"

namespace oc::ccec {
namespace {

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string After(const std::string& s, const char* prefix) {
  return s.substr(std::char_traits<char>::length(prefix));
}

// --cce-aicore-arch values: the Atlas A2 (dav-c220) forms are modelled; the others name
// chips of other architectures.
Status ApplyArch(const std::string& arch, Invocation* inv) {
  static const std::map<std::string, std::string> kModelled = {
      {"dav-c220", "AICore"}, {"dav-c220-vec", "VecCore"}, {"dav-c220-cube", "CubeCore"}};
  auto it = kModelled.find(arch);
  if (it == kModelled.end())
    return Unsupported("--cce-aicore-arch=" + arch +
                       ": OpenCANN's Ascend C emulation models Atlas A2 (dav-c220: "
                       "Ascend910B1-B4); this architecture is not modelled");
  if (inv->core_type.empty()) inv->core_type = it->second;
  return Status();
}

Status ApplySoc(const std::string& soc, Invocation* inv) {
  for (const auto& spec : opencann::kSocTable) {
    if (!spec.ascendc_emulated) continue;
    std::string lower = spec.name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (soc == spec.name || soc == lower) {
      inv->soc = spec.name;
      return Status();
    }
  }
  return Unsupported("--cce-soc-version=" + soc +
                     ": OpenCANN's Ascend C emulation models Ascend910B1-B4 (Atlas A2) and "
                     "Ascend310B1 (Atlas 200I/500 A2); this chip is not modelled");
}

// Options taking their value in the next argument, passed to the host compiler.
bool IsHostFlagWithValue(const std::string& a) {
  return a == "-I" || a == "-D" || a == "-U" || a == "-include" || a == "-isystem" ||
         a == "-iquote" || a == "-MF" || a == "-MT" || a == "-MQ" || a == "-idirafter";
}

Language LanguageOf(const std::string& name, const std::string& flag) {
  if (name == "cce" || name == "asc") return Language::kCce;
  if (name == "c++" || name == "cpp" || name == "c++-header") return Language::kCxx;
  if (name == "c") return Language::kC;
  (void)flag;
  return Language::kAuto;
}

}  // namespace

Result<Invocation> ParseCommandLine(const std::vector<std::string>& args) {
  Invocation inv;
  Language current = Language::kAuto;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* what) -> Result<std::string> {
      if (i + 1 >= args.size()) return InvalidArgument(std::string(what) + " needs a value");
      return args[++i];
    };
    if (a == "-help" || a == "--help" || a == "-h") {
      inv.show_help = true;
    } else if (a == "--version" || a == "-V") {
      inv.show_version = true;
    } else if (a == "-v") {
      inv.verbose = true;
    } else if (a == "-o") {
      OC_ASSIGN_OR_RETURN(inv.output, value("-o"));
    } else if (StartsWith(a, "-o") && a.size() > 2) {
      inv.output = After(a, "-o");
    } else if (a == "-c") {
      inv.compile_only = true;
    } else if (a == "-E") {
      inv.preprocess_only = true;
    } else if (a == "-S" || a == "-emit-llvm" || a == "--cce-aicore-only" || a == "--aicore-only" ||
               a == "--cce-device-only" || a == "--cce-aicore-lang-only" ||
               StartsWith(a, "--cce-aicore-dump")) {
      return Unsupported(a +
                         ": asks for NPU machine code or IR; OpenCANN compiles Ascend C for "
                         "its CPU emulation and has no NPU code generator");
    } else if (a == "-shared" || a == "--shared") {
      inv.shared = true;
      inv.link_flags.push_back("-shared");
    } else if (a == "-x") {
      OC_ASSIGN_OR_RETURN(std::string lang, value("-x"));
      current = LanguageOf(lang, a);
      if (current == Language::kAuto && lang != "none")
        return InvalidArgument("-x " + lang + ": ccec compiles cce, c++ and c");
    } else if (StartsWith(a, "-x") && a.size() > 2) {
      const std::string lang = After(a, "-x");
      current = LanguageOf(lang, a);
      if (current == Language::kAuto && lang != "none")
        return InvalidArgument(a + ": ccec compiles cce, c++ and c");
    } else if (a == "--cce-aicore-lang" || a == "--asc-aicore-lang") {
      current = Language::kCce;
    } else if (StartsWith(a, "--run-mode=")) {
      // find_package(ASC)'s CMAKE_ASC_RUN_MODE: npu, cpu (CANN's CPU debug) or sim (its
      // simulator); all three run in this emulation.
      const std::string mode = After(a, "--run-mode=");
      if (mode != "npu" && mode != "cpu" && mode != "sim")
        return InvalidArgument(a + ": the run mode is npu, cpu or sim");
    } else if (a == "-Xaicore-start" || a == "-Xaicore-end" || a == "-Xhost-start" ||
               a == "-Xhost-end") {
      // Brackets around device-only and host-only options (ascendc_compile_options): one
      // compile serves both sides here, so the options inside apply as they are.
    } else if (a == "--enable-simt") {
      return Unsupported(a +
                         ": SIMT programming (the Ascend 950 generation) is not modelled by "
                         "OpenCANN's emulation, which models Atlas A2 (dav-2201)");
    } else if (StartsWith(a, "--cce-aicore-arch=")) {
      OC_RETURN_IF_ERROR(ApplyArch(After(a, "--cce-aicore-arch="), &inv));
    } else if (StartsWith(a, "--npu-arch=")) {
      // bisheng's spelling: dav-2201 is Atlas A2 (the dav-c220 family).
      const std::string arch = After(a, "--npu-arch=");
      if (arch != "dav-2201")
        return Unsupported(a +
                           ": OpenCANN's Ascend C emulation models Atlas A2 (dav-2201, "
                           "Ascend910B1-B4); this architecture is not modelled");
    } else if (StartsWith(a, "--cce-soc-version=")) {
      OC_RETURN_IF_ERROR(ApplySoc(After(a, "--cce-soc-version="), &inv));
    } else if (StartsWith(a, "--cce-soc-core-type=")) {
      const std::string t = After(a, "--cce-soc-core-type=");
      if (t != "VecCore" && t != "CubeCore" && t != "AICore")
        return InvalidArgument(a + ": the core type is VecCore, CubeCore or AICore");
      inv.core_type = t;
    } else if (a == "--cce-auto-sync" || a == "--cce-auto-sync=on" || a == "--cce-auto-sync=off") {
      // The emulation runs each block's pipes in program order, so results do not depend on
      // the synchronisation the compiler would insert; its race checks still report what a
      // kernel leaves unsynchronised (the compiler's insertion is not emulated).
      if (a != "--cce-auto-sync=off")
        inv.warnings.push_back(a +
                               ": the emulation does not insert synchronisation; its pipe-race "
                               "reports name what the kernel itself leaves unsynchronised");
    } else if (StartsWith(a, "--cce-auto-sync-log=")) {
      inv.auto_sync_log = After(a, "--cce-auto-sync-log=");
    } else if (a == "--cce-fatobj-link" || a == "--cce-enable-sanitizer" ||
               StartsWith(a, "--cce-ignore-always-inline") ||
               a == "--cce-disable-kernel-global-attr-check" || StartsWith(a, "--cce-stack-size")) {
      // Link format, sanitizer instrumentation (the emulation always checks) and inlining:
      // nothing that changes what the kernel computes.
    } else if (a == "-mllvm") {
      OC_ASSIGN_OR_RETURN(std::string opt, value("-mllvm"));
      inv.warnings.push_back("-mllvm " + opt +
                             ": an NPU code-generation option, recorded; the CPU emulation does "
                             "not apply it");
    } else if (StartsWith(a, "--cce-")) {
      return Unsupported(a + ": an option of CANN's ccec that OpenCANN's ccec does not know");
    } else if (StartsWith(a, "-std=") || StartsWith(a, "--std=")) {
      inv.std_flag = "-std=" + a.substr(a.find('=') + 1);
    } else if (IsHostFlagWithValue(a)) {
      OC_ASSIGN_OR_RETURN(std::string v, value(a.c_str()));
      inv.host_flags.push_back(a);
      inv.host_flags.push_back(v);
    } else if (a == "-L" || a == "-l") {
      OC_ASSIGN_OR_RETURN(std::string v, value(a.c_str()));
      inv.link_flags.push_back(a + v);
    } else if (StartsWith(a, "-L") || StartsWith(a, "-l") || StartsWith(a, "-Wl,") || a == "-pie" ||
               a == "-rdynamic" || a == "-static-libstdc++" || a == "-static-libgcc") {
      inv.link_flags.push_back(a);
    } else if (a == "-pthread" || a == "-fopenmp") {
      inv.host_flags.push_back(a);
      inv.link_flags.push_back(a);
    } else if (StartsWith(a, "-I") || StartsWith(a, "-D") || StartsWith(a, "-U") ||
               StartsWith(a, "-O") || StartsWith(a, "-g") || StartsWith(a, "-W") ||
               StartsWith(a, "-f") || StartsWith(a, "-M") || StartsWith(a, "-m") || a == "-w" ||
               StartsWith(a, "-isystem")) {
      inv.host_flags.push_back(a);
    } else if (!a.empty() && a[0] == '-') {
      return InvalidArgument(a + ": unknown option");
    } else {
      const std::string ext = a.find('.') == std::string::npos ? "" : a.substr(a.rfind('.'));
      if (ext == ".o" || ext == ".a" || ext == ".so" || a.find(".so.") != std::string::npos) {
        inv.objects_and_libs.push_back(a);
      } else {
        Language lang = current;
        if (lang == Language::kAuto)
          lang = ext == ".cce" || ext == ".asc" ? Language::kCce
                 : ext == ".c"                  ? Language::kC
                                                : Language::kCxx;
        inv.inputs.push_back({a, lang});
      }
    }
  }
  if (inv.show_help || inv.show_version) return inv;
  if (inv.inputs.empty() && inv.objects_and_libs.empty()) return InvalidArgument("no input files");
  if ((inv.compile_only || inv.preprocess_only) && inv.inputs.size() > 1 && !inv.output.empty())
    return InvalidArgument("-o with -c or -E takes one source file, " +
                           std::to_string(inv.inputs.size()) + " were given");
  if (inv.soc.empty()) inv.soc = "Ascend910B3";
  return inv;
}

std::vector<std::string> DeviceDefines(const Invocation& inv) {
  // The chip's architecture macros: Atlas A2 is dav-c220 (220, 2201), Ascend310B dav-m300
  // (300, 3002); kernels choose code paths by them as the NPU compiler's passes do.
  const bool m300 = inv.soc.rfind("Ascend310B", 0) == 0;
  std::vector<std::string> d = {"-DOCANN_TIKICPU_SOC=\"" + inv.soc + "\"",
                                m300 ? "-D__CCE_AICORE__=300" : "-D__CCE_AICORE__=220",
                                "-DOCANN_CCEC=1", "-DOCANN_NPU_COMPILE=1",
                                m300 ? "-D__NPU_ARCH__=3002" : "-D__NPU_ARCH__=2201",
                                // The device compiler's attribute [aicore] (older headers
                                // define __aicore__ as it outside CPU debug) becomes [[]],
                                // an empty C++ attribute list.
                                "-Daicore=[]"};
  // A single-core-type compile defines that core's macro, as the NPU compiler's pass for it
  // does; a mixed (AICore) compile defines neither here, as the emulation builds one program
  // for both core types.
  if (inv.core_type == "VecCore") d.push_back("-D__DAV_C220_VEC__=1");
  if (inv.core_type == "CubeCore") d.push_back("-D__DAV_C220_CUBE__=1");
  return d;
}

namespace {

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Start of the callee expression ending just before `end` (exclusive): an identifier,
// optionally qualified (a::b) and with template arguments (<...>).
size_t CalleeStart(const std::string& s, size_t end) {
  size_t p = end;
  while (p > 0 && std::isspace(static_cast<unsigned char>(s[p - 1]))) --p;
  for (;;) {
    if (p > 0 && s[p - 1] == '>') {  // template arguments: walk back to the matching '<'
      int depth = 0;
      size_t q = p;
      while (q > 0) {
        --q;
        if (s[q] == '>') ++depth;
        if (s[q] == '<' && --depth == 0) break;
      }
      if (depth != 0) return std::string::npos;
      p = q;
      while (p > 0 && std::isspace(static_cast<unsigned char>(s[p - 1]))) --p;
    }
    const size_t ident_end = p;
    while (p > 0 && IsIdentChar(s[p - 1])) --p;
    if (p == ident_end) return std::string::npos;
    if (p >= 2 && s[p - 1] == ':' && s[p - 2] == ':') {
      p -= 2;
      continue;
    }
    return p;
  }
}

// KernelMetaType's values (ascendc/kernel_types.h), which the rewritten launch passes on.
constexpr int KernelTypeAivOnly = 0, KernelTypeAicOnly = 1, KernelTypeMixAiv10 = 2,
              KernelTypeMixAic10 = 3, KernelTypeMixAic11 = 4, KernelTypeMixAic12 = 5;

// The name the launch reports: the unqualified identifier without template arguments.
std::string KernelName(const std::string& callee) {
  std::string base = callee.substr(0, callee.find('<'));
  while (!base.empty() && std::isspace(static_cast<unsigned char>(base.back()))) base.pop_back();
  const size_t colon = base.rfind("::");
  return colon == std::string::npos ? base : base.substr(colon + 2);
}

}  // namespace

// Kernels the source marks __cube__, __vector__ or __mix__(cube, vector) (the newer
// compiler's core-type marks): name -> KERNEL_TYPE_AIC_ONLY (1), KERNEL_TYPE_AIV_ONLY (0) or
// the mix type of that ratio (MIX_AIC_1_2 for __mix__(1, 2)). The name is the identifier
// before the first '(' after the mark (after the mark's own arguments for __mix__).
std::map<std::string, int> CoreTypeMarks(const std::string& source) {
  std::map<std::string, int> marks;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (const char* mark : {"__cube__", "__vector__", "__mix__"}) {
    const bool mix = std::string_view(mark) == "__mix__";
    for (size_t at = source.find(mark); at != std::string::npos; at = source.find(mark, at + 1)) {
      size_t end = at + std::char_traits<char>::length(mark);
      const bool word =
          (at == 0 || !ident(source[at - 1])) && (end >= source.size() || !ident(source[end]));
      if (!word) continue;
      int type = std::string_view(mark) == "__cube__" ? KernelTypeAicOnly : KernelTypeAivOnly;
      if (mix) {
        // __mix__(cube, vector): the ratio of cube to vector cores in one launch unit.
        size_t open = end;
        while (open < source.size() && std::isspace(static_cast<unsigned char>(source[open])))
          ++open;
        const size_t close = source.find(')', open);
        if (open >= source.size() || source[open] != '(' || close == std::string::npos) continue;
        int cube = -1, vector = -1;
        if (std::sscanf(source.substr(open + 1, close - open - 1).c_str(), " %d , %d", &cube,
                        &vector) != 2)
          continue;
        if (cube == 1 && vector == 2)
          type = KernelTypeMixAic12;
        else if (cube == 1 && vector == 1)
          type = KernelTypeMixAic11;
        else if (cube == 1 && vector == 0)
          type = KernelTypeMixAic10;
        else if (cube == 0 && vector == 1)
          type = KernelTypeMixAiv10;
        else
          continue;  // not a ratio the NPU has: the launch refuses it as unmarked
        end = close + 1;
      }
      const size_t paren = source.find('(', end);
      const size_t stop = source.find_first_of(";{", end);
      if (paren == std::string::npos || (stop != std::string::npos && stop < paren)) continue;
      size_t e = paren;
      while (e > end && std::isspace(static_cast<unsigned char>(source[e - 1]))) --e;
      size_t b = e;
      while (b > end && ident(source[b - 1])) --b;
      if (b < e && source.compare(b, e - b, "define") != 0) marks[source.substr(b, e - b)] = type;
    }
  }
  return marks;
}

namespace {
// The marks of the files the source includes with quotes, found as the preprocessor finds
// them (the including file's folder, then the -I folders), recursively: a kernel marked in
// an included file (`#include "matmul_kernel.asc"`) is launched from the including one.
void MarksOfIncludes(const std::string& source, const std::filesystem::path& dir,
                     const std::vector<std::string>& include_dirs, int depth,
                     std::set<std::string>* seen, std::map<std::string, int>* marks) {
  if (depth > 8) return;
  size_t at = 0;
  while ((at = source.find("#include", at)) != std::string::npos) {
    const size_t line_end = source.find('\n', at);
    const std::string line =
        source.substr(at, line_end == std::string::npos ? std::string::npos : line_end - at);
    at += 8;
    const size_t open = line.find('"');
    const size_t close = open == std::string::npos ? open : line.find('"', open + 1);
    if (close == std::string::npos) continue;
    const std::string name = line.substr(open + 1, close - open - 1);
    std::vector<std::filesystem::path> candidates{dir / name};
    for (const auto& d : include_dirs) candidates.push_back(std::filesystem::path(d) / name);
    for (const auto& c : candidates) {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(c, ec)) continue;
      const std::string key = std::filesystem::weakly_canonical(c, ec).string();
      if (!seen->insert(key).second) break;
      // Headers of this size are source; anything larger is not scanned.
      if (std::filesystem::file_size(c, ec) > (8u << 20) || ec) break;
      std::ifstream in(c, std::ios::binary);
      const std::string text((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
      for (const auto& [kernel, type] : CoreTypeMarks(text)) marks->emplace(kernel, type);
      MarksOfIncludes(text, c.parent_path(), include_dirs, depth + 1, seen, marks);
      break;
    }
  }
}
}  // namespace

Result<std::string> RewriteLaunches(const std::string& source, const std::string& path,
                                    const std::vector<std::string>& include_dirs) {
  std::map<std::string, int> marks = CoreTypeMarks(source);
  std::set<std::string> seen;
  MarksOfIncludes(source, std::filesystem::path(path).parent_path(), include_dirs, 0, &seen,
                  &marks);
  std::string escaped_path;
  for (char c : path) {
    if (c == '"' || c == '\\') escaped_path += '\\';
    escaped_path += c;
  }
  std::string out = "#line 1 \"" + escaped_path + "\"\n";
  size_t copied = 0;
  int line = 1;
  for (size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\n') ++line;
    // Skip comments, string and character literals.
    if (c == '/' && i + 1 < source.size() && source[i + 1] == '/') {
      while (i < source.size() && source[i] != '\n') ++i;
      if (i < source.size()) ++line;
      continue;
    }
    if (c == '/' && i + 1 < source.size() && source[i + 1] == '*') {
      const size_t close = source.find("*/", i + 2);
      const size_t stop = close == std::string::npos ? source.size() : close + 2;
      for (size_t k = i; k < stop; ++k)
        if (source[k] == '\n') ++line;
      i = stop - 1;
      continue;
    }
    if (c == '"' || c == '\'') {
      if (c == '\'' && i > 0 && std::isxdigit(static_cast<unsigned char>(source[i - 1])))
        continue;  // a digit separator (1'000)
      size_t k = i + 1;
      while (k < source.size() && source[k] != c) {
        if (source[k] == '\\') ++k;
        if (k < source.size() && source[k] == '\n') ++line;
        ++k;
      }
      i = k;
      continue;
    }
    if (c != '<' || source.compare(i, 3, "<<<") != 0) continue;
    const size_t close = source.find(">>>", i + 3);
    if (close == std::string::npos)
      return ParseError(path + ":" + std::to_string(line) + ": <<< without its >>>");
    size_t paren = close + 3;
    while (paren < source.size() && std::isspace(static_cast<unsigned char>(source[paren])))
      ++paren;
    if (paren >= source.size() || source[paren] != '(')
      return ParseError(path + ":" + std::to_string(line) +
                        ": a <<<...>>> launch must be followed by the kernel's arguments");
    const size_t start = CalleeStart(source, i);
    if (start == std::string::npos || start < copied)
      return ParseError(path + ":" + std::to_string(line) + ": <<< does not follow a kernel name");
    std::string callee = source.substr(start, i - start);
    while (!callee.empty() && std::isspace(static_cast<unsigned char>(callee.back())))
      callee.pop_back();
    const std::string config = source.substr(i + 3, close - i - 3);
    for (size_t k = i; k < paren; ++k)
      if (source[k] == '\n') ++line;
    out.append(source, copied, start - copied);
    // A kernel marked __cube__/__vector__ runs on that core type only, as on the NPU.
    const auto mark = marks.find(KernelName(callee));
    const std::string type = mark == marks.end() ? "" : ", " + std::to_string(mark->second);
    out +=
        "::oc_ccec::Launch<&" + callee + type + ">(\"" + KernelName(callee) + "\", " + config + ")";
    // Keep the line count: newlines inside the launch configuration move below it.
    for (size_t k = start; k < paren; ++k)
      if (source[k] == '\n') out += '\n';
    copied = paren;
    i = paren - 1;
  }
  out.append(source, copied, std::string::npos);
  return out;
}

}  // namespace oc::ccec
