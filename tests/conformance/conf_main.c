/*
 * conf_main.c -- the conformance generator's driver.
 *
 *   conformance FAMILY [--batches N] [--seed S] [--shard I/N] [--form F] [--verbose]
 *   conformance --rows
 *
 * FAMILY is one of conf_table.c's families (int, bits, cmp, cvt, float,
 * half; warp, atom, ldst, whose runners build whole-warp kernels of their
 * own) or "all".  Every form of the family's ISA syntax lines is run on N
 * warps (PTXSIM_CONF_BATCHES in the environment, or the family's default
 * chosen to keep a plain build under a few seconds) and each lane compared
 * with the reference.  The values come from a fixed seed, so two runs see
 * the same operands; --seed picks others.  --shard I/N runs every Nth
 * form from the Ith (0-based), so that N processes share a family; --form
 * runs only the form spelt F (with PTXSIM_CONF_DUMP, to see its kernel).  --rows
 * lists the rows of isa/opcodes.def with the families that test them.
 * conformance-cuda is the same program over a CUDA driver
 * (conf_engine_cuda.c): on a real GPU it checks the references, and with
 * them ptxsim, against the hardware.
 *
 * The report ends with the coverage (forms covered / forms accepted) and
 * every failing lane as "FORM operands a=.. b=..: got .. want ..".  The
 * exit status is 1 if any lane failed.
 */
#include "conf.h"

#include "isa.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Warps per form by default, chosen so that each family takes one to two
 * seconds in a plain build and under ten in the sanitizer build (Debug,
 * ASan and UBSan: measured 3 to 4 times slower here), far below the
 * tests' 300 s timeout on a busy 2-core machine.  The families with few
 * forms get many warps; cmp, with 3,876 forms, 32; atom (5,625 forms,
 * each run on up to two kinds of address) 8 and ldst (5,754 forms, each
 * run with up to 11 register types) 4: 2.2 s each here.  The vector and
 * .b128 atomics took atom to 7,923 forms and ldst to 6,214 (.b128, ldu,
 * ld.global.nc): atom now runs 6 warps per form (its vector and .b128
 * forms an eighth and a quarter of that, conf_xatom.c) and ldst 2 (each
 * ld/st form still runs in every space and register width), which keeps
 * both at 1.3-2.3 s plain and 11-16 s in the sanitizer build on a busy
 * machine (measured 22 and 23 s at 8 and 4).  The families added with them have
 * few forms, on blocks of several warps: each under a second there, but
 * wmma (464 forms of whole-matrix kernels: 8 s with the sanitizers). */
static const struct { const char *family; unsigned batches; } defaults[] = {
    { "int", 1024 }, { "bits", 1536 }, { "cmp", 32 }, { "cvt", 128 }, { "float", 384 }, { "half", 256 },
    { "warp", 1024 }, { "atom", 6 }, { "ldst", 2 }, { "bar", 256 }, { "ctrl", 256 }, { "mbar", 64 }, { "cp", 64 }, { "data", 256 }, { "matrix", 256 }, { "wmma", 8 }, { "mma", 64 }, { "cluster", 64 }, { "image", 64 },
};

#define MAX_LANES 65536u
#define SHOW_PER_FORM conf_show

unsigned conf_show = 4;

typedef struct {
    unsigned forms, accepted, covered, refused_parse, refused_run, failing_forms, errors;
    uint64_t lanes_checked, lanes_failed;
} tally;

typedef struct {
    char (*names)[96];
    size_t n, cap;
} name_list;

static void collect(void *ctx, const char *mnemonic)
{
    name_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        void *p = realloc(l->names, cap * sizeof *l->names);
        if (!p) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        l->names = p;
        l->cap = cap;
    }
    snprintf(l->names[l->n++], 96, "%s", mnemonic);
}

static uint64_t hash(const char *s, uint64_t seed)
{
    uint64_t h = 1469598103934665603ull ^ seed;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h ? h : 1;
}

typedef struct {
    conf_engine *e;
    unsigned lanes;
    uint64_t seed;
    bool verbose;
    unsigned shard, shards;     /* run form k when k % shards == shard */
    const char *only;           /* --form: this form alone, or NULL */
    unsigned next_form;
    uint64_t *src[CONF_MAX_SRC + 1], *out[CONF_MAX_DST];
    tally *t;
} runner;

