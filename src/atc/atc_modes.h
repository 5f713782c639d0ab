// atc's modes as a library: what a checked command line does (tools/atc parses argv and
// reports the Status these return).
#pragma once

#include "base/status.h"
#include "cli/flags.h"

namespace oc {

// Checks the flags (atc/atc_options.h) and runs the mode they ask for: --mode=0 writes the
// .om (or, with --singleop, one .om per op), 1 a JSON view, 3 a pre-check report, 6 prints
// an .om's description. Progress and warnings go to stdout; failures are the Status.
Status RunAtc(const Flags& f);

}  // namespace oc
