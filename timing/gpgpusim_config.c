/*
 * gpgpusim_config.c -- GPGPU-Sim's gpgpusim.config as a ptxsim machine.
 *
 * The file is "-option value" pairs, '#' comments (also after a value), and
 * quoted values that may go on over several lines (-gpgpu_dram_timing_opt).
 * Each option is one row of `options` below: either a function that sets
 * ptxsim parameters, or the group it is listed under when it has no ptxsim
 * counterpart.  Options that combine (cores = clusters x cores per cluster,
 * DRAM bandwidth = bus width x chips x data rate, ...) are collected first
 * and resolved at the end, so their order in the file does not matter.
 *
 * Options the file leaves out keep ptxsim's defaults (params.def), not
 * GPGPU-Sim's built-in ones.  docs/gpgpusim.md has the whole mapping.
 *
 * Memory partitions: GPGPU-Sim has n_mem DRAM channels, each with
 * n_sub_partition_per_mchannel L2 slices; a ptxsim partition is one L2
 * slice with a DRAM channel of its own.  Each slice becomes a partition, so
 * the L2's capacity, slice count and interleave are GPGPU-Sim's, and each
 * channel's bandwidth, banks and scheduler queue are split evenly between
 * the partitions made from its slices, so the chip's totals are kept.  What
 * this does not model is two slices competing for one channel's rows.
 */
#include "timing.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The groups of options (and parts of options) that are not translated
 * exactly, in the order they are listed. */
enum { G_APPROX, G_NOTMOD, G_FUNC, G_OUTPUT, G_UNKNOWN, G_COUNT };
static const char *const group_names[G_COUNT] = {
    [G_APPROX] = "approximated",
    [G_NOTMOD] = "not modelled",
    [G_FUNC] = "functional-simulator options with no timing meaning",
    [G_OUTPUT] = "statistics, tracing and power options",
    [G_UNKNOWN] = "unknown options",
};

/* A value seen in the file, with its line, for options resolved at the end. */
typedef struct gs_val {
    bool set;
    uint64_t v;
    uint32_t line;
} gs_val;

typedef struct gs_text {
    char *s;
    size_t len, cap;
} gs_text;

typedef struct gs_reader {
    tm_config *c;
    const char *file;
    uint32_t line;              /* of the option being translated */
    ptx_diag *diag;
    ptx_status st;
    unsigned translated;
    gs_text group[G_COUNT];
    /* Collected for the end. */
    gs_val clusters, cores_per_cluster;
    gs_val n_mem, n_sub, bus_width, chips, data_ratio, nbk, nbkgrp, dram_queue;
    gs_val rop_latency, shmem_size, shmem_default;
    gs_val sp_units, int_units, dp_units;
    gs_val oc_special, oc_sp, oc_dp, oc_int, oc_sfu, oc_mem, oc_gen;
    gs_val perfect_inst_const;
} gs_reader;

