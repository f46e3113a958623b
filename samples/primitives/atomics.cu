/*
 * atomics -- every thread of the grid hits the same few words at once, with
 * each kind of atomic, and keeps the old value the atomic returned.
 *
 * The final value of a commutative operation does not depend on the order
 * the threads got in, so it is checked exactly.  The returned old values do
 * depend on the order, but every order leaves the same trace: the atomics
 * on one word form a chain init -> v1 -> v2 -> ... -> final, each thread
 * seeing one link (old, op(old, arg)).  So, as multisets,
 *     { old_i } + { final }  ==  { op(old_i, arg_i) } + { init }
 * which the host checks per word.  Where every thread applies the same
 * operation (add 1, inc, dec) the chain is fixed, and the olds must be
 * exactly its first links.
 *
 * Covered: atomicAdd on int, unsigned long long, float and double (the
 * float and double addends are small multiples of a power of two, so that
 * no partial sum in any order needs more than the 24 bits of a float's
 * significand, and every order sums exactly); atomicMin/Max on int and unsigned; atomicExch;
 * atomicInc/atomicDec with their wrap rules (inc: old >= limit -> 0;
 * dec: old == 0 or old > limit -> limit), starting both inside and outside
 * the range; and two operations built from an atomicCAS retry loop, a
 * 32-bit multiply modulo a prime and a 64-bit saturating add.
 */
#include <algorithm>
#include <vector>

#include "sample.h"

#define BLOCK 256
#define WORDS 4 /* contended words per operation; thread t uses word t % WORDS */
#define PRIME 1000003u
#define SAT_CAP 0x00FFFFFFFFFFull

/* A multiply modulo PRIME that other threads may race with: retry until the
 * word still held what the new value was computed from. */
__device__ unsigned atomic_mulmod(unsigned *addr, unsigned v)
{
    unsigned old = *addr, seen;
    do {
        seen = old;
        unsigned next = (unsigned)((unsigned long long)seen * v % PRIME);
        old = atomicCAS(addr, seen, next);
    } while (old != seen);
    return old;
}

__device__ unsigned long long atomic_sat_add(unsigned long long *addr, unsigned long long v)
{
    unsigned long long old = *addr, seen;
    do {
        seen = old;
        unsigned long long next = seen + v > SAT_CAP ? SAT_CAP : seen + v;
        old = atomicCAS(addr, seen, next);
    } while (old != seen);
    return old;
}

struct words {
    int add_i[WORDS];
    unsigned long long add_u64[WORDS];
    float add_f[WORDS];
    double add_d[WORDS];
    int min_i[WORDS], max_i[WORDS];
    unsigned min_u[WORDS], max_u[WORDS];
    unsigned exch[WORDS];
    unsigned inc[WORDS], dec[WORDS];
    unsigned mulmod[WORDS];
    unsigned long long satadd[WORDS];
    unsigned count[WORDS]; /* atomicAdd of 1: the olds are 0..n/WORDS-1 */
};

struct olds {
    int *add_i;
    unsigned long long *add_u64;
    float *add_f;
    double *add_d;
    int *min_i, *max_i;
    unsigned *min_u, *max_u, *exch, *inc, *dec, *mulmod, *count;
    unsigned long long *satadd;
};

struct args {
    int *i;        /* int operand: add, min, max */
    unsigned *u;   /* unsigned operand: min, max, exch, mulmod (1..PRIME-1) */
    float *f;      /* multiples of 1/2 in [-2, 2) */
    double *d;     /* multiples of 1/1024 in [-2, 2) */
    unsigned long long *u64;
};

__global__ void contend(words *w, olds o, args a, int n, unsigned inc_limit, unsigned dec_limit)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int k = t % WORDS;
    o.add_i[t] = atomicAdd(&w->add_i[k], a.i[t]);
    o.add_u64[t] = atomicAdd(&w->add_u64[k], a.u64[t]);
    o.add_f[t] = atomicAdd(&w->add_f[k], a.f[t]);
    o.add_d[t] = atomicAdd(&w->add_d[k], a.d[t]);
    o.min_i[t] = atomicMin(&w->min_i[k], a.i[t]);
    o.max_i[t] = atomicMax(&w->max_i[k], a.i[t]);
    o.min_u[t] = atomicMin(&w->min_u[k], a.u[t]);
    o.max_u[t] = atomicMax(&w->max_u[k], a.u[t]);
    o.exch[t] = atomicExch(&w->exch[k], a.u[t]);
    o.inc[t] = atomicInc(&w->inc[k], inc_limit);
    o.dec[t] = atomicDec(&w->dec[k], dec_limit);
    o.mulmod[t] = atomic_mulmod(&w->mulmod[k], a.u[t] % (PRIME - 1) + 1);
    o.satadd[t] = atomic_sat_add(&w->satadd[k], a.u64[t]);
    o.count[t] = atomicAdd(&w->count[k], 1u);
}

