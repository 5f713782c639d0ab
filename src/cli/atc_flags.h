// atc's command line: the one table of the flags it accepts, and argv parsed against it.
// The checks of their values are atc/atc_options.h (they need the compiler's parsers).
#pragma once

#include <set>
#include <string>

#include "cli/flags.h"

namespace oc {

// Every flag atc accepts; any other is refused with E10001.
const std::set<std::string>& AtcFlagNames();
// The flags that may stand alone (--help); every other takes a value.
const std::set<std::string>& AtcBooleanFlags();
// argv in CANN's style (cli/flags.h) against the table above.
Result<Flags> ParseAtcFlags(int argc, char** argv);

}  // namespace oc