static void gs_error(gs_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gs_error(gs_reader *r, const char *fmt, ...)
{
    char msg[220];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->st = ptx_error(r->diag, PTX_E_INVALID_VALUE, r->file, r->line, 1, "%s", msg);
}

/* Add an item to a group's list, once: an option named twice is listed at
 * its first mention. */
static void note(gs_reader *r, int g, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(gs_reader *r, int g, const char *fmt, ...)
{
    char item[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(item, sizeof item, fmt, ap);
    va_end(ap);
    gs_text *t = &r->group[g];
    for (const char *p = t->s; p && (p = strstr(p, item));) {
        bool starts = p == t->s || (p - t->s >= 2 && p[-2] == ',' && p[-1] == ' ');
        char after = p[strlen(item)];
        if (starts && (after == ',' || after == '\0'))
            return;
        p++;
    }
    size_t need = t->len + strlen(item) + 3;
    if (need > t->cap) {
        size_t cap = need * 2;
        char *s = realloc(t->s, cap);
        if (!s)
            return;             /* a list cut short is still a list */
        t->s = s;
        t->cap = cap;
    }
    t->len += (size_t)sprintf(t->s + t->len, "%s%s", t->len ? ", " : "", item);
}

/* Set a ptxsim parameter, checked against its range; an error names the
 * option and the line it came from. */
static void set_u(gs_reader *r, const char *opt, const char *key, uint64_t v)
{
    char val[32], why[200];
    snprintf(val, sizeof val, "%llu", (unsigned long long)v);
    if (!tm_config_set_one(r->c, key, val, why, sizeof why))
        gs_error(r, "%s: %s", opt, why);
}

static void set_w(gs_reader *r, const char *opt, const char *key, const char *word)
{
    char why[200];
    if (!tm_config_set_one(r->c, key, word, why, sizeof why))
        gs_error(r, "%s: %s", opt, why);
}

/* A non-negative integer, or a number with a fraction (clocks) rounded. */
static bool num(gs_reader *r, const char *opt, const char *s, uint64_t *out)
{
    errno = 0;
    char *end;
    double d = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == s || *end || errno || !(d >= 0) || d > 1e18) {
        gs_error(r, "%s needs a non-negative number, not '%s'", opt, s);
        return false;
    }
    *out = (uint64_t)(d + 0.5);
    return true;
}

static void keep(gs_reader *r, gs_val *v, const char *opt, const char *s)
{
    uint64_t x;
    if (num(r, opt, s, &x))
        *v = (gs_val){ true, x, r->line };
}

/* Up to n numbers separated by sep; returns how many, or -1 (reported). */
static int list(gs_reader *r, const char *opt, const char *s, char sep, uint64_t *out, int n)
{
    int k = 0;
    for (;;) {
        char item[64];
        size_t len = strcspn(s, (char[]){ sep, '\0' });
        if (k == n || len == 0 || len >= sizeof item) {
            gs_error(r, "%s: expected at most %d numbers separated by '%c', found '%s'", opt, n, sep, s);
            return -1;
        }
        memcpy(item, s, len);
        item[len] = '\0';
        if (!num(r, opt, item, &out[k++]))
            return -1;
        if (!s[len])
            return k;
        s += len + 1;
    }
}

/* ---- options with one meaning each ------------------------------------------ */

typedef void gs_fn(gs_reader *r, const char *opt, const char *val);

#define ONE(fn, key)                                                                                       \
    static void fn(gs_reader *r, const char *opt, const char *val)                                        \
    {                                                                                                      \
        uint64_t v;                                                                                        \
        if (num(r, opt, val, &v))                                                                          \
            set_u(r, opt, key, v);                                                                         \
    }
ONE(opt_registers, "sm_registers")
ONE(opt_cta, "sm_max_ctas")
ONE(opt_reg_banks, "rf_banks")
ONE(opt_schedulers, "n_schedulers")
ONE(opt_sfu_units, "n_sfu")
ONE(opt_tensor_units, "n_tensor")
ONE(opt_shmem_banks, "shmem_banks")
ONE(opt_l1_latency, "l1_latency")
ONE(opt_smem_latency, "shmem_latency")
ONE(opt_dram_latency, "dram_latency")
ONE(opt_flit, "icnt_flit_bytes")
ONE(opt_lat_sfu, "lat_sfu")
ONE(opt_ii_sfu, "ii_sfu")
ONE(opt_lat_tensor, "lat_tensor")
#undef ONE

#define KEEP(fn, field)                                                                                    \
    static void fn(gs_reader *r, const char *opt, const char *val) { keep(r, &r->field, opt, val); }
KEEP(opt_clusters, clusters)
KEEP(opt_cores_per_cluster, cores_per_cluster)
KEEP(opt_n_mem, n_mem)
KEEP(opt_n_sub, n_sub)
KEEP(opt_bus_width, bus_width)
KEEP(opt_chips, chips)
KEEP(opt_data_ratio, data_ratio)
KEEP(opt_dram_queue, dram_queue)
KEEP(opt_rop_latency, rop_latency)
KEEP(opt_shmem_size, shmem_size)
KEEP(opt_shmem_default, shmem_default)
KEEP(opt_sp_units, sp_units)
KEEP(opt_int_units, int_units)
KEEP(opt_dp_units, dp_units)
KEEP(opt_oc_special, oc_special)
KEEP(opt_oc_sp, oc_sp)
KEEP(opt_oc_dp, oc_dp)
KEEP(opt_oc_int, oc_int)
KEEP(opt_oc_sfu, oc_sfu)
KEEP(opt_oc_mem, oc_mem)
KEEP(opt_oc_gen, oc_gen)
KEEP(opt_perfect_inst_const, perfect_inst_const)
#undef KEEP

/* "<core>:<icnt>:<l2>:<dram>" in MHz. */
static void opt_clocks(gs_reader *r, const char *opt, const char *val)
{
    uint64_t mhz[4];
    int n = list(r, opt, val, ':', mhz, 4);
    if (n < 0)
        return;
    if (n != 4) {
        gs_error(r, "%s needs <core>:<interconnect>:<L2>:<DRAM> clocks in MHz, found '%s'", opt, val);
        return;
    }
    set_u(r, opt, "core_clock_mhz", mhz[0]);
    set_u(r, opt, "icnt_clock_mhz", mhz[1]);
    set_u(r, opt, "l2_clock_mhz", mhz[2]);
    set_u(r, opt, "dram_clock_mhz", mhz[3]);
}

/* "<threads per SM>:<warp size>". */
static void opt_pipeline(gs_reader *r, const char *opt, const char *val)
{
    uint64_t v[2];
    int n = list(r, opt, val, ':', v, 2);
    if (n < 0)
        return;
    if (n == 2 && v[1] != 32) {
        gs_error(r, "%s: ptxsim's warps are 32 threads, not %llu", opt, (unsigned long long)v[1]);
        return;
    }
    set_u(r, opt, "sm_max_threads", v[0]);
}

/* The pipeline widths: GPGPU-Sim 3's seven (ID_OC_SP, ID_OC_SFU, ID_OC_MEM,
 * then the OC_EX and EX_WB widths) or 4's eleven or thirteen (ID_OC_SP,
 * ID_OC_DP, ID_OC_INT, ID_OC_SFU, ID_OC_MEM, ...).  ptxsim models the ports
 * into the collector units, per class: its ALU class holds SP, DP and INT. */
static void opt_pipeline_widths(gs_reader *r, const char *opt, const char *val)
{
    uint64_t v[16];
    int n = list(r, opt, val, ',', v, 16);
    if (n < 0)
        return;
    if (n == 7) {
        set_u(r, opt, "oc_ports_alu", v[0]);
        set_u(r, opt, "oc_ports_sfu", v[1]);
        set_u(r, opt, "oc_ports_mem", v[2]);
    } else if (n >= 11) {
        set_u(r, opt, "oc_ports_alu", v[0] + v[1] + v[2]);
        set_u(r, opt, "oc_ports_sfu", v[3]);
        set_u(r, opt, "oc_ports_mem", v[4]);
    } else {
        gs_error(r, "%s needs 7, 11 or 13 widths, found %d in '%s'", opt, n, val);
        return;
    }
    note(r, G_NOTMOD, "%s (the OC_EX and EX_WB widths)", opt);
}

/* lrr, gto, two_level_active:<active warps>:<inner>:<outer>. */
static void opt_scheduler(gs_reader *r, const char *opt, const char *val)
{
    if (strcmp(val, "lrr") == 0 || strcmp(val, "gto") == 0) {
        set_w(r, opt, "scheduler", val);
    } else if (strncmp(val, "two_level_active:", 17) == 0) {
        uint64_t v[3];
        int n = list(r, opt, val + 17, ':', v, 3);
        if (n < 0)
            return;
        set_w(r, opt, "scheduler", "two_level");
        set_u(r, opt, "two_level_active", v[0]);
        if (n > 1)
            note(r, G_NOTMOD, "%s (inner and outer prioritization)", opt);
    } else {
        gs_error(r, "%s %s has no ptxsim counterpart (lrr, gto, two_level_active:N)", opt, val);
    }
}

static void opt_dram_scheduler(gs_reader *r, const char *opt, const char *val)
{
    uint64_t v;
    if (!num(r, opt, val, &v))
        return;
    if (v > 1)
        gs_error(r, "%s must be 0 (FIFO) or 1 (FR-FCFS), not %s", opt, val);
    else
        set_w(r, opt, "dram_scheduler", v ? "frfcfs" : "fcfs");
}

static void opt_skip_l1d(gs_reader *r, const char *opt, const char *val)
{
    uint64_t v;
    if (num(r, opt, val, &v))
        set_w(r, opt, "l1_global", v ? "bypass" : "cache");
}

/* 0 consecutive, 1 bitwise XOR, 2 IPOLY, 3 PAE, 4 random, 5 custom. */
static void opt_partition_indexing(gs_reader *r, const char *opt, const char *val)
{
    static const char *const names[] = { "consecutive", "bitwise XOR", "IPOLY", "PAE", "random", "custom" };
    uint64_t v;
    if (!num(r, opt, val, &v))
        return;
    if (v > 5) {
        gs_error(r, "%s must be 0 to 5, not %s", opt, val);
        return;
    }
    static const char *const to[] = { "linear", "xor", "pric", "xor", "xor", "xor" };
    set_w(r, opt, "partition_index", to[v]);
    if (v >= 2)
        note(r, G_APPROX, "%s %llu (%s) as partition_index = %s", opt, (unsigned long long)v, names[v], to[v]);
}

/* dramid@<bit>;<mask of R B C S bits>: the partition interleave is 2^bit;
 * a row holds the column and burst bits. */
static void opt_addr_mapping(gs_reader *r, const char *opt, const char *val)
{
    const char *at = strstr(val, "dramid@");
    if (!at) {
        gs_error(r, "%s: expected dramid@<bit>;<address mask>, found '%s'", opt, val);
        return;
    }
    char *end;
    unsigned long bit = strtoul(at + 7, &end, 10);
    if (end == at + 7 || bit > 40) {
        gs_error(r, "%s: dramid@ needs a bit number, found '%s'", opt, at);
        return;
    }
    set_u(r, opt, "partition_stride", 1ull << bit);
    const char *mask = strchr(val, ';');
    if (!mask)
        return;
    unsigned col = 0;
    for (const char *p = mask + 1; *p; p++)
        col += *p == 'C' || *p == 'S';
    if (col)
        set_u(r, opt, "dram_row_bytes", 1ull << col);
}

/* "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:..." or the older
 * positional "nbk:tCCD:tRRD:tRCD:tRAS:tRP:tRC:CL:WL:tCDLR:tWR:nbkgrp:tCCDL:tRTPL". */
static void opt_dram_timing(gs_reader *r, const char *opt, const char *val)
{
    static const char *const pos[] = { "nbk", "CCD", "RRD", "RCD", "RAS", "RP", "RC", "CL",
                                       "WL",  "CDLR", "WR", "nbkgrp", "CCDL", "RTPL" };
    static const struct { const char *name, *key; } used[] = {
        { "RCD", "dram_tRCD" }, { "RAS", "dram_tRAS" }, { "RP", "dram_tRP" }, { "CL", "dram_tCL" },
        { "CCD", "dram_tCCD" }, { "CCDL", "dram_tCCDL" }, { "RRD", "dram_tRRD" }, { "CDLR", "dram_tCDLR" },
    };
    char dropped[200] = "";
    bool named = strchr(val, '=') != NULL, found = false;
    const char *s = val;
    for (unsigned i = 0; *s; i++) {
        while (*s == ':' || isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        size_t len = strcspn(s, ":");
        char item[64];
        if (len >= sizeof item || (!named && i >= sizeof pos / sizeof pos[0])) {
            gs_error(r, "%s: cannot read '%.*s'", opt, (int)len, s);
            return;
        }
        memcpy(item, s, len);
        item[len] = '\0';
        s += len;
        const char *name = pos[i < sizeof pos / sizeof pos[0] ? i : 0];
        char *v = item;
        if (named) {
            char *eq = strchr(item, '=');
            if (!eq) {
                gs_error(r, "%s: expected name=value, found '%s'", opt, item);
                return;
            }
            *eq = '\0';
            name = item;
            v = eq + 1;
        }
        uint64_t x;
        if (!num(r, opt, v, &x))
            return;
        found = true;
        bool mapped = false;
        if (strcmp(name, "nbk") == 0) {
            r->nbk = (gs_val){ true, x, r->line };
            mapped = true;
        }
        if (strcmp(name, "nbkgrp") == 0) {
            r->nbkgrp = (gs_val){ true, x, r->line };
            mapped = true;
        }
        for (size_t k = 0; k < sizeof used / sizeof used[0]; k++)
            if (strcmp(name, used[k].name) == 0) {
                set_u(r, opt, used[k].key, x);
                mapped = true;
            }
        if (!mapped && strlen(dropped) + strlen(name) + 2 < sizeof dropped)
            sprintf(dropped + strlen(dropped), "%s%s", *dropped ? " " : "", name);
    }
    if (!found)
        gs_error(r, "%s: no timing values in '%s'", opt, val);
    else if (*dropped)
        note(r, G_NOTMOD, "%s (%s)", opt, dropped);
}

/* "ADD,MAX,MUL,MAD,DIV[,SHFL]" (int), "ADD,MAX,MUL,MAD,DIV" (fp, dp): the
 * fields ptxsim has a parameter for, by position; the rest are listed. */
static void opcode_list(gs_reader *r, const char *opt, const char *val, const char *const keys[6])
{
    static const char *const fields[] = { "ADD", "MAX", "MUL", "MAD", "DIV", "SHFL" };
    uint64_t v[6];
    int n = list(r, opt, val, ',', v, 6);
    if (n < 0)
        return;
    char dropped[64] = "";
    for (int i = 0; i < n; i++) {
        if (keys[i])
            set_u(r, opt, keys[i], v[i]);
        else
            sprintf(dropped + strlen(dropped), "%s%s", *dropped ? " " : "", fields[i]);
    }
    if (*dropped)
        note(r, G_NOTMOD, "%s (%s)", opt, dropped);
}

#define OPCODES(fn, a, m, mu, ma, d, sh)                                                                   \
    static void fn(gs_reader *r, const char *opt, const char *val)                                        \
    {                                                                                                      \
        static const char *const keys[6] = { a, m, mu, ma, d, sh };                                        \
        opcode_list(r, opt, val, keys);                                                                    \
    }
OPCODES(opt_lat_int, "lat_int", NULL, "lat_imul", NULL, "lat_idiv", NULL)
OPCODES(opt_ii_int, "ii_int", NULL, NULL, NULL, "ii_idiv", NULL)
OPCODES(opt_lat_fp, "lat_fp", NULL, NULL, NULL, "lat_fdiv", NULL)
OPCODES(opt_ii_fp, "ii_fp", NULL, NULL, NULL, NULL, NULL)
OPCODES(opt_lat_dp, "lat_dp", NULL, NULL, NULL, NULL, NULL)
OPCODES(opt_ii_dp, "ii_dp", NULL, NULL, NULL, NULL, NULL)
#undef OPCODES

/* ---- cache geometry strings ---------------------------------------------------- */

/* [N|S:]<sets>:<line>:<assoc>,<rep>:<wr>:<alloc>:<wr_alloc>[:<index>],
 * <mshr type>:<entries>:<merge>,<miss queue>[:<fifo>][,<port width>] */
typedef struct gs_cache {
    char type, rep, wr, alloc, walloc, index, mshr;
    uint64_t sets, line, assoc, mshr_n, merge, mq, fifo;
    bool has_fifo, has_port;
} gs_cache;

static bool parse_cache(gs_reader *r, const char *opt, const char *val, gs_cache *k)
{
    memset(k, 0, sizeof *k);
    k->type = 'N';
    k->index = 'L';
    char s[256];
    if (strlen(val) >= sizeof s) {
        gs_error(r, "%s: the cache string is too long", opt);
        return false;
    }
    strcpy(s, val);
    for (char *p = s; *p; p++)
        if (isspace((unsigned char)*p)) {
            gs_error(r, "%s: a cache string has no spaces: '%s'", opt, val);
            return false;
        }
    char *part[5] = { 0 };
    int np = 0;
    for (char *p = s; p && np < 5; np++) {
        part[np] = p;
        p = strchr(p, ',');
        if (p)
            *p++ = '\0';
    }
    const char *form = "[N|S:]sets:line:assoc,rep:wr:alloc:wr_alloc[:index],mshr:entries:merge,miss_queue";
    if (np < 4) {
        gs_error(r, "%s: expected %s, found '%s'", opt, form, val);
        return false;
    }
    /* geometry */
    char *g = part[0];
    if ((g[0] == 'N' || g[0] == 'S') && g[1] == ':') {
        k->type = g[0];
        g += 2;
    } else if (isalpha((unsigned char)g[0])) {
        gs_error(r, "%s: the cache type must be N (normal) or S (sectored), not '%c'", opt, g[0]);
        return false;
    }
    uint64_t geo[3];
    char *e1, *e2, *e3;
    geo[0] = strtoull(g, &e1, 10);
    geo[1] = *e1 == ':' ? strtoull(e1 + 1, &e2, 10) : 0;
    geo[2] = *e1 == ':' && *e2 == ':' ? strtoull(e2 + 1, &e3, 10) : 0;
    if (*e1 != ':' || *e2 != ':' || *e3 || !geo[0] || !geo[1] || !geo[2]) {
        gs_error(r, "%s: expected sets:line:assoc (positive numbers), found '%s'", opt, part[0]);
        return false;
    }
    k->sets = geo[0], k->line = geo[1], k->assoc = geo[2];
    if (k->type == 'S' && k->line != 128) {
        gs_error(r, "%s: a sectored ('S') cache has 128-byte lines of four 32-byte sectors, not %llu-byte lines",
                 opt, (unsigned long long)k->line);
        return false;
    }
    /* policies */
    char *p = part[1];
    size_t pl = strlen(p);
    if (!(pl == 7 || pl == 9) || p[1] != ':' || p[3] != ':' || p[5] != ':' || (pl == 9 && p[7] != ':')) {
        gs_error(r, "%s: expected rep:wr:alloc:wr_alloc[:index] letters, found '%s'", opt, p);
        return false;
    }
    k->rep = p[0], k->wr = p[2], k->alloc = p[4], k->walloc = p[6];
    if (pl == 9)
        k->index = p[8];
    struct { char c; const char *ok, *what; } letters[] = {
        { k->rep, "LF", "replacement (L, F)" },       { k->wr, "RBTEL", "write policy (R, B, T, E, L)" },
        { k->alloc, "mfs", "allocation (m, f, s)" },  { k->walloc, "NWFL", "write allocation (N, W, F, L)" },
        { k->index, "LHPCXW", "set index (L, H, P, C, X, W)" },
    };
    for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++)
        if (!strchr(letters[i].ok, letters[i].c)) {
            gs_error(r, "%s: '%c' is not a %s", opt, letters[i].c, letters[i].what);
            return false;
        }
    /* MSHRs */
    char *m = part[2], *m1, *m2;
    if (!strchr("FTAS", m[0]) || m[1] != ':') {
        gs_error(r, "%s: expected mshr_type:entries:merge with type F, T, A or S, found '%s'", opt, m);
        return false;
    }
    k->mshr = m[0];
    k->mshr_n = strtoull(m + 2, &m1, 10);
    k->merge = *m1 == ':' ? strtoull(m1 + 1, &m2, 10) : 0;
    if (*m1 != ':' || *m2 || !k->mshr_n || !k->merge) {
        gs_error(r, "%s: expected mshr_type:entries:merge (positive numbers), found '%s'", opt, m);
        return false;
    }
    /* miss queue[:fifo] */
    char *q = part[3], *q1, *q2;
    k->mq = strtoull(q, &q1, 10);
    if (q1 == q || (*q1 && *q1 != ':')) {
        gs_error(r, "%s: expected miss_queue[:fifo_entries], found '%s'", opt, q);
        return false;
    }
    if (*q1 == ':') {
        k->fifo = strtoull(q1 + 1, &q2, 10);
        k->has_fifo = true;
        if (q2 == q1 + 1 || *q2) {
            gs_error(r, "%s: expected miss_queue[:fifo_entries], found '%s'", opt, q);
            return false;
        }
    }
    if (np > 4) {
        char *w;
        strtoull(part[4], &w, 10);
        if (w == part[4] || *w) {
            gs_error(r, "%s: expected the data port width after the miss queue, found '%s'", opt, part[4]);
            return false;
        }
        k->has_port = true;
    }
    return true;
}

/* Parameter names of one ptxsim cache, NULL where it has none. */
typedef struct gs_keys {
    const char *sets, *assoc, *line, *sector, *mshr, *merge, *mq, *index;
} gs_keys;

static void cache_apply(gs_reader *r, const char *opt, const char *val, const gs_keys *kk, bool read_only)
{
    gs_cache k;
    if (!parse_cache(r, opt, val, &k))
        return;
    uint64_t sets = k.sets, assoc = k.assoc;
    /* A cache more associative than ptxsim allows (RTX 2060's L1D is one set
     * of 512 ways) becomes more sets of fewer ways, the same capacity. */
    while (assoc > 256 && assoc % 2 == 0)
        assoc /= 2, sets *= 2;
    if (assoc != k.assoc)
        note(r, G_APPROX, "%s %llu sets x %llu ways as %llu sets x %llu ways", opt, (unsigned long long)k.sets,
             (unsigned long long)k.assoc, (unsigned long long)sets, (unsigned long long)assoc);
    set_u(r, opt, kk->sets, sets);
    set_u(r, opt, kk->assoc, assoc);
    set_u(r, opt, kk->line, k.line);
    if (kk->sector)
        set_u(r, opt, kk->sector, k.type == 'S' ? 32 : k.line);
    else if (k.type == 'S')
        note(r, G_APPROX, "%s sectored as unsectored", opt);
    set_u(r, opt, kk->mshr, k.mshr_n);
    if (kk->merge)
        set_u(r, opt, kk->merge, k.merge);
    if (kk->mq)
        set_u(r, opt, kk->mq, k.mq);
    /* The index function: L linear, X bitwise XOR, H Fermi's hash (an XOR
     * of address bits), P IPOLY (a polynomial modulus: ptxsim's pric). */
    const char *index = k.index == 'L' ? "linear" : k.index == 'P' ? "pric" : k.index == 'C' || k.index == 'W' ? "linear" : "xor";
    if (kk->index) {
        set_w(r, opt, kk->index, index);
        if (k.index != 'L' && k.index != 'X')
            note(r, G_APPROX, "%s index %c as %s = %s", opt, k.index, kk->index, index);
    } else if (k.index != 'L') {
        note(r, G_APPROX, "%s index %c as linear", opt, k.index);
    }
    if (k.rep == 'F')
        note(r, G_APPROX, "%s FIFO replacement as LRU", opt);
    if (k.alloc != 'm')
        note(r, G_APPROX, "%s allocation %c as allocate on miss", opt, k.alloc);
    char dropped[120] = "";
    if (!read_only || k.wr != 'R')
        sprintf(dropped + strlen(dropped), " write policy %c", k.wr);
    if (!read_only || k.walloc != 'N')
        sprintf(dropped + strlen(dropped), " write allocation %c", k.walloc);
    if (!kk->merge)
        sprintf(dropped + strlen(dropped), " MSHR merge %llu", (unsigned long long)k.merge);
    if (!kk->mq)
        sprintf(dropped + strlen(dropped), " miss queue %llu", (unsigned long long)k.mq);
    if (k.has_fifo && k.fifo)
        sprintf(dropped + strlen(dropped), " result FIFO %llu", (unsigned long long)k.fifo);
    if (k.has_port)
        strcat(dropped, " data port width");
    if (*dropped)
        note(r, G_NOTMOD, "%s (%s)", opt, dropped + 1);
}

static void opt_dl1(gs_reader *r, const char *opt, const char *val)
{
    if (strcmp(val, "none") == 0) {
        set_w(r, opt, "l1_global", "bypass");
        note(r, G_APPROX, "%s none as l1_global = bypass (local memory still uses the L1D)", opt);
        return;
    }
    static const gs_keys k = { "l1_sets", "l1_assoc", "l1_line", "l1_sector", "l1_mshr", "l1_mshr_merge",
                               "l1_miss_queue", "l1_index" };
    cache_apply(r, opt, val, &k, false);
}

static void opt_dl2(gs_reader *r, const char *opt, const char *val)
{
    if (strcmp(val, "none") == 0) {
        note(r, G_NOTMOD, "%s none (ptxsim always has an L2)", opt);
        return;
    }
    static const gs_keys k = { "l2_sets", "l2_assoc", "l2_line", "l2_sector", "l2_mshr", "l2_mshr_merge", NULL,
                               "l2_index" };
    cache_apply(r, opt, val, &k, false);
}

static void opt_il1(gs_reader *r, const char *opt, const char *val)
{
    static const gs_keys k = { "l1i_sets", "l1i_assoc", "l1i_line", NULL, "l1i_mshr", NULL, NULL, NULL };
    cache_apply(r, opt, val, &k, true);
}

static void opt_const(gs_reader *r, const char *opt, const char *val)
{
    static const gs_keys k = { "l1c_sets", "l1c_assoc", "l1c_line", NULL, "l1c_mshr", NULL, NULL, NULL };
    cache_apply(r, opt, val, &k, true);
}

static void opt_tex(gs_reader *r, const char *opt, const char *val)
{
    static const gs_keys k = { "l1t_sets", "l1t_assoc", "l1t_line", NULL, "l1t_mshr", "l1t_mshr_merge", NULL, NULL };
    cache_apply(r, opt, val, &k, true);
}

/* A boolean that matches ptxsim at one value and is not modelled at the
 * other (-gpgpu_cache:dl2_texture_only 0: the L2 caches every space). */
static void opt_texture_only(gs_reader *r, const char *opt, const char *val)
{
    uint64_t v;
    if (num(r, opt, val, &v) && v)
        note(r, G_NOTMOD, "%s 1 (ptxsim's L2 caches every space)", opt);
}

/* ---- the option table ----------------------------------------------------------- */

typedef struct gs_option {
    const char *name;
    gs_fn *fn;                  /* translates it; NULL: listed under group */
    int group;
} gs_option;

#define MAP(name, fn) { name, fn, 0 }
#define NOT(name) { name, NULL, G_NOTMOD }
#define FUNC(name) { name, NULL, G_FUNC }
#define OUT(name) { name, NULL, G_OUTPUT }

/* Where GPGPU-Sim versions spell an option differently, both are rows. */
static const gs_option options[] = {
    /* chip */
    MAP("-gpgpu_n_clusters", opt_clusters),
    MAP("-gpgpu_n_cores_per_cluster", opt_cores_per_cluster),
    MAP("-gpgpu_clock_domains", opt_clocks),
    MAP("-gpgpu_n_mem", opt_n_mem),
    MAP("-gpgpu_n_sub_partition_per_mchannel", opt_n_sub),
    /* SM */
    MAP("-gpgpu_shader_registers", opt_registers),
    MAP("-gpgpu_shader_core_pipeline", opt_pipeline),
    MAP("-gpgpu_pipeline_widths", opt_pipeline_widths),
    MAP("-gpgpu_shader_cta", opt_cta),
    MAP("-gpgpu_num_sp_units", opt_sp_units),
    MAP("-gpgpu_num_int_units", opt_int_units),
    MAP("-gpgpu_num_dp_units", opt_dp_units),
    MAP("-gpgpu_num_sfu_units", opt_sfu_units),
    MAP("-gpgpu_num_tensor_core_units", opt_tensor_units),
    MAP("-gpgpu_num_sched_per_core", opt_schedulers),
    MAP("-gpgpu_scheduler", opt_scheduler),
    MAP("-gpgpu_num_reg_banks", opt_reg_banks),
    MAP("-gpgpu_enable_specialized_operand_collector", opt_oc_special),
    MAP("-enable_specialized_operand_collector", opt_oc_special),
    MAP("-gpgpu_operand_collector_num_units_sp", opt_oc_sp),
    MAP("-gpgpu_operand_collector_num_units_dp", opt_oc_dp),
    MAP("-gpgpu_operand_collector_num_units_int", opt_oc_int),
    MAP("-gpgpu_operand_collector_num_units_sfu", opt_oc_sfu),
    MAP("-gpgpu_operand_collector_num_units_mem", opt_oc_mem),
    MAP("-gpgpu_operand_collector_num_units_gen", opt_oc_gen),
    MAP("-ptx_opcode_latency_int", opt_lat_int),
    MAP("-ptx_opcode_initiation_int", opt_ii_int),
    MAP("-ptx_opcode_latency_fp", opt_lat_fp),
    MAP("-ptx_opcode_initiation_fp", opt_ii_fp),
    MAP("-ptx_opcode_latency_dp", opt_lat_dp),
    MAP("-ptx_opcode_initiation_dp", opt_ii_dp),
    MAP("-ptx_opcode_latency_sfu", opt_lat_sfu),
    MAP("-ptx_opcode_initiation_sfu", opt_ii_sfu),
    MAP("-ptx_opcode_latency_tesnor", opt_lat_tensor),     /* GPGPU-Sim's own spelling */
    MAP("-ptx_opcode_latency_tensor", opt_lat_tensor),
    /* shared memory and caches */
    MAP("-gpgpu_shmem_size", opt_shmem_size),
    MAP("-gpgpu_shmem_sizeDefault", opt_shmem_default),
    MAP("-gpgpu_shmem_num_banks", opt_shmem_banks),
    MAP("-gpgpu_smem_latency", opt_smem_latency),
    MAP("-smem_latency", opt_smem_latency),
    MAP("-gpgpu_l1_latency", opt_l1_latency),
    MAP("-l1_latency", opt_l1_latency),
    MAP("-gpgpu_cache:dl1", opt_dl1),
    MAP("-gpgpu_cache:dl2", opt_dl2),
    MAP("-gpgpu_cache:il1", opt_il1),
    MAP("-gpgpu_const_cache:l1", opt_const),
    MAP("-gpgpu_tex_cache:l1", opt_tex),
    MAP("-gpgpu_gmem_skip_L1D", opt_skip_l1d),
    MAP("-gmem_skip_L1D", opt_skip_l1d),
    MAP("-gpgpu_perfect_inst_const_cache", opt_perfect_inst_const),
    MAP("-gpgpu_cache:dl2_texture_only", opt_texture_only),
    /* memory partitions and DRAM */
    MAP("-gpgpu_l2_rop_latency", opt_rop_latency),
    MAP("-rop_latency", opt_rop_latency),
    MAP("-dram_latency", opt_dram_latency),
    MAP("-gpgpu_dram_scheduler", opt_dram_scheduler),
    MAP("-gpgpu_frfcfs_dram_sched_queue_size", opt_dram_queue),
    MAP("-gpgpu_dram_buswidth", opt_bus_width),
    MAP("-gpgpu_n_mem_per_ctrlr", opt_chips),
    MAP("-dram_data_command_freq_ratio", opt_data_ratio),
    MAP("-gpgpu_dram_timing_opt", opt_dram_timing),
    MAP("-gpgpu_mem_addr_mapping", opt_addr_mapping),
    MAP("-gpgpu_memory_partition_indexing", opt_partition_indexing),
    MAP("-memory_partition_indexing", opt_partition_indexing),
    MAP("-icnt_flit_size", opt_flit),

    /* Timing options ptxsim has no counterpart for. */
    NOT("-gpgpu_dram_burst_length"),    /* cancels out of the bandwidth: bytes per command cycle */
    NOT("-gpgpu_num_mem_units"),
    NOT("-gpgpu_mem_unit_ports"),
    NOT("-mem_unit_ports"),
    NOT("-gpgpu_tensor_core_avail"),
    NOT("-gpgpu_max_insn_issue_per_warp"),
    NOT("-gpgpu_dual_issue_diff_exec_units"),
    NOT("-gpgpu_sub_core_model"),
    NOT("-sub_core_model"),
    NOT("-gpgpu_operand_collector_num_units_tensor_core"),
    NOT("-gpgpu_operand_collector_num_in_ports_sp"),
    NOT("-gpgpu_operand_collector_num_in_ports_dp"),
    NOT("-gpgpu_operand_collector_num_in_ports_int"),
    NOT("-gpgpu_operand_collector_num_in_ports_sfu"),
    NOT("-gpgpu_operand_collector_num_in_ports_mem"),
    NOT("-gpgpu_operand_collector_num_in_ports_gen"),
    NOT("-gpgpu_operand_collector_num_in_ports_tensor_core"),
    NOT("-gpgpu_operand_collector_num_out_ports_sp"),
    NOT("-gpgpu_operand_collector_num_out_ports_dp"),
    NOT("-gpgpu_operand_collector_num_out_ports_int"),
    NOT("-gpgpu_operand_collector_num_out_ports_sfu"),
    NOT("-gpgpu_operand_collector_num_out_ports_mem"),
    NOT("-gpgpu_operand_collector_num_out_ports_gen"),
    NOT("-gpgpu_operand_collector_num_out_ports_tensor_core"),
    NOT("-gpgpu_reg_bank_use_warp_id"),
    NOT("-gpgpu_reg_file_port_throughput"),
    NOT("-gpgpu_inst_fetch_throughput"),
    NOT("-gpgpu_simt_core_sim_order"),
    NOT("-gpgpu_coalesce_arch"),
    NOT("-gpgpu_shmem_limited_broadcast"),
    NOT("-gpgpu_shmem_warp_parts"),
    NOT("-gpgpu_shmem_per_block"),
    NOT("-gpgpu_shmem_size_PrefL1"),
    NOT("-gpgpu_shmem_size_PrefShared"),
    NOT("-gpgpu_shmem_option"),
    NOT("-gpgpu_unified_l1d_size"),
    NOT("-gpgpu_cache:dl1PrefL1"),
    NOT("-gpgpu_cache:dl1PrefShared"),
    NOT("-gpgpu_adaptive_cache_config"),
    NOT("-adaptive_volta_cache_config"),
    NOT("-gpgpu_l1_banks"),
    NOT("-gpgpu_l1_banks_byte_interleaving"),
    NOT("-gpgpu_l1_banks_hashing_function"),
    NOT("-gpgpu_l1_cache_write_ratio"),
    NOT("-gpgpu_flush_l1_cache"),
    NOT("-gpgpu_flush_l2_cache"),
    NOT("-gpgpu_perfect_mem"),
    NOT("-l2_ideal"),
    NOT("-gpgpu_registers_per_block"),
    NOT("-gpgpu_num_cta_barriers"),
    NOT("-gpgpu_n_cluster_ejection_buffer_size"),
    NOT("-gpgpu_n_ldst_response_buffer_size"),
    NOT("-gpgpu_concurrent_kernel_sm"),
    NOT("-gpgpu_max_concurrent_kernel"),
    NOT("-gpgpu_kernel_launch_latency"),
    NOT("-gpgpu_TB_launch_latency"),
    NOT("-gpgpu_perf_sim_memcpy"),
    NOT("-perf_sim_memcpy"),
    NOT("-gpgpu_dram_partition_queues"),
    NOT("-gpgpu_dram_return_queue_size"),
    NOT("-gpgpu_mem_address_mask"),
    NOT("-gpgpu_simple_dram_model"),
    NOT("-dram_bnk_indexing_policy"),
    NOT("-dram_bnkgrp_indexing_policy"),
    NOT("-dram_dual_bus_interface"),
    NOT("-dual_bus_interface"),
    NOT("-dram_seperate_write_queue_enable"),
    NOT("-Seperate_Write_Queue_Enable"),
    NOT("-dram_write_queue_size"),
    NOT("-Write_Queue_Size"),
    NOT("-dram_elimnate_rw_turnaround"),
    NOT("-network_mode"),
    NOT("-inter_config_file"),
    NOT("-icnt_in_buffer_limit"),
    NOT("-icnt_out_buffer_limit"),
    NOT("-icnt_subnets"),
    NOT("-icnt_arbiter_algo"),
    NOT("-icnt_verbose"),
    NOT("-icnt_grant_cycles"),
    NOT("-inct_in_buffer_limit"),
    NOT("-inct_out_buffer_limit"),
    NOT("-inct_subnets"),
    NOT("-specialized_unit_1"),
    NOT("-specialized_unit_2"),
    NOT("-specialized_unit_3"),
    NOT("-specialized_unit_4"),
    NOT("-specialized_unit_5"),
    NOT("-specialized_unit_6"),
    NOT("-specialized_unit_7"),
    NOT("-specialized_unit_8"),
    NOT("-ptx_opcode_initiation_tensor"),

    /* The functional simulator's: PTX handling, device limits, when to stop. */
    FUNC("-gpgpu_ptx_instruction_classification"),
    FUNC("-gpgpu_ptx_sim_mode"),
    FUNC("-gpgpu_ptx_force_max_capability"),
    FUNC("-gpgpu_ptx_convert_to_ptxplus"),
    FUNC("-gpgpu_ptx_save_converted_ptxplus"),
    FUNC("-gpgpu_ptx_inst_debug_to_file"),
    FUNC("-gpgpu_ptx_inst_debug_file"),
    FUNC("-gpgpu_ptx_inst_debug_thread_uid"),
    FUNC("-gpgpu_stack_size_limit"),
    FUNC("-gpgpu_heap_size_limit"),
    FUNC("-gpgpu_runtime_sync_depth_limit"),
    FUNC("-gpgpu_runtime_pending_launch_count_limit"),
    FUNC("-gpgpu_compute_capability_major"),
    FUNC("-gpgpu_compute_capability_minor"),
    FUNC("-gpgpu_occupancy_sm_number"),
    FUNC("-gpgpu_simd_model"),
    FUNC("-gpgpu_local_mem_map"),
    FUNC("-gpgpu_ignore_resources_limitation"),
    FUNC("-gpgpu_cdp_enabled"),
    FUNC("-gpgpu_deadlock_detect"),
    FUNC("-gpgpu_max_cycle"),
    FUNC("-gpgpu_max_insn"),
    FUNC("-gpgpu_max_cta"),
    FUNC("-gpgpu_max_completed_cta"),
    FUNC("-checkpoint_option"),
    FUNC("-checkpoint_kernel"),
    FUNC("-checkpoint_CTA"),
    FUNC("-resume_option"),
    FUNC("-resume_kernel"),
    FUNC("-resume_CTA"),
    FUNC("-checkpoint_CTA_t"),
    FUNC("-checkpoint_insn_Y"),

    /* What GPGPU-Sim reports and records. */
    OUT("-gpgpu_memlatency_stat"),
    OUT("-gpgpu_runtime_stat"),
    OUT("-liveness_message_freq"),
    OUT("-enable_ptx_file_line_stats"),
    OUT("-ptx_line_stats_filename"),
    OUT("-visualizer_enabled"),
    OUT("-visualizer_outputfile"),
    OUT("-visualizer_zlevel"),
    OUT("-gpgpu_cflog_interval"),
    OUT("-gpgpu_warpdistro_shader"),
    OUT("-gpgpu_warp_issue_shader"),
    OUT("-trace_enabled"),
    OUT("-trace_components"),
    OUT("-trace_sampling_core"),
    OUT("-trace_sampling_memory_partition"),
    OUT("-power_simulation_enabled"),
    OUT("-power_simulation_mode"),
    OUT("-power_per_cycle_dump"),
    OUT("-power_trace_enabled"),
    OUT("-power_trace_zlevel"),
    OUT("-steady_power_levels_enabled"),
    OUT("-steady_state_definition"),
    OUT("-gpuwattch_xml_file"),
    OUT("-accelwattch_xml_file"),
    OUT("-hw_perf_file_name"),
    OUT("-hw_perf_bench_name"),
    OUT("-dvfs_enabled"),
    OUT("-aggregate_power_stats"),
    OUT("-gpgpu_clock_gated_reg_file"),
    OUT("-gpgpu_clock_gated_lanes"),
    OUT("-n_regfile_gating_group"),
};
#undef MAP
#undef NOT
#undef FUNC
#undef OUT

/* ---- resolving the options that combine -------------------------------------------- */

static void at(gs_reader *r, const gs_val *v) { r->line = v->line; }

static void resolve(gs_reader *r)
{
    if (r->clusters.set || r->cores_per_cluster.set) {
        /* GPGPU-Sim's defaults: 10 clusters of 3 cores. */
        uint64_t cl = r->clusters.set ? r->clusters.v : 10, per = r->cores_per_cluster.set ? r->cores_per_cluster.v : 3;
        at(r, r->clusters.set ? &r->clusters : &r->cores_per_cluster);
        set_u(r, "-gpgpu_n_clusters x -gpgpu_n_cores_per_cluster", "n_sm", cl * per);
    }
    /* Functional units: ptxsim's SP pipelines run both FP32 and integer
     * instructions, so separate FP32 and INT units become the larger count
     * (issue, one instruction per scheduler per cycle, bounds both anyway). */
    if (r->sp_units.set || r->int_units.set) {
        uint64_t sp = r->sp_units.set ? r->sp_units.v : 0, in = r->int_units.set ? r->int_units.v : 0;
        at(r, r->sp_units.set ? &r->sp_units : &r->int_units);
        set_u(r, "-gpgpu_num_sp_units", "n_sp", sp > in ? sp : in);
        if (sp && in)
            note(r, G_APPROX, "-gpgpu_num_sp_units %llu and -gpgpu_num_int_units %llu as n_sp = %llu shared",
                 (unsigned long long)sp, (unsigned long long)in, (unsigned long long)(sp > in ? sp : in));
    }
    if (r->dp_units.set) {
        at(r, &r->dp_units);
        if (r->dp_units.v) {
            set_u(r, "-gpgpu_num_dp_units", "n_dp", r->dp_units.v);
        } else {
            /* 0: FP64 runs on the SFUs (Fermi). */
            set_u(r, "-gpgpu_num_dp_units", "n_dp", r->c->n_sfu);
            note(r, G_APPROX, "-gpgpu_num_dp_units 0 (FP64 on the SFUs) as n_dp = n_sfu = %llu",
                 (unsigned long long)r->c->n_sfu);
        }
    }
    /* Operand collectors: specialized (GPGPU-Sim's default) reserves units
     * per type; generic shares them. */
    bool any_oc = r->oc_special.set || r->oc_sp.set || r->oc_dp.set || r->oc_int.set || r->oc_sfu.set ||
                  r->oc_mem.set || r->oc_gen.set;
    if (any_oc) {
        bool special = r->oc_special.set ? r->oc_special.v != 0 : true;
        if (special) {
            set_w(r, "-gpgpu_enable_specialized_operand_collector", "opcoll", "separate");
            if (r->oc_sp.set || r->oc_dp.set || r->oc_int.set) {
                at(r, r->oc_sp.set ? &r->oc_sp : r->oc_dp.set ? &r->oc_dp : &r->oc_int);
                set_u(r, "-gpgpu_operand_collector_num_units_sp", "opcoll_alu",
                      (r->oc_sp.set ? r->oc_sp.v : 0) + (r->oc_dp.v) + (r->oc_int.v));
            }
            if (r->oc_sfu.set)
                at(r, &r->oc_sfu), set_u(r, "-gpgpu_operand_collector_num_units_sfu", "opcoll_sfu", r->oc_sfu.v);
            if (r->oc_mem.set)
                at(r, &r->oc_mem), set_u(r, "-gpgpu_operand_collector_num_units_mem", "opcoll_mem", r->oc_mem.v);
            if (r->oc_gen.set)
                note(r, G_NOTMOD, "-gpgpu_operand_collector_num_units_gen (the collectors are specialized)");
        } else {
            set_w(r, "-gpgpu_enable_specialized_operand_collector", "opcoll", "generic");
            if (r->oc_gen.set)
                at(r, &r->oc_gen), set_u(r, "-gpgpu_operand_collector_num_units_gen", "opcoll_slots", r->oc_gen.v);
            const gs_val *sp[] = { &r->oc_sp, &r->oc_dp, &r->oc_int, &r->oc_sfu, &r->oc_mem };
            for (size_t i = 0; i < 5; i++)
                if (sp[i]->set)
                    note(r, G_NOTMOD, "the specialized collector counts (the collectors are generic)");
        }
    }
    /* Shared memory: -gpgpu_shmem_sizeDefault is what a launch with no cache
     * preference gets; -gpgpu_shmem_size otherwise. */
    const gs_val *shm = r->shmem_default.set ? &r->shmem_default : r->shmem_size.set ? &r->shmem_size : NULL;
    if (shm)
        at(r, shm), set_u(r, shm == &r->shmem_default ? "-gpgpu_shmem_sizeDefault" : "-gpgpu_shmem_size",
                          "sm_shared_bytes", shm->v);
    /* The ROP queue's latency (core cycles) is the L2 hit latency (L2 cycles). */
    if (r->rop_latency.set) {
        at(r, &r->rop_latency);
        uint64_t l2 = (r->rop_latency.v * r->c->l2_clock_mhz + r->c->core_clock_mhz / 2) / r->c->core_clock_mhz;
        set_u(r, "-gpgpu_l2_rop_latency", "l2_latency", l2 ? l2 : 1);
    }
    /* Partitions: one per L2 slice; each channel's bandwidth, banks and
     * queue split between its slices (see the comment at the top). */
    uint64_t sub = r->n_sub.set && r->n_sub.v ? r->n_sub.v : 1;
    if (r->n_mem.set || r->n_sub.set) {
        at(r, r->n_mem.set ? &r->n_mem : &r->n_sub);
        uint64_t mem = r->n_mem.set ? r->n_mem.v : 8;          /* GPGPU-Sim's default */
        set_u(r, "-gpgpu_n_mem x -gpgpu_n_sub_partition_per_mchannel", "n_partitions", mem * sub);
    }
    if (r->bus_width.set || r->chips.set || r->data_ratio.set) {
        const gs_val *v = r->bus_width.set ? &r->bus_width : r->chips.set ? &r->chips : &r->data_ratio;
        at(r, v);
        /* Bytes per DRAM command cycle on one channel (GPGPU-Sim's defaults:
         * 4-byte chips, one per channel, DDR). */
        uint64_t ch = (r->bus_width.set ? r->bus_width.v : 4) * (r->chips.set ? r->chips.v : 1) *
                      (r->data_ratio.set ? r->data_ratio.v : 2);
        uint64_t each = (ch + sub / 2) / sub;
        set_u(r, "-gpgpu_dram_buswidth x -gpgpu_n_mem_per_ctrlr x -dram_data_command_freq_ratio", "dram_bus_bytes",
              each ? each : 1);
        if (each * sub != ch)
            note(r, G_APPROX, "a channel's %llu bytes per DRAM cycle as %llu per partition", (unsigned long long)ch,
                 (unsigned long long)each);
    }
    if (r->nbk.set) {
        at(r, &r->nbk);
        uint64_t b = r->nbk.v / sub;
        set_u(r, "-gpgpu_dram_timing_opt nbk", "dram_banks", b ? b : 1);
        if (b * sub != r->nbk.v)
            note(r, G_APPROX, "-gpgpu_dram_timing_opt nbk=%llu as %llu banks per partition",
                 (unsigned long long)r->nbk.v, (unsigned long long)(b ? b : 1));
    }
    if (r->nbkgrp.set) {
        /* Each slice keeps the channel's bank groups over its share of the
         * banks (GPGPU-Sim puts the group in the bank's low bits, as
         * ptxsim does), at most one bank a group. */
        at(r, &r->nbkgrp);
        uint64_t banks = r->nbk.set && r->nbk.v / sub ? r->nbk.v / sub : 1, g = r->nbkgrp.v ? r->nbkgrp.v : 1;
        set_u(r, "-gpgpu_dram_timing_opt nbkgrp", "dram_bank_groups", g < banks ? g : banks);
    }
    if (r->dram_queue.set) {
        at(r, &r->dram_queue);
        if (r->dram_queue.v == 0) {
            set_u(r, "-gpgpu_frfcfs_dram_sched_queue_size", "dram_queue", 4096);
            note(r, G_APPROX, "-gpgpu_frfcfs_dram_sched_queue_size 0 (unlimited) as dram_queue = 4096");
        } else {
            uint64_t q = r->dram_queue.v / sub;
            set_u(r, "-gpgpu_frfcfs_dram_sched_queue_size", "dram_queue", q ? q : 1);
        }
    }
    /* Perfect instruction and constant caches: every fetch and constant
     * load hits, which ptxsim models by leaving those caches out. */
    if (r->perfect_inst_const.set && r->perfect_inst_const.v) {
        at(r, &r->perfect_inst_const);
        set_u(r, "-gpgpu_perfect_inst_const_cache", "l1i_sets", 0);
        set_u(r, "-gpgpu_perfect_inst_const_cache", "l1c_sets", 0);
    }
}

/* ---- reading the file ------------------------------------------------------------ */

bool tm_gpgpusim_detect(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p < end && *p == '#') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        return p + 1 < end && p[0] == '-' && isalpha((unsigned char)p[1]);
    }
    return false;
}

