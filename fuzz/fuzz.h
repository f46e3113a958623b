/*
 * fuzz.h -- the functions libFuzzer calls in a target, declared for C (its
 * own FuzzerInterface.h is C++), so that each target's definitions are
 * checked against one declaration.
 */
#ifndef PTXSIM_FUZZ_H
#define PTXSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* One input; returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Once, before the first input (optional). */
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif /* PTXSIM_FUZZ_H */