static void print_failure(const conf_form *f, const uint64_t *s, unsigned i, uint64_t got, const conf_want *w)
{
    printf("FAIL %s", f->text);
    if (f->tpl->nimm)
        printf(" (imm 0x%" PRIx32 ")", f->imm);
    printf(" operands");
    for (unsigned k = 0; k < f->nsrc; k++)
        if (f->src[k].kind != CO_IMM)
            printf(" %c=0x%" PRIx64, f->src[k].name, s[k]);
    if (f->carry_in || f->carry_out)
        printf(" CF=%" PRIu64, s[CONF_MAX_SRC]);
    const char *what = f->carry_out && i == f->ndst - 1u ? "carry " : i ? "second result " : "";
    printf(": %sgot 0x%" PRIx64 " want 0x%" PRIx64 "%s\n", what, got, w->v[i],
           w->nan_any[i] ? " (any NaN)" : w->ulp ? " (within the ulp bound)" : "");
}

/* One run of form f (with its immediate set) on `lanes` lanes, compared
 * lane by lane (when it has a reference); the failing lanes.  *oc says
 * whether it ran at all. */
static unsigned run_once(runner *r, conf_form *f, unsigned lanes, unsigned *shown, conf_outcome *oc)
{
    conf_rng rng = { hash(f->text, r->seed) ^ ((uint64_t)f->imm << 32) };
    for (unsigned k = 0; k < f->nsrc; k++)
        if (f->src[k].kind != CO_IMM)
            conf_values(&rng, f, k, r->src[k], lanes, k && f->src[0].kind == CO_REG ? r->src[0] : NULL);
    for (unsigned l = 0; l < lanes; l++)
        r->src[CONF_MAX_SRC][l] = conf_rand(&rng) & 1;
    char msg[1200];
    *oc = conf_run(r->e, f, lanes, r->src, r->out, msg, sizeof msg);
    if (*oc == CONF_ERROR) {
        printf("ERROR %s: %s\n", f->text, msg);
        r->t->errors++;
    } else if (*oc != CONF_RAN && r->verbose) {
        printf("refused %s: %s\n", f->text, msg);
    }
    if (*oc != CONF_RAN || !f->tpl->ref)
        return 0;
    unsigned bad = 0;
    for (unsigned l = 0; l < lanes; l++) {
        uint64_t s[CONF_MAX_SRC + 1];
        for (unsigned k = 0; k <= CONF_MAX_SRC; k++)
            s[k] = r->src[k][l];
        conf_want w = {0};
        f->tpl->ref(f, s, &w);
        if (w.skip)
            continue;
        r->t->lanes_checked++;
        bool ok = true;
        for (unsigned i = 0; i < f->ndst; i++) {
            if (conf_match(&w, i, f->dst[i].type, r->out[i][l]))
                continue;
            if (ok && (*shown)++ < SHOW_PER_FORM)
                print_failure(f, s, i, r->out[i][l], &w);
            ok = false;
        }
        bad += !ok;
    }
    return bad;
}

/* A whole-warp family's form: its runner does the work. */
static void run_xform(runner *r, conf_form *f)
{
    tally *t = r->t;
    conf_xctx c = { r->e, r->lanes / 32, { hash(f->text, r->seed) }, r->verbose, 0, 0, 0, "" };
    int oc = f->tpl->xrun(&c, f);
    if (oc == CONF_ERROR) {
        printf("ERROR %s: %s\n", f->text, c.msg);
        t->errors++;
        return;
    }
    if (oc != CONF_RAN) {
        if (r->verbose)
            printf("refused %s: %s\n", f->text, c.msg);
        if (oc == CONF_PARSE_REFUSED)
            t->refused_parse++;
        else
            t->refused_run++;
        return;
    }
    t->accepted++;
    t->covered++;
    t->lanes_checked += c.checked;
    if (c.failed) {
        t->failing_forms++;
        t->lanes_failed += c.failed;
        if (c.shown > CONF_SHOW)
            printf("FAIL %s: %" PRIu64 " failing lanes in all\n", f->text, c.failed);
    }
}

