#!/bin/sh
# preset_check.sh PTXSIM CONFIG PRESET
#
# The preset equals the translation of the GPGPU-Sim configuration, value
# for value: configs/gtx480.cfg claims to be GPGPU-Sim's GTX 480.
set -u
ptxsim=$1 config=$2 preset=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ptxsim" configs --from-gpgpusim "$config" > "$tmp/translated.cfg" 2>/dev/null || { echo "preset_check: cannot translate $config"; exit 1; }
"$ptxsim" configs "$tmp/translated.cfg" | awk '{print $1, $3}' > "$tmp/translated.txt"
"$ptxsim" configs "$preset" | awk '{print $1, $3}' > "$tmp/preset.txt"
if ! diff "$tmp/preset.txt" "$tmp/translated.txt" > "$tmp/diff.txt"; then
  echo "preset_check: $preset differs from the translation of $config (< preset, > translation):"
  cat "$tmp/diff.txt"
  exit 1
fi
echo "preset_check: $preset equals the translation of $config"
