/*
 * rt_test.h -- what the runtime API tests share: checks that count
 * failures instead of stopping, so one run reports every wrong answer, and
 * the verdict line "PASS <name>" / "FAIL <name>" the test harness matches.
 *
 * Each check names the call and the error code CUDA documents for it.
 */
#ifndef PTXSIM_RT_TEST_H
#define PTXSIM_RT_TEST_H

#include <cstdio>
#include <cstdlib>
#include <cstring>

static int test_failures;
static const char *test_name = "test";

#define EXPECT(cond)                                                                        \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            std::printf("FAIL %s: %s:%d: expected %s\n", test_name, __FILE__, __LINE__, #cond); \
            test_failures++;                                                                \
        }                                                                                   \
    } while (0)

/* The call returns `want` (a cudaError_t). */
#define EXPECT_ERR(call, want)                                                              \
    do {                                                                                    \
        cudaError_t got_ = (call), want_ = (want);                                          \
        if (got_ != want_) {                                                                \
            std::printf("FAIL %s: %s:%d: %s returned %s, expected %s\n", test_name, __FILE__, \
                        __LINE__, #call, cudaGetErrorName(got_), cudaGetErrorName(want_));  \
            test_failures++;                                                                \
        }                                                                                   \
    } while (0)

#define OK(call) EXPECT_ERR(call, cudaSuccess)

/* A misuse: the call returns `want`, and the last error is `want` too,
 * which reading it clears. */
#define EXPECT_MISUSE(call, want)                                                           \
    do {                                                                                    \
        EXPECT_ERR(call, want);                                                             \
        EXPECT_ERR(cudaGetLastError(), want);                                               \
        EXPECT_ERR(cudaGetLastError(), cudaSuccess);                                        \
    } while (0)

static inline int finish(void)
{
    std::printf("%s %s (%d failed check%s)\n", test_failures ? "FAIL" : "PASS", test_name, test_failures,
                test_failures == 1 ? "" : "s");
    return test_failures ? 1 : 0;
}

#endif /* PTXSIM_RT_TEST_H */
