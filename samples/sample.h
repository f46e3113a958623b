/*
 * sample.h -- what every ptxsim sample shares: the size argument, a
 * deterministic input generator, CUDA error checks and the PASS/FAIL line.
 *
 * Each sample takes one argument, tiny (the default, for CI), small or
 * standard (a few take problem dimensions after it: dimension_arg); checks
 * the device result against a host computation with a stated tolerance;
 * prints one line "PASS <name> ..." or "FAIL <name> ..."; and exits
 * non-zero on failure.
 */
#ifndef PTXSIM_SAMPLE_H
#define PTXSIM_SAMPLE_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t err_ = (call);                                                  \
        if (err_ != cudaSuccess) {                                                  \
            std::printf("FAIL %s: %s at %s:%d: %s\n", sample_name, #call, __FILE__,  \
                        __LINE__, cudaGetErrorString(err_));                        \
            std::exit(1);                                                           \
        }                                                                           \
    } while (0)

enum sample_size { SIZE_TINY, SIZE_SMALL, SIZE_STANDARD };

static const char *sample_name = "sample";

static inline sample_size parse_size(int argc, char **argv, const char *name)
{
    sample_name = name;
    if (argc < 2 || std::strcmp(argv[1], "tiny") == 0)
        return SIZE_TINY;
    if (std::strcmp(argv[1], "small") == 0)
        return SIZE_SMALL;
    if (std::strcmp(argv[1], "standard") == 0)
        return SIZE_STANDARD;
    std::fprintf(stderr, "usage: %s [tiny|small|standard]\n", argv[0]);
    std::exit(2);
}

/* An optional further argument overrides one of a sample's problem
 * dimensions: the which-th after the size (samples that take them say so),
 * or fallback.  The cache study's ablations use it to give a matrix the
 * power-of-two row pitch of the inputs they compare with. */
static inline int dimension_arg(int argc, char **argv, int which, int fallback)
{
    if (argc < 3 + which)
        return fallback;
    char *end;
    long v = std::strtol(argv[2 + which], &end, 10);
    if (*end || v < 1 || v > (1 << 20)) {
        std::fprintf(stderr, "%s: dimension '%s' is not a whole number from 1 to %d\n", sample_name,
                     argv[2 + which], 1 << 20);
        std::exit(2);
    }
    return (int)v;
}

static inline const char *size_name(sample_size s)
{
    return s == SIZE_TINY ? "tiny" : s == SIZE_SMALL ? "small" : "standard";
}

/* A small deterministic generator (64-bit LCG), so inputs are the same on
 * every run and every machine. */
struct lcg {
    uint64_t state;
    explicit lcg(uint64_t seed) : state(seed * 6364136223846793005ull + 1442695040888963407ull) {}
    uint32_t next()
    {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (uint32_t)(state >> 33);
    }
    /* Uniform in [lo, hi). */
    float uniform(float lo, float hi) { return lo + (hi - lo) * (float)(next() & 0xFFFFFF) / 16777216.0f; }
};

/* Print the verdict line and return the exit status. */
static inline int report(bool ok, const char *detail)
{
    std::printf("%s %s %s\n", ok ? "PASS" : "FAIL", sample_name, detail);
    return ok ? 0 : 1;
}

#endif /* PTXSIM_SAMPLE_H */
