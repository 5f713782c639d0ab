// atc's flag checks: each flag's value validated, with CANN's codes and messages, and the
// conversion flags turned into the driver's ConvertOptions. No check writes a file.
#pragma once

#include <set>
#include <string>

#include "base/status.h"
#include "cli/flags.h"
#include "driver/convert.h"

namespace oc {

// What --mode (and --singleop) ask atc to do.
enum class AtcMode {
  kBuild,     // --mode=0: model -> .om
  kSingleOp,  // --mode=0 --singleop: op descriptions -> one .om each
  kToJson,    // --mode=1: .om (or, with --framework, a source model) -> JSON
  kPreCheck,  // --mode=3: the conversion without the .om, with a report
  kShowInfo,  // --mode=6: what an .om holds
};

// The checks every run makes, before its mode's: --log (which it applies), the flags
// OpenCANN refuses, flags given to a mode or framework they do not apply to, then --mode.
Result<AtcMode> CheckAtcFlags(const Flags& f);

// --output of --mode=0: given, not too long, a file name in a folder that exists.
Status CheckOutputFlag(const Flags& f);
// Every conversion flag (--mode=0 and --mode=3), checked, into the driver's options.
Result<ConvertOptions> CheckConvertFlags(const Flags& f);
// --singleop's companions: --output (a folder), --soc_version and the precision flags; the
// model flags are refused. The op description file itself is read by the mode.
Result<ConvertOptions> CheckSingleOpFlags(const Flags& f);
// --om names a readable .om file (--mode=6, and --mode=1 without --framework).
Status CheckOmFlag(const Flags& f);
// --mode=1: --om and --json given; --om checked unless --framework says it is a source model.
Status CheckJsonFlags(const Flags& f);

// --fusion_switch_file in CANN's JSON form or the line form: the passes it turns off.
Result<std::set<std::string>> ReadFusionSwitch(const std::string& path);

// E10001 "Value [value] for parameter [--param] is invalid. Reason: reason".
Status InvalidFlag(const std::string& value, const std::string& param, const std::string& reason);

}  // namespace oc
