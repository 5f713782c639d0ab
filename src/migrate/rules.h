// The code signals of ../shared/reference/migration.md as data: what to match, which branch
// of the decision tree it belongs to, how severe it is and what replaces it on Ascend.
#pragma once

#include <string>
#include <vector>

#include "migrate/finding.h"

namespace oc::migrate {

struct Rule {
  enum Kind {
    kQualified,  // a resolved Python name: pattern is a prefix ("torch.cuda")
    kMethod,     // .pattern( on any object (".cuda(")
    kAttribute,  // .pattern on any object (".is_cuda")
    kString,   // a string literal equal to pattern (or starting with it when it ends in ':' or '_')
    kKeyword,  // keyword=pattern-string ("accelerator=gpu")
    kPackage,  // a dependency name in requirements / setup.py / pyproject
    kText,     // a substring in shell, Dockerfile, YAML/JSON, CMake or CUDA C++ text
  } kind;
  std::string pattern;
  std::string id;
  Branch branch;
  Severity severity;
  std::string counterpart;
  bool auto_migratable;
  std::string message;
};

const std::vector<Rule>& Rules();

}  // namespace oc::migrate
