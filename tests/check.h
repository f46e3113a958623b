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

/* A test program is a list of named cases:
 *
 *     static const check_case cases[] = { CASE(alu_chain), CASE(icache), ... };
 *     int main(int argc, char **argv) { return CHECK_MAIN(argc, argv, cases); }
 *
 * runs test_alu_chain(), test_icache(), ...  `prog [SRC_DIR [BIN_DIR [NAME]]]`
 * runs every case, or only the one called NAME.  tests/CMakeLists.txt finds
 * the CASE(...) lines and registers one ctest test per case, so that
 * `ctest -R unit.timing.icache` runs one case, cases run in parallel, and
 * the slowest-tests report names the slow case rather than a whole file.
 * SRC_DIR is the tests/ folder (for PTX files), BIN_DIR a scratch folder. */
typedef struct check_case {
    const char *name;
    void (*run)(void);
} check_case;

#define CASE(name) { #name, test_##name }
#define CHECK_MAIN(argc, argv, cases) check_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]))

static const char *check_src_dir __attribute__((unused)) = "tests";
static const char *check_bin_dir __attribute__((unused)) = "/tmp";

static inline int check_main(int argc, char **argv, const check_case *cases, size_t n)
{
    if (argc > 1)
        check_src_dir = argv[1];
    if (argc > 2)
        check_bin_dir = argv[2];
    const char *only = argc > 3 ? argv[3] : NULL;
    size_t ran = 0;
    for (size_t i = 0; i < n; i++) {
        if (only && strcmp(only, cases[i].name) != 0)
            continue;
        cases[i].run();
        ran++;
    }
    if (only && !ran) {
        printf("no test case called '%s'\n", only);
        return 2;
    }
    return check_summary();
}

#endif /* PTXSIM_CHECK_H */
