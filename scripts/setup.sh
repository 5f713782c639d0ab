#!/usr/bin/env bash
# Installs the Debian packages OpenCANN needs to build and test, skipping those present.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config
  libprotobuf-dev protobuf-compiler libonnx-dev
  libdnnl-dev ocl-icd-opencl-dev opencl-headers
  libsleef-dev libssl-dev nlohmann-json3-dev
  pybind11-dev python3-dev python3-numpy python3-pytest
  python3-torch python3-torchvision python3-onnx python3-sklearn
  libgtest-dev libonnx-testdata
  patch python3-pil chromium fonts-dejavu-core
  libjpeg62-turbo-dev libpng-dev libavcodec-dev libavutil-dev ffmpeg
)
# Extra packages a target needs beyond these (make fuzz: clang).
PACKAGES+=("$@")

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: run as root or install sudo" >&2; exit 1; }
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
