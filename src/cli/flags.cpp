#include "cli/flags.h"

namespace oc {

Result<Flags> Flags::Parse(int argc, char** argv, const std::set<std::string>& known,
                           const std::set<std::string>& boolean) {
  Flags f;
  for (int i = 0; i < argc; ++i) f.command_line_ += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-')
      return InvalidArgument(
          "Value [" + arg + "] is invalid. Reason: options look like --name=value.", "E10001");
    std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string key = body, value;
    bool has_value = false;
    if (auto eq = body.find('='); eq != std::string::npos) {
      key = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    if (!known.count(key))
      return InvalidArgument(
          "Value [" + arg + "] is invalid. Reason: [--" + key + "] is not a known parameter.",
          "E10001");
    if (!has_value) {
      if (boolean.count(key)) {
        value = "true";
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        return InvalidArgument("Value for --" + key + " is empty.", "E10004");
      }
    }
    f.values_[key] = value;
  }
  return f;
}

std::string Flags::Get(const std::string& k, const std::string& def) const {
  auto it = values_.find(k);
  return it == values_.end() ? def : it->second;
}

}  // namespace oc
