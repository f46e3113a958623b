#!/bin/sh
# tests/gpu/tma_configs.sh < ANSWERS -- tests/gpu/tma_probe's arguments
# (VARIANT FILL STRIDED X Y Z), one line for each of its answer lines
# ("VARIANT fill F strided S at (X,Y,Z): ..."); '#' lines are left out.
grep -v '^#' | sed 's/^\([a-z_]*\) fill \([0-9]\) strided \([0-9]\) at (\(-*[0-9]*\),\(-*[0-9]*\),\(-*[0-9]*\)).*/\1 \2 \3 \4 \5 \6/'
