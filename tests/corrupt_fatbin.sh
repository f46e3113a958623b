#!/usr/bin/env bash
# corrupt_fatbin.sh header|payload PROGRAM OUT
#
# Writes OUT: a copy of PROGRAM whose .nv_fatbin section is damaged.
#   header   the first container claims far more bytes than the section has
#   payload  the last 64 bytes of the section (inside the compressed PTX) are
#            overwritten, so the headers still look right
set -eu
mode=$1 in=$2 out=$3
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
objcopy -O binary --only-section=.nv_fatbin "$in" "$tmp"
case $mode in
  header) printf '\377\377\377\177' | dd of="$tmp" bs=1 seek=8 conv=notrunc status=none ;;
  payload)
    size=$(stat -c %s "$tmp")
    head -c 64 /dev/zero | tr '\0' '\377' | dd of="$tmp" bs=1 seek=$((size - 64)) conv=notrunc status=none ;;
  *) echo "corrupt_fatbin.sh: unknown mode $mode" >&2; exit 2 ;;
esac
objcopy --update-section .nv_fatbin="$tmp" "$in" "$out"