/* The chain check: olds of word k, with the op applied to each thread's
 * argument, must form one chain from init to final. */
template <typename T, typename Op>
static bool chain_ok(const T *old, int n, int k, T init, T final_, Op op)
{
    std::vector<T> from, to;
    for (int t = k; t < n; t += WORDS) {
        from.push_back(old[t]);
        to.push_back(op(old[t], t));
    }
    from.push_back(final_);
    to.push_back(init);
    std::sort(from.begin(), from.end());
    std::sort(to.begin(), to.end());
    return from == to;
}

/* Same-op chains: the olds must be exactly f^0(init) .. f^(m-1)(init). */
template <typename Step>
static bool fixed_chain_ok(const unsigned *old, int n, int k, unsigned init, unsigned final_, Step step)
{
    std::vector<unsigned> got, want;
    unsigned v = init;
    for (int t = k; t < n; t += WORDS) {
        got.push_back(old[t]);
        want.push_back(v);
        v = step(v);
    }
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    return got == want && v == final_;
}

template <typename T> static T *dev_alloc(size_t count)
{
    T *p;
    CHECK(cudaMalloc(&p, sizeof(T) * count));
    return p;
}

template <typename T> static std::vector<T> fetch(const T *d, int n)
{
    std::vector<T> h(n);
    CHECK(cudaMemcpy(h.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost));
    return h;
}

