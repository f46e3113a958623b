#!/bin/sh
# exports.sh LIBDIR GENDIR
#
# Checks the shims export what programs import: every function
# cuda_runtime_api.h declares, from libcudart.so.13 in version node
# libcudart.so.13; every function cuda.h declares, from libcuda.so.1
# unversioned (as NVIDIA's); the compiler's registration entry points; and
# the sonames.
set -u
lib=$1 gen=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
objdump -T "$lib/libcudart.so.13" |
  awk 'NF >= 4 && $4 != "*UND*" && $(NF-1) == "libcudart.so.13" {print $NF}' | sort -u > "$tmp/rt"
objdump -T "$lib/libcuda.so.1" |
  awk 'NF >= 4 && $4 != "*UND*" && $(NF-1) == "Base" {print $NF}' | sort -u > "$tmp/drv"
{ cat "$gen/cudart_names.txt"
  printf '%s\n' cudaGetErrorName cudaGetErrorString cudaCreateChannelDesc __cudaRegisterFatBinary \
    __cudaRegisterFatBinaryEnd __cudaUnregisterFatBinary __cudaRegisterFunction __cudaRegisterVar \
    __cudaRegisterManagedVar __cudaInitModule __cudaGetKernel __cudaLaunchKernel __cudaLaunchKernel_ptsz \
    __cudaPushCallConfiguration __cudaPopCallConfiguration; } | sort -u > "$tmp/want_rt"
sort -u "$gen/cuda_names.txt" > "$tmp/want_drv"
m=$(comm -23 "$tmp/want_rt" "$tmp/rt")
[ -z "$m" ] || { echo "libcudart.so.13 does not export (in node libcudart.so.13):"; echo "$m"; fail=1; }
m=$(comm -23 "$tmp/want_drv" "$tmp/drv")
[ -z "$m" ] || { echo "libcuda.so.1 does not export (unversioned):"; echo "$m"; fail=1; }
n_rt=$(wc -l < "$tmp/want_rt") n_drv=$(wc -l < "$tmp/want_drv")
[ "$n_rt" -gt 300 ] && [ "$n_drv" -gt 500 ] || { echo "too few names: $n_rt runtime, $n_drv driver"; fail=1; }
objdump -p "$lib/libcudart.so.13" | grep -q 'SONAME *libcudart.so.13$' || { echo "libcudart: wrong SONAME"; fail=1; }
objdump -p "$lib/libcuda.so.1" | grep -q 'SONAME *libcuda.so.1$' || { echo "libcuda: wrong SONAME"; fail=1; }
[ $fail = 0 ] && echo "exports: all $n_rt runtime and $n_drv driver entry points exported"
exit $fail
