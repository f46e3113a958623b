/*
 * check.h -- the unit tests' few macros.  Each failed CHECK prints where
 * and what; the program ends with the line "N passed, M failed" and exits
 * non-zero if anything failed.
 */
#ifndef PTXSIM_CHECK_H
#define PTXSIM_CHECK_H

#include <stdio.h>
#include <string.h>

static unsigned check_passed, check_failed;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (cond) {                                                          \
            check_passed++;                                                  \
        } else {                                                             \
            check_failed++;                                                  \
            printf("%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);  \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
        }                                                                    \
    } while (0)

#define CHECK_EQ_U64(got, want, what)                                        \
    do {                                                                     \
        unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want); \
        CHECK(g_ == w_, "%s: got 0x%llx, want 0x%llx", what, g_, w_);        \
    } while (0)

static inline int check_summary(void)
{
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif /* PTXSIM_CHECK_H */