static void run_form(runner *r, conf_form *f)
{
    tally *t = r->t;
    t->forms++;
    if (f->tpl->xrun) {
        run_xform(r, f);
        return;
    }
    /* Forms with an immediate run once per immediate, each on a slice of
     * the lanes; forms without a reference once on one warp, to learn
     * whether ptxsim accepts them. */
    unsigned n = f->tpl->nimm ? f->tpl->nimm : 1, lanes = r->lanes;
    if (f->tpl->nimm) {
        lanes = r->lanes / n;
        lanes = lanes < 64 ? 64 : lanes - lanes % 32;
    }
    if (!f->tpl->ref)
        lanes = 32;
    unsigned shown = 0;
    conf_outcome oc;
    f->imm = 0;
    uint64_t bad = run_once(r, f, lanes, &shown, &oc);
    if (oc == CONF_PARSE_REFUSED || oc == CONF_RUN_REFUSED) {
        if (oc == CONF_PARSE_REFUSED)
            t->refused_parse++;
        else
            t->refused_run++;
        return;
    }
    if (oc == CONF_ERROR)
        return;
    t->accepted++;
    if (!f->tpl->ref) {
        if (r->verbose)
            printf("no reference: %s\n", f->text);
        return;
    }
    t->covered++;
    for (unsigned k = 1; k < n; k++) {
        f->imm = k;
        bad += run_once(r, f, lanes, &shown, &oc);
    }
    if (bad) {
        t->failing_forms++;
        t->lanes_failed += bad;
        if (shown > SHOW_PER_FORM)
            printf("FAIL %s: %" PRIu64 " failing lanes in all\n", f->text, bad);
    }
}

/* A form's opcode as counted in the per-opcode lines. */
typedef struct { char op[16]; unsigned accepted, covered, refused; } op_tally;

static void run_family(const char *family, unsigned batches, uint64_t seed, bool verbose, unsigned shard,
                       unsigned shards, const char *only, tally *out)
{
    runner r = { conf_engine_new(), batches * 32, seed, verbose, shard, shards, only, 0, {0}, {0}, out };
    if (!r.e) {
        fprintf(stderr, "cannot create the engine\n");
        exit(2);
    }
    static bool named;
    if (!named)
        printf("engine: %s\n", conf_engine_name());
    named = true;
    if (r.lanes > MAX_LANES)
        r.lanes = MAX_LANES;
    for (unsigned k = 0; k <= CONF_MAX_SRC; k++)
        r.src[k] = calloc(MAX_LANES, 8);
    for (unsigned i = 0; i < CONF_MAX_DST; i++)
        r.out[i] = calloc(MAX_LANES, 8);
    op_tally ops[64];
    unsigned nops = 0;
    for (size_t i = 0; i < conf_ntemplates; i++) {
        const conf_template *tp = &conf_templates[i];
        if (strcmp(tp->family, family) != 0)
            continue;
        name_list names = {0};
        if (!conf_expand(tp->syntax, collect, &names)) {
            printf("ERROR malformed syntax line `%s`\n", tp->syntax);
            out->errors++;
            continue;
        }
        for (size_t k = 0; k < names.n; k++) {
            if (r.next_form++ % r.shards != r.shard || (r.only && strcmp(r.only, names.names[k]) != 0))
                continue;
            conf_form f;
            char err[200];
            if (!conf_form_init(&f, tp, names.names[k], err, sizeof err)) {
                printf("ERROR %s\n", err);
                out->errors++;
                continue;
            }
            tally before = *out;
            run_form(&r, &f);
            unsigned j;
            for (j = 0; j < nops && strcmp(ops[j].op, f.op) != 0; j++)
                ;
            if (j == nops && nops < 64) {
                memset(&ops[nops], 0, sizeof ops[nops]);
                snprintf(ops[nops].op, sizeof ops[nops].op, "%s", f.op);
                nops++;
            }
            if (j < 64) {
                ops[j].accepted += out->accepted - before.accepted;
                ops[j].covered += out->covered - before.covered;
                ops[j].refused += (out->refused_parse + out->refused_run) -
                                  (before.refused_parse + before.refused_run);
            }
        }
        free(names.names);
    }
    printf("%s by opcode, forms covered/accepted (+ refused):", family);
    for (unsigned j = 0; j < nops; j++) {
        printf("%s %s %u/%u", j % 6 ? "," : "\n ", ops[j].op, ops[j].covered, ops[j].accepted);
        if (ops[j].refused)
            printf(" (+%u)", ops[j].refused);
    }
    printf("\n");
    for (unsigned k = 0; k <= CONF_MAX_SRC; k++)
        free(r.src[k]);
    for (unsigned i = 0; i < CONF_MAX_DST; i++)
        free(r.out[i]);
    conf_engine_free(r.e);
}

