#!/bin/bash
# Installs the operator package of vendor "__VENDOR__" (OpenCANN, find_package(ASC) template):
#   ./custom_opp_<system>_<arch>.run [--install-path=<dir>]   (default: $ASCEND_OPP_PATH)
# as <dir>/vendors/__VENDOR__, listed first in <dir>/vendors/config.ini's load_priority.
set -euo pipefail
root="${ASCEND_OPP_PATH:-}"
for arg in "$@"; do
  case "$arg" in
    --install-path=*) root="${arg#*=}" ;;
    --quiet) ;;
    -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
    *) echo "unknown option: $arg" >&2; exit 1 ;;
  esac
done
if [ -z "$root" ]; then echo "give --install-path=<dir> (or set ASCEND_OPP_PATH)" >&2; exit 1; fi
mkdir -p "$root/vendors"
root=$(cd "$root" && pwd)
line=$(awk '/^__PACKAGE_BELOW__$/ { print NR + 1; exit }' "$0")
rm -rf "$root/vendors/__VENDOR__"
tail -n +"$line" "$0" | tar -xz -C "$root"
ini="$root/vendors/config.ini"
others=$(sed -n 's/^load_priority=//p' "$ini" 2>/dev/null | tr ',' '\n' | grep -vx "__VENDOR__" | paste -sd, - || true)
echo "load_priority=__VENDOR__${others:+,$others}" > "$ini"
echo "installed the operator package in $root/vendors/__VENDOR__ (SUCCESS)"
exit 0
__PACKAGE_BELOW__