static void translate(gs_reader *r, const char *opt, const char *val)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (strcmp(options[i].name, opt) != 0)
            continue;
        if (options[i].fn) {
            options[i].fn(r, opt, val);
            r->translated++;
        } else {
            note(r, options[i].group, "%s", opt);
        }
        return;
    }
    note(r, G_UNKNOWN, "%s", opt);
}

ptx_status tm_gpgpusim_parse(tm_config *c, const char *text, size_t len, const char *name, FILE *notes,
                             ptx_diag *diag)
{
    gs_reader r = { .c = c, .file = name, .diag = diag, .st = PTX_OK };
    /* One pass over the text: tokens are options (a '-' and a letter) and
     * values (a word, or a quoted string that may span lines); '#' outside
     * quotes comments out the rest of its line. */
    const char *p = text, *end = text + len;
    uint32_t line = 1;
    char opt[128] = "";
    uint32_t opt_line = 0;
    char *val = NULL;
    size_t vcap = 0;
    while (p < end) {
        char ch = *p;
        if (ch == '\n') {
            if (*opt) {
                r.line = opt_line;
                gs_error(&r, "%s has no value", opt);
                *opt = '\0';
            }
            line++, p++;
            continue;
        }
        if (isspace((unsigned char)ch) || ch == '\0') {
            p++;
            continue;
        }
        if (ch == '#') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        /* A token: quoted, or up to whitespace or '#'. */
        const char *s = p;
        uint32_t tok_line = line;
        size_t n = 0;
        bool quoted = ch == '"';
        if (quoted) {
            s = ++p;
            while (p < end && *p != '"') {
                if (*p == '\n')
                    line++;
                p++;
            }
            if (p >= end) {
                r.line = tok_line;
                gs_error(&r, "unterminated quoted value%s%s (the quote opened here is never closed)",
                         *opt ? " of " : "", opt);
                break;
            }
            n = (size_t)(p - s);
            p++;
        } else {
            while (p < end && !isspace((unsigned char)*p) && *p != '#' && *p != '\0')
                p++;
            n = (size_t)(p - s);
        }
        if (!*opt) {
            if (quoted || n < 2 || s[0] != '-' || !isalpha((unsigned char)s[1]) || n >= sizeof opt) {
                r.line = tok_line;
                gs_error(&r, "expected an option ('-name value'), found '%.*s'", (int)(n > 60 ? 60 : n), s);
                continue;
            }
            memcpy(opt, s, n);
            opt[n] = '\0';
            opt_line = tok_line;
            continue;
        }
        /* The value: a quoted one's line breaks and indentation become
         * nothing, so "a:b:\n   c:d" reads as "a:b:c:d". */
        if (n + 1 > vcap) {
            char *v = realloc(val, n + 1);
            if (!v) {
                r.st = ptx_error(diag, PTX_E_NOMEM, name, line, 1, "out of memory");
                break;
            }
            val = v;
            vcap = n + 1;
        }
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (s[i] == '\n') {
                while (k && (val[k - 1] == ' ' || val[k - 1] == '\t' || val[k - 1] == '\r'))
                    k--;
                while (i + 1 < n && isspace((unsigned char)s[i + 1]))
                    i++;
                continue;
            }
            val[k++] = s[i];
        }
        val[k] = '\0';
        r.line = opt_line;
        if (k == 0)
            gs_error(&r, "%s has an empty value", opt);
        else
            translate(&r, opt, val);
        *opt = '\0';
    }
    if (*opt) {
        r.line = opt_line;
        gs_error(&r, "%s has no value", opt);
    }
    free(val);
    if (r.st == PTX_OK)
        resolve(&r);
    if (notes && r.st == PTX_OK) {
        fprintf(notes, "ptxsim: %s: GPGPU-Sim configuration: %u options translated\n", name, r.translated);
        for (int g = 0; g < G_COUNT; g++)
            if (r.group[g].len)
                fprintf(notes, "ptxsim: %s: %s: %s\n", name, group_names[g], r.group[g].s);
    }
    for (int g = 0; g < G_COUNT; g++)
        free(r.group[g].s);
    return r.st;
}
