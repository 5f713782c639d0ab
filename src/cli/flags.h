// Command-line flags in CANN's style: --key=value, --key value, and -key=value.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"

namespace oc {

class Flags {
 public:
  // `known` lists accepted keys; `boolean` keys may appear without a value.
  static Result<Flags> Parse(int argc, char** argv, const std::set<std::string>& known,
                             const std::set<std::string>& boolean = {});
  bool Has(const std::string& k) const { return values_.count(k) != 0; }
  std::string Get(const std::string& k, const std::string& def = "") const;
  const std::map<std::string, std::string>& all() const { return values_; }
  const std::string& command_line() const { return command_line_; }

 private:
  std::map<std::string, std::string> values_;
  std::string command_line_;
};

}  // namespace oc
