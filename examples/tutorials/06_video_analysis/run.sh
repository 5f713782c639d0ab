#!/usr/bin/env bash
# Tutorial 6, video analysis: every command of docs/tutorials/06-video-analysis.md, checked.
# OPENCANN_SOURCE names the OpenCANN checkout (its examples/ folder is used).
set -euo pipefail
source $OPENCANN_ROOT/set_env.sh
SRC=${OPENCANN_SOURCE:-$HOME/opencann}

# 1. The pipeline in Python (acl.media, the first DVPP API), keeping its model and clip
export OCANN_SOC=Ascend310P3
python3 $SRC/examples/video_analysis/analyze.py --build $OPENCANN_ROOT --frames 120 --save clip | tee python.txt
grep -q "frames: 120, classified: 120" python.txt

# 2. The same pipeline in C on hi_dvpp.h (the 310P generation)
cmake -S $SRC/examples/video_analysis -B build/video -DCMAKE_PREFIX_PATH=$ASCEND_TOOLKIT_HOME
cmake --build build/video
./build/video/video_analysis clip/digits16.om clip/digits.h264 clip/labels.txt | tee c.txt
grep -q "frames: 120, classified: 120" c.txt

# 3. A DVPP rule broken on purpose: VDEC on the Ascend 310, which has no hi_dvpp.h
OCANN_SOC=Ascend310 ./build/video/video_analysis clip/digits16.om clip/digits.h264 clip/labels.txt 2> rule.txt || true
grep -q "hi_mpi_sys_init() failed: 0xa0028008" rule.txt
echo "tutorial 6: OK"