int main(int argc, char **argv)
{
    sample_size size = parse_size(argc, argv, "atomics");
    int n = size == SIZE_TINY ? 1000 + 1 : size == SIZE_SMALL ? 1600000 + 1 : 4000000 + 1;
    /* Limits that wrap several times over n / WORDS operations, and one
     * word per op starting above the limit. */
    unsigned inc_limit = 97, dec_limit = 61;

    std::vector<int> ai(n);
    std::vector<unsigned> au(n);
    std::vector<float> af(n);
    std::vector<double> ad(n);
    std::vector<unsigned long long> au64(n);
    lcg rng(41);
    for (int t = 0; t < n; t++) {
        ai[t] = (int)(rng.next() % 200001) - 100000;
        au[t] = rng.next() * 2u + (rng.next() & 1);
        af[t] = (float)((int)(rng.next() % 8) - 4) / 2.0f;
        ad[t] = (double)((int)(rng.next() % 4096) - 2048) / 1024.0;
        au64[t] = ((unsigned long long)rng.next() << 8) | (rng.next() & 0xFF);
    }

    words init;
    std::memset(&init, 0, sizeof init);
    for (int k = 0; k < WORDS; k++) {
        init.add_i[k] = 1000 * k - 1500;
        init.add_u64[k] = 0xFFFFFFFF00000000ull + k; /* carries across the 32-bit halves */
        init.add_f[k] = 0.5f * k;
        init.add_d[k] = -0.25 * k;
        init.min_i[k] = k == 0 ? -2000000000 : 100000 - 7 * k; /* word 0: nothing lowers it */
        init.max_i[k] = k == 0 ? 2000000000 : -100000 + 7 * k;
        init.min_u[k] = 0xF0000000u + k;
        init.max_u[k] = 0x10000000u * k;
        init.exch[k] = 0xE0000000u + k;
        init.inc[k] = k == WORDS - 1 ? inc_limit + 5 : 13 * k;
        init.dec[k] = k == WORDS - 1 ? dec_limit + 9 : k == 0 ? 0 : 11 * k;
        init.mulmod[k] = 1 + k;
        init.satadd[k] = k * 1000ull;
        init.count[k] = 0;
    }

    words *dw = dev_alloc<words>(1);
    olds o;
    o.add_i = dev_alloc<int>(n);
    o.add_u64 = dev_alloc<unsigned long long>(n);
    o.add_f = dev_alloc<float>(n);
    o.add_d = dev_alloc<double>(n);
    o.min_i = dev_alloc<int>(n);
    o.max_i = dev_alloc<int>(n);
    o.min_u = dev_alloc<unsigned>(n);
    o.max_u = dev_alloc<unsigned>(n);
    o.exch = dev_alloc<unsigned>(n);
    o.inc = dev_alloc<unsigned>(n);
    o.dec = dev_alloc<unsigned>(n);
    o.mulmod = dev_alloc<unsigned>(n);
    o.count = dev_alloc<unsigned>(n);
    o.satadd = dev_alloc<unsigned long long>(n);
    args a;
    a.i = dev_alloc<int>(n);
    a.u = dev_alloc<unsigned>(n);
    a.f = dev_alloc<float>(n);
    a.d = dev_alloc<double>(n);
    a.u64 = dev_alloc<unsigned long long>(n);
    CHECK(cudaMemcpy(a.i, ai.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(a.u, au.data(), sizeof(unsigned) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(a.f, af.data(), sizeof(float) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(a.d, ad.data(), sizeof(double) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(a.u64, au64.data(), sizeof(unsigned long long) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dw, &init, sizeof init, cudaMemcpyHostToDevice));

    contend<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(dw, o, a, n, inc_limit, dec_limit);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    words fin;
    CHECK(cudaMemcpy(&fin, dw, sizeof fin, cudaMemcpyDeviceToHost));
    std::vector<int> o_add_i = fetch(o.add_i, n), o_min_i = fetch(o.min_i, n), o_max_i = fetch(o.max_i, n);
    std::vector<unsigned long long> o_add_u64 = fetch(o.add_u64, n), o_satadd = fetch(o.satadd, n);
    std::vector<float> o_add_f = fetch(o.add_f, n);
    std::vector<double> o_add_d = fetch(o.add_d, n);
    std::vector<unsigned> o_min_u = fetch(o.min_u, n), o_max_u = fetch(o.max_u, n), o_exch = fetch(o.exch, n),
                          o_inc = fetch(o.inc, n), o_dec = fetch(o.dec, n), o_mulmod = fetch(o.mulmod, n),
                          o_count = fetch(o.count, n);

    /* Each op: the final value from a host fold, then the chain of olds. */
    const int OPS = 14;
    const char *name[OPS] = {"add.s32", "add.u64", "add.f32", "add.f64", "min.s32", "max.s32", "min.u32",
                             "max.u32", "exch",    "inc",     "dec",     "cas-mulmod", "cas-satadd", "add-1"};
    bool final_ok[OPS], olds_ok[OPS];
    for (int i = 0; i < OPS; i++)
        final_ok[i] = olds_ok[i] = true;
    auto inc_step = [&](unsigned v) { return v >= inc_limit ? 0u : v + 1; };
    auto dec_step = [&](unsigned v) { return v == 0 || v > dec_limit ? dec_limit : v - 1; };
    for (int k = 0; k < WORDS; k++) {
        unsigned add_i = (unsigned)init.add_i[k], min_u = init.min_u[k], max_u = init.max_u[k];
        unsigned mulmod = init.mulmod[k];
        unsigned long long add_u64 = init.add_u64[k], satadd = init.satadd[k];
        double add_f = init.add_f[k], add_d = init.add_d[k];
        int min_i = init.min_i[k], max_i = init.max_i[k];
        for (int t = k; t < n; t += WORDS) {
            add_i += (unsigned)ai[t];
            add_u64 += au64[t];
            add_f += af[t];
            add_d += ad[t];
            min_i = std::min(min_i, ai[t]);
            max_i = std::max(max_i, ai[t]);
            min_u = std::min(min_u, au[t]);
            max_u = std::max(max_u, au[t]);
            mulmod = (unsigned)((unsigned long long)mulmod * (au[t] % (PRIME - 1) + 1) % PRIME);
            satadd = satadd + au64[t] > SAT_CAP ? SAT_CAP : satadd + au64[t];
        }
        final_ok[0] &= (unsigned)fin.add_i[k] == add_i;
        final_ok[1] &= fin.add_u64[k] == add_u64;
        final_ok[2] &= (double)fin.add_f[k] == add_f;
        final_ok[3] &= fin.add_d[k] == add_d;
        final_ok[4] &= fin.min_i[k] == min_i;
        final_ok[5] &= fin.max_i[k] == max_i;
        final_ok[6] &= fin.min_u[k] == min_u;
        final_ok[7] &= fin.max_u[k] == max_u;
        final_ok[11] &= fin.mulmod[k] == mulmod;
        final_ok[12] &= fin.satadd[k] == satadd;

        olds_ok[0] &= chain_ok<unsigned>((const unsigned *)o_add_i.data(), n, k, (unsigned)init.add_i[k],
                                         (unsigned)fin.add_i[k], [&](unsigned v, int t) { return v + (unsigned)ai[t]; });
        olds_ok[1] &= chain_ok<unsigned long long>(o_add_u64.data(), n, k, init.add_u64[k], fin.add_u64[k],
                                                   [&](unsigned long long v, int t) { return v + au64[t]; });
        olds_ok[2] &= chain_ok<float>(o_add_f.data(), n, k, init.add_f[k], fin.add_f[k],
                                      [&](float v, int t) { return v + af[t]; });
        olds_ok[3] &= chain_ok<double>(o_add_d.data(), n, k, init.add_d[k], fin.add_d[k],
                                       [&](double v, int t) { return v + ad[t]; });
        olds_ok[4] &= chain_ok<int>(o_min_i.data(), n, k, init.min_i[k], fin.min_i[k],
                                    [&](int v, int t) { return std::min(v, ai[t]); });
        olds_ok[5] &= chain_ok<int>(o_max_i.data(), n, k, init.max_i[k], fin.max_i[k],
                                    [&](int v, int t) { return std::max(v, ai[t]); });
        olds_ok[6] &= chain_ok<unsigned>(o_min_u.data(), n, k, init.min_u[k], fin.min_u[k],
                                         [&](unsigned v, int t) { return std::min(v, au[t]); });
        olds_ok[7] &= chain_ok<unsigned>(o_max_u.data(), n, k, init.max_u[k], fin.max_u[k],
                                         [&](unsigned v, int t) { return std::max(v, au[t]); });
        /* Exch: the olds plus the final value are the init plus every argument. */
        olds_ok[8] &= chain_ok<unsigned>(o_exch.data(), n, k, init.exch[k], fin.exch[k],
                                         [&](unsigned, int t) { return au[t]; });
        olds_ok[9] &= fixed_chain_ok(o_inc.data(), n, k, init.inc[k], fin.inc[k], inc_step);
        olds_ok[10] &= fixed_chain_ok(o_dec.data(), n, k, init.dec[k], fin.dec[k], dec_step);
        olds_ok[11] &= chain_ok<unsigned>(o_mulmod.data(), n, k, init.mulmod[k], fin.mulmod[k], [&](unsigned v, int t) {
            return (unsigned)((unsigned long long)v * (au[t] % (PRIME - 1) + 1) % PRIME);
        });
        olds_ok[12] &= chain_ok<unsigned long long>(o_satadd.data(), n, k, init.satadd[k], fin.satadd[k],
                                                    [&](unsigned long long v, int t) {
                                                        return v + au64[t] > SAT_CAP ? SAT_CAP : v + au64[t];
                                                    });
        olds_ok[13] &= fixed_chain_ok(o_count.data(), n, k, 0u, fin.count[k], [](unsigned v) { return v + 1; });
    }
    /* The fixed chains check their final values themselves; exch's final
     * value is whichever thread came last, which the chain check covers. */

    char detail[400];
    int len = std::snprintf(detail, sizeof detail, "size=%s threads=%d words/op=%d wrong:", size_name(size), n, WORDS);
    bool ok = true;
    for (int i = 0; i < OPS; i++) {
        if (!final_ok[i] || !olds_ok[i])
            len += std::snprintf(detail + len, sizeof detail - len, " %s(%s)", name[i],
                                 !final_ok[i] && !olds_ok[i] ? "final+olds" : !final_ok[i] ? "final" : "olds");
        ok &= final_ok[i] && olds_ok[i];
    }
    if (ok)
        len += std::snprintf(detail + len, sizeof detail - len, " none");
    std::snprintf(detail + len, sizeof detail - len, " (tolerance: exact)");

    CHECK(cudaFree(dw));
    void *bufs[] = {o.add_i, o.add_u64, o.add_f, o.add_d, o.min_i,  o.max_i, o.min_u, o.max_u, o.exch, o.inc,
                    o.dec,   o.mulmod,  o.count, o.satadd, a.i,     a.u,     a.f,     a.d,     a.u64};
    for (void *p : bufs)
        CHECK(cudaFree(p));
    return report(ok, detail);
}