/* Rows of isa/opcodes.def and the families whose syntax lines name them. */
static void print_rows(void)
{
    unsigned in_scope = 0;
    for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
        /* opcodes.def spells wmma.load and wmma.store with '_' for the
         * first '.' (the parser joins two-word mnemonics) */
        char name[32];
        snprintf(name, sizeof name, "%s", isa_ops[op].name);
        char *us = strchr(name, '_');
        if (us && !strncmp(name, "wmma_", 5))
            *us = '.';
        char fams[80] = "";
        size_t n = strlen(name);
        for (size_t i = 0; i < conf_ntemplates; i++) {
            const char *s = conf_templates[i].syntax;
            if (strncmp(s, name, n) != 0 || (s[n] != '.' && s[n] != '{' && s[n] != 0))
                continue;
            if (!strstr(fams, conf_templates[i].family)) {
                strncat(fams, " ", sizeof fams - strlen(fams) - 1);
                strncat(fams, conf_templates[i].family, sizeof fams - strlen(fams) - 1);
            }
        }
        in_scope += fams[0] != 0;
        printf("%-12s %s\n", name, fams[0] ? fams + 1 : "-");
    }
    printf("%u of %u rows have syntax lines here\n", in_scope, (unsigned)ISA_OP_COUNT);
}

int main(int argc, char **argv)
{
    const char *family = NULL;
    unsigned batches = 0;
    uint64_t seed = 0;
    bool verbose = false;
    unsigned shard = 0, shards = 1;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--batches") && i + 1 < argc)
            batches = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--form") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--shard") && i + 1 < argc) {
            if (sscanf(argv[++i], "%u/%u", &shard, &shards) != 2 || shards == 0 || shard >= shards) {
                fprintf(stderr, "--shard wants I/N with I < N\n");
                return 2;
            }
        }
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v"))
            verbose = true;
        else if (!strcmp(argv[i], "--rows")) {
            print_rows();
            return 0;
        } else if (argv[i][0] != '-' && !family)
            family = argv[i];
        else {
            fprintf(stderr, "usage: %s FAMILY|all [--batches N] [--seed S] [--shard I/N] [--form F] [--verbose] | --rows\n",
                    argv[0]);
            return 2;
        }
    }
    if (!family) {
        fprintf(stderr, "usage: %s FAMILY|all [--batches N] [--seed S] [--shard I/N] [--form F] [--verbose] | --rows\n",
                argv[0]);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);       /* a run stopped at its time limit keeps what it found */
    const char *show = getenv("PTXSIM_CONF_SHOW");
    if (show && atoi(show) > 0)
        conf_show = (unsigned)atoi(show);
    const char *env = getenv("PTXSIM_CONF_BATCHES");
    if (!batches && env)
        batches = (unsigned)strtoul(env, NULL, 0);
    int status = 0;
    bool any = false;
    for (size_t d = 0; d < sizeof defaults / sizeof defaults[0]; d++) {
        if (strcmp(family, "all") != 0 && strcmp(family, defaults[d].family) != 0)
            continue;
        any = true;
        tally t = {0};
        unsigned b = batches ? batches : defaults[d].batches;
        clock_t t0 = clock();
        printf("== conformance %s: %u warps per form, seed %" PRIu64, defaults[d].family, b, seed);
        if (shards > 1)
            printf(", forms %u mod %u", shard, shards);
        printf("\n");
        run_family(defaults[d].family, b, seed, verbose, shard, shards, only, &t);
        double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
        printf("%s: %u forms from the ISA syntax lines; %u accepted, %u refused (parser %u, engine %u)\n",
               defaults[d].family, t.forms, t.accepted, t.refused_parse + t.refused_run, t.refused_parse,
               t.refused_run);
        printf("%s: coverage %u/%u forms (%.1f%%); %" PRIu64 " lanes checked; %u failing forms, %" PRIu64
               " failing lanes, %u errors; %.2f s\n",
               defaults[d].family, t.covered, t.accepted, t.accepted ? 100.0 * t.covered / t.accepted : 0.0,
               t.lanes_checked, t.failing_forms, t.lanes_failed, t.errors, secs);
        if (t.failing_forms || t.errors)
            status = 1;
    }
    if (!any) {
        fprintf(stderr, "no family called '%s'\n", family);
        return 2;
    }
    return status;
}
