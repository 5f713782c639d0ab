// gpu2npu migrate: writes a migrated copy of a project (never touching the original):
// device strings, .cuda(), torch.cuda.* -> torch_npu.npu.*, AMP, NCCL -> HCCL, environment
// variables and tools, with `import torch_npu` added where needed. Comments and formatting
// stay; running it again on its output changes nothing. Every edit is listed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "migrate/finding.h"

namespace oc::migrate {

struct Edit {
  std::string file;
  int line = 0;
  std::string kind;  // "replace", "insert"
  std::string before, after, message;
};

struct Migration {
  std::vector<Edit> edits;
  std::vector<Finding> left;  // what needs a person (not rewritten)
  std::string diff;           // unified diff of every changed file
  int files_changed = 0;
};

// Rewrites one Python source; returns the new text and appends the edits.
std::string MigratePython(const std::string& file, const std::string& text,
                          std::vector<Edit>* edits);
// One Python module: `insert_import` adds `import torch_npu` when anything changed (its
// line in *inserted_at); setup.py's strings are paths and package names, never devices.
std::string MigratePythonModule(const std::string& file, const std::string& text,
                                std::vector<Edit>* edits, bool insert_import, int* inserted_at,
                                bool setup_py);
// A notebook, cell by cell (imports carry across cells, outputs kept); edits name the cell.
std::string MigrateNotebook(const std::string& file, const std::string& text,
                            std::vector<Edit>* edits, std::map<std::string, int>* inserted);
// Shell scripts, YAML and Dockerfiles: line-level replacements.
std::string MigrateText(const std::string& file, const std::string& text, std::vector<Edit>* edits);

// Copies `src` to `out` (which must not exist or be empty, and not overlap `src`) and
// migrates the copy; writes change_list.csv, unmigrated.csv and migration.diff into
// `out`/gpu2npu_report/.
Result<Migration> MigrateProject(const std::string& src, const std::string& out);

}  // namespace oc::migrate
