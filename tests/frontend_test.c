/*
 * frontend_test.c -- the PTX frontend: parsing real constructs, errors with
 * positions, immediate post-dominators on hand-built CFGs, and the printer's
 * round trip.
 */
#define _GNU_SOURCE
#include "check.h"
#include "frontend.h"

#include <dirent.h>
#include <stdlib.h>

#define HEADER ".version 8.0\n.target sm_75\n.address_size 64\n"

static isa_module *parse(const char *text, ptx_diag *d)
{
    memset(d, 0, sizeof *d);
    return fe_parse(text, strlen(text), "t.ptx", d);
}

static void test_constructs(void)
{
    const char *ptx = HEADER
        ".global .align 4 .u32 counter = 7;\n"
        ".const .align 4 .f32 table[4] = {0f3F800000, 2.0, -3, 0d4010000000000000};\n"
        ".global .align 8 .u64 ptr = generic(counter);\n"
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".func (.param .b32 ret0) twice(.param .b32 x)\n"
        "{\n  .reg .b32 %r<3>;\n  ld.param.b32 %r1, [x];\n  shl.b32 %r2, %r1, 1;\n"
        "  st.param.b32 [ret0], %r2;\n  ret;\n}\n"
        ".visible .entry k(.param .u64 .ptr .global .align 1 out, .param .u32 n)\n"
        ".maxntid 128, 1, 1\n"
        "{\n"
        "  .reg .pred %p<3>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<5>;\n  .reg .f32 %f<4>;\n"
        "  .local .align 8 .b8 depot[16];\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  mov.u32 %r1, %tid.x;\n"
        "  setp.lt.and.u32 %p1|%p2, %r1, 0x10, !%p1;\n"
        "  @!%p1 bra $L__done;\n"
        "  { .reg .b32 inner;\n"
        "    .param .b32 a0;\n    .param .b32 r0;\n"
        "    st.param.b32 [a0+0], %r1;\n"
        "    call.uni (r0), twice, (a0);\n"
        "    ld.param.b32 %r2, [r0+0];\n  }\n"
        "  mov.b64 %rd2, {%r1, %r2};\n"
        "  mov.f32 %f1, 0f3F800000;\n  add.rn.ftz.f32 %f2, %f1, 1.5;\n"
        "  ld.global.v2.u32 {%r3, _}, [%rd1+-8];\n"
        "  .loc 2 202 3, function_name $L__info_string0, inlined_at 1 10 5\n"
        "  st.global.u32 [%rd1], %r2;\n"
        "  .loc 1 12 5\n"
        "  atom.global.add.u32 %r4, [counter], 1;\n"
        "$L__done:\n"
        "  ret;\n"
        "}\n"
        ".file 1 \"k.cu\"\n.file 2 \"atomics.hpp\"\n";
    ptx_diag d;
    isa_module *m = parse(ptx, &d);
    CHECK(m != NULL, "constructs module failed to parse: %u:%u: %s", d.line, d.col, d.msg);
    if (!m)
        return;
    CHECK(m->version == 80 && m->sm == 75, "version %u sm %u", m->version, m->sm);
    int k = isa_find_func(m, "k");
    CHECK(k >= 0 && m->funcs[k].is_entry && m->funcs[k].nparams == 2, "entry k");
    CHECK(m->funcs[k].maxntid[0] == 128, "maxntid");
    /* `.ptr .align 1` is the pointee's alignment; the parameter keeps its own. */
    int out = isa_find_var(m, "out", k);
    CHECK(out >= 0 && m->vars[out].align == 8, "pointer parameter alignment %u", out >= 0 ? m->vars[out].align : 0);
    int t = isa_find_var(m, "table", -1);
    CHECK(t >= 0 && m->vars[t].size == 16, "table size");
    if (t >= 0) {
        float f[4];
        memcpy(f, m->vars[t].init, 16);
        CHECK(f[0] == 1.0f && f[1] == 2.0f && f[2] == -3.0f && f[3] == 4.0f, "table init %g %g %g %g",
              f[0], f[1], f[2], f[3]);
    }
    int p = isa_find_var(m, "ptr", -1);
    CHECK(p >= 0 && m->vars[p].nrelocs == 1 && m->vars[p].relocs[0].generic, "generic() reloc");
    const isa_func *kf = &m->funcs[k];
    bool saw_pair = false, saw_call = false, saw_vec = false;
    for (uint32_t i = 0; i < kf->ncode; i++) {
        const isa_inst *in = &kf->code[i];
        if (in->op == ISA_OP_SETP)
            saw_pair = in->opd[0].reg2 != ISA_NOREG && in->aop == ISA_AOP_AND && in->opd[3].neg;
        if (in->op == ISA_OP_CALL)
            saw_call = kf->calls[in->opd[0].imm].nargs == 1 && kf->calls[in->opd[0].imm].nrets == 1;
        if (in->op == ISA_OP_LD && in->vec == 2)
            saw_vec = in->opd[0].kind == ISA_OPD_VEC && in->opd[0].vec[1] == ISA_NOREG &&
                      in->opd[1].off == -8;
        if (in->op == ISA_OP_ATOM)
            CHECK(kf->src[i].line == 12 && kf->src[i].at_file == 0, "atom carries .loc line 12, got %u",
                  kf->src[i].line);
        /* An inlined .loc keeps its call site. */
        if (in->op == ISA_OP_ST && in->space == ISA_SPACE_GLOBAL)
            CHECK(kf->src[i].file == 2 && kf->src[i].line == 202 && kf->src[i].at_file == 1 &&
                      kf->src[i].at_line == 10,
                  "st carries .loc 2 202 inlined at 1 10, got %u %u at %u %u", kf->src[i].file,
                  kf->src[i].line, kf->src[i].at_file, kf->src[i].at_line);
    }
    CHECK(saw_pair, "setp with p|q, .and and !c");
    CHECK(saw_call, "call with one argument and one return");
    CHECK(saw_vec, "ld.v2 with a sink element and a negative offset");
    isa_module_free(m);
}

typedef struct { unsigned n; unsigned lines[16]; char first[256]; } error_log;

static void collect(void *ctx, const ptx_diag *one)
{
    error_log *log = ctx;
    if (log->n < 16)
        log->lines[log->n] = one->line;
    log->n++;
}

/* Parse a module that must not load, every error's line into log. */
static void parse_refused(const char *ptx, error_log *log, ptx_diag *d)
{
    *d = (ptx_diag){ .sink = collect, .sink_ctx = log };
    isa_module *m = fe_parse(ptx, strlen(ptx), "t.ptx", d);
    CHECK(m == NULL, "a module with errors must not load");
    isa_module_free(m);
}

static void test_errors(void)
{
    const char *ptx = HEADER
        ".visible .entry k()\n"
        "{\n"
        "  .reg .b32 %r<3>;\n"
        "  foo.bar.u32 %r1, %r2;\n"          /* line 7: unknown instruction */
        "  add.u32 %r1, %r2 %r2;\n"          /* line 8: missing comma */
        "  add.u32 %r1, %r9, %r2;\n"         /* line 9: undefined register */
        "  add.wobble.u32 %r1, %r1, %r2;\n"  /* line 10: unknown modifier */
        "  ret;\n"
        "}\n";
    error_log log = {0};
    ptx_diag d;
    parse_refused(ptx, &log, &d);
    CHECK(d.count == 4, "all four errors reported, got %u", d.count);
    /* Not a PTX instruction at all: invalid PTX (a CUDA load's
     * cudaErrorInvalidPtx), where one of the ISA's that ptxsim lacks is
     * unsupported (cudaErrorNotSupported), below. */
    CHECK(d.st == PTX_E_SYNTAX && d.line == 7 && d.col == 3, "first error at 7:3, got %u:%u", d.line, d.col);
    CHECK(strstr(d.msg, "unknown PTX instruction `foo.bar.u32`") != NULL, "message: %s", d.msg);
    CHECK(log.n == 4 && log.lines[1] == 8 && log.lines[2] == 9 && log.lines[3] == 10,
          "error lines %u %u %u", log.lines[1], log.lines[2], log.lines[3]);

    const char *unimplemented = HEADER
        ".visible .entry k()\n"
        "{\n"
        "  istypep.texref %p1, %rd1;\n"
        "  ret;\n"
        "}\n";
    log = (error_log){0};
    parse_refused(unimplemented, &log, &d);
    CHECK(d.st == PTX_E_UNSUPPORTED && strstr(d.msg, "unsupported PTX instruction `istypep") != NULL,
          "an instruction of the ISA ptxsim lacks: %s", d.msg);

    const char *bad_version = ".version 3.1\n.target sm_75\n.address_size 64\n";
    isa_module *m = parse(bad_version, &d);
    CHECK(m == NULL && strstr(d.msg, "unsupported PTX ISA version 3.1"), "version message: %s", d.msg);
    m = parse(HEADER ".visible .entry k( { ret; }", &d);
    CHECK(m == NULL && d.st == PTX_E_SYNTAX, "broken parameter list");
    m = parse(HEADER ".visible .entry k() { bra nowhere; }", &d);
    CHECK(m == NULL && strstr(d.msg, "undefined label or symbol 'nowhere'"), "undefined label: %s", d.msg);
    /* Texture references (a symbol, not a handle) and formatted surface
     * stores are named as unsupported; a texture address needs {coordinates}. */
    m = parse(HEADER ".global .u64 t;\n.visible .entry k() { .reg .f32 %f<5>;\n"
              "  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, {%f1, %f2}]; }", &d);
    CHECK(m == NULL && d.st == PTX_E_UNSUPPORTED && strstr(d.msg, "texture references are not supported"),
          "texture reference: %s", d.msg);
    m = parse(HEADER ".visible .entry k() { .reg .b32 %r<5>; .reg .b64 %rd<2>;\n"
              "  sust.p.2d.b32.trap [%rd1, {%r1, %r2}], {%r3}; }", &d);
    CHECK(m == NULL && strstr(d.msg, "modifier `.p`"), "sust.p: %s", d.msg);
    m = parse(HEADER ".visible .entry k() { .reg .f32 %f<5>; .reg .b64 %rd<2>;\n"
              "  tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %f1]; }", &d);
    CHECK(m == NULL && d.st == PTX_E_SYNTAX && strstr(d.msg, "coordinate vector"), "coordinates: %s", d.msg);
    /* Vectors of .b128 are not PTX (ptxas: vector type too large). */
    m = parse(HEADER ".visible .entry k() { .reg .b128 %q<3>; .reg .b64 %rd<2>;\n"
              "  ld.global.v2.b128 {%q1, %q2}, [%rd1]; }", &d);
    CHECK(m == NULL && d.st == PTX_E_UNSUPPORTED && d.line == 5 &&
              strstr(d.msg, "`ld.global.v2.b128`") && strstr(d.msg, "vectors of .b128 are not PTX"),
          "ld.v2.b128: line %u: %s", d.line, d.msg);
    m = parse(HEADER ".visible .entry k() { .reg .b128 %q<5>; .reg .b64 %rd<2>;\n\n"
              "  st.shared.v4.b128 [%rd1], {%q1, %q2, %q3, %q4}; }", &d);
    CHECK(m == NULL && d.line == 6 && strstr(d.msg, "`st.shared.v4.b128`") && strstr(d.msg, "vectors of .b128 are not PTX"),
          "st.v4.b128: line %u: %s", d.line, d.msg);
    m = parse(HEADER ".visible .entry k() { .reg .b128 %q<3>; .reg .b64 %rd<2>;\n"
              "  ld.global.b128 %q1, [%rd1]; ret; }", &d);
    CHECK(m != NULL, "ld.global.b128 (no vector) loads: %s", d.msg);
    isa_module_free(m);
    /* mma.sp forms the ISA does not define, or leaves undefined. */
    static const struct { const char *inst, *why; } sparse[] = {
        { "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%r0, %r1, %r2, %r3}, {%r0, %r1, %r2, %r3}, "
          "{%r0, %r1, %r2, %r3}, {%r0, %r1, %r2, %r3}, %r4, 2", "other than 0 or 1" },
        { "mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%r0, %r1, %r2, %r3}, {%r0, %r1, %r2, %r3}, "
          "{%r0, %r1, %r2, %r3}, {%r0, %r1, %r2, %r3}, %r4, 1", "other than 0 for" },
        { "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r0, %r1, %r2, %r3}, {%r0, %r1}, "
          "{%r0, %r1}, {%r0, %r1, %r2, %r3}, %r4, %r4", "selector f must be a constant" },
        { "mma.sp.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%r0, %r1, %r2, %r3}, {%r0, %r1}, "
          "{%r0, %r1}, {%r0, %r1, %r2, %r3}, %r4, 0", "mma.sp does not take" },
        { "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r0, %r1, %r2, %r3}, {%r0, %r1, %r2, %r3}, "
          "{%r0, %r1}, {%r0, %r1, %r2, %r3}, %r4, 0", "wrong number of registers" },
        { "add.sp.u32 %r0, %r1, %r2", "modifier `.sp`" },
    };
    for (size_t i = 0; i < sizeof sparse / sizeof sparse[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, HEADER ".visible .entry k() { .reg .b32 %%r<5>;\n  %s; }", sparse[i].inst);
        m = parse(text, &d);
        CHECK(m == NULL && d.line == 5 && strstr(d.msg, sparse[i].why), "%s: %s", sparse[i].inst, d.msg);
    }
    m = parse("", &d);
    CHECK(m != NULL, "empty text is an empty module");
    isa_module_free(m);
}

/* After an error inside braces (an initialiser's list, a vector operand)
 * the parser goes on after the statement: each later error is reported once,
 * where it is, and the function the error was in does not end early. */
static void test_error_recovery(void)
{
    const char *ptx = HEADER
        ".global .align 4 .u32 a[2] = {1, nosuch};\n"    /* line 4: undefined symbol */
        ".global .align 4 .u32 b = 2;\n"
        ".visible .entry k(.param .u64 out)\n"
        "{\n"
        "  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  ld.global.v2.u32 {%r1, %rX}, [%rd1];\n"       /* line 11: undefined register */
        "  add.u32 %r1, %r1, %r2;\n"
        "  ld.global.u32 %r1, [b];\n"                     /* b is declared: no error */
        "  add.u32 %r1, %r1, %r9;\n"                      /* line 14: undefined register */
        "  ret;\n"
        "}\n"
        ".global .align 4 .u32 c[2] = {3, 4;\n"          /* line 17: unclosed list */
        ".global .align 4 .u32 d = 5;\n";
    error_log log = {0};
    ptx_diag d;
    parse_refused(ptx, &log, &d);
    CHECK(log.n == 4, "each error once: got %u errors", log.n);
    CHECK(log.n >= 4 && log.lines[0] == 4 && log.lines[1] == 11 && log.lines[2] == 14 && log.lines[3] == 17,
          "error lines %u %u %u %u", log.lines[0], log.lines[1], log.lines[2], log.lines[3]);
}

/* An instruction refused after its modifiers were read gives its slot back;
 * the next one starts from a clean slot (it once kept the refused one's
 * types, and three more types were one too many). */
static void test_refused_instruction_slot(void)
{
    const char *ptx = HEADER
        ".visible .entry k()\n"
        "{\n"
        "  .reg .b32 %r<4>;\n"
        "  vadd4.u32.u32.u32 %r1.b02, %r2, %r3, %r1;\n"  /* line 7: a mask's digits rise */
        "  vmin4.s32.u32.u32.add %r1, %r2, %r3, %r1;\n"
        "  vset4.u32.u32.lo %r1, %r2, %r3, %r1;\n"       /* line 9: not a vset comparison */
        "  vset4.s32.u32.ge.add %r1, %r2, %r3, %r1;\n"
        "  ret;\n"
        "}\n";
    error_log log = {0};
    ptx_diag d;
    parse_refused(ptx, &log, &d);
    CHECK(log.n == 2 && log.lines[0] == 7 && log.lines[1] == 9, "errors: %u, at lines %u %u", log.n, log.lines[0],
          log.lines[1]);
}

/* Blocks and ipdoms of the only function in a module. */
static void check_postdom(const char *name, const char *body, const int32_t *want, uint32_t nwant,
                          const uint32_t *rpc_at, const uint32_t *rpc_want, unsigned nrpc)
{
    char *ptx;
    if (asprintf(&ptx, HEADER ".visible .entry k()\n{\n .reg .pred %%p<4>;\n .reg .b32 %%r<4>;\n%s}\n", body) < 0)
        return;
    ptx_diag d;
    isa_module *m = parse(ptx, &d);
    free(ptx);
    CHECK(m != NULL, "%s: parse: %u:%u %s", name, d.line, d.col, d.msg);
    if (!m)
        return;
    const isa_func *f = &m->funcs[0];
    uint32_t block_of[64];
    int32_t ipdom[64];
    uint32_t nb = fe_postdominators(f, block_of, ipdom, 64);
    CHECK(nb == nwant, "%s: %u blocks, want %u", name, nb, nwant);
    for (uint32_t b = 0; b < nb && b < nwant; b++)
        CHECK(ipdom[b] == want[b], "%s: ipdom(B%u) = %d, want %d", name, b, ipdom[b], want[b]);
    for (unsigned i = 0; i < nrpc; i++)
        CHECK(f->code[rpc_at[i]].rpc == rpc_want[i], "%s: rpc of instruction %u = %u, want %u", name,
              rpc_at[i], f->code[rpc_at[i]].rpc, rpc_want[i]);
    isa_module_free(m);
}

static void test_postdominators(void)
{
    /* if/else: B0 [0,1] B1 [2,3] B2 [4] B3 [5] */
    check_postdom("if/else",
                  " setp.eq.u32 %p1, %r1, 0;\n @%p1 bra ELSE;\n add.u32 %r2, %r2, 1;\n bra END;\n"
                  "ELSE:\n sub.u32 %r2, %r2, 1;\nEND:\n ret;\n",
                  (const int32_t[]){ 3, 3, 3, -1 }, 4, (const uint32_t[]){ 1 }, (const uint32_t[]){ 5 }, 1);
    /* nested if inside then: B0 [0,1] B1 [2,3] B2 [4] B3 [5,6] B4 [7] B5 [8] */
    check_postdom("nested if",
                  " setp.eq.u32 %p1, %r1, 0;\n @%p1 bra OUT;\n setp.eq.u32 %p2, %r2, 0;\n @%p2 bra IN;\n"
                  " add.u32 %r3, %r3, 1;\nIN:\n add.u32 %r3, %r3, 2;\n bra OUT;\n"
                  " add.u32 %r3, %r3, 3;\nOUT:\n ret;\n",
                  (const int32_t[]){ 5, 3, 3, 5, 5, -1 }, 6, (const uint32_t[]){ 1, 3 },
                  (const uint32_t[]){ 8, 5 }, 2);
    /* loop with break and continue:
     * B0 [0] B1 LOOP [1,2] B2 [3,4] B3 [5,6] B4 BREAK [7] */
    check_postdom("loop break/continue",
                  " mov.u32 %r1, 0;\nLOOP:\n setp.gt.u32 %p1, %r1, 10;\n @%p1 bra BREAK;\n"
                  " setp.eq.u32 %p2, %r1, 5;\n @%p2 bra LOOP;\n add.u32 %r1, %r1, 1;\n bra LOOP;\n"
                  "BREAK:\n ret;\n",
                  (const int32_t[]){ 1, 4, 1, 1, -1 }, 5, (const uint32_t[]){ 2, 4 },
                  (const uint32_t[]){ 7, 1 }, 2);
    /* early return: B0 [0,1] B1 [2,3] B2 [4] -- the guarded ret joins at exit */
    check_postdom("early return",
                  " setp.eq.u32 %p1, %r1, 0;\n @%p1 ret;\n add.u32 %r2, %r2, 1;\n @%p1 bra L;\n"
                  "L:\n ret;\n",
                  (const int32_t[]){ -1, 2, -1 }, 3, (const uint32_t[]){ 1 }, (const uint32_t[]){ ISA_PC_EXIT }, 1);
    /* switch through brx.idx: B0 [0,1] B1 A [2,3] B2 B [4,5] B3 C [6] B4 END [7] */
    check_postdom("brx.idx switch",
                  " mov.u32 %r1, 1;\n brx.idx %r1, TABLE;\n"
                  "A:\n add.u32 %r2, %r2, 1;\n bra END;\n"
                  "B:\n add.u32 %r2, %r2, 2;\n bra END;\n"
                  "C:\n add.u32 %r2, %r2, 3;\n"
                  "END:\n ret;\n"
                  "TABLE: .branchtargets A, B, C;\n",
                  (const int32_t[]){ 4, 4, 4, 4, -1 }, 5, (const uint32_t[]){ 1 }, (const uint32_t[]){ 7 }, 1);
    /* unstructured: two entries into a shared tail, one jumping into the
     * middle of the other's path.  B0 [0,1] B1 [2,3] B2 X [4,5] B3 Y [6] B4 [7] */
    check_postdom("unstructured goto",
                  " setp.eq.u32 %p1, %r1, 0;\n @%p1 bra Y;\n setp.eq.u32 %p2, %r2, 0;\n @%p2 bra X;\n"
                  "X:\n add.u32 %r3, %r3, 1;\n @%p1 bra DONE;\n"
                  "Y:\n add.u32 %r3, %r3, 2;\n"
                  "DONE:\n ret;\n",
                  (const int32_t[]){ 4, 2, 4, 4, -1 }, 5, (const uint32_t[]){ 1, 3, 5 },
                  (const uint32_t[]){ 7, 4, 7 }, 3);
    /* infinite loop after a divergent branch: the loop never reaches the
     * exit, so it is given an edge to it.  B0 [0,1] B1 SPIN [2,3] B2 [4] */
    check_postdom("infinite loop",
                  " setp.eq.u32 %p1, %r1, 0;\n @%p1 bra OUT;\nSPIN:\n add.u32 %r2, %r2, 1;\n bra SPIN;\n"
                  "OUT:\n ret;\n",
                  (const int32_t[]){ -1, -1, -1 }, 3, (const uint32_t[]){ 1 }, (const uint32_t[]){ ISA_PC_EXIT }, 1);
}

/* A call-argument variable's name without the "__N" the printer adds to
 * keep same-named argument blocks of different calls apart. */
static size_t base_len(const isa_var *v)
{
    size_t n = strlen(v->name);
    if (v->role != ISA_VAR_CALLARG)
        return n;
    size_t i = n;
    while (i > 0 && v->name[i - 1] >= '0' && v->name[i - 1] <= '9')
        i--;
    return i >= 2 && i < n && v->name[i - 1] == '_' && v->name[i - 2] == '_' ? i - 2 : n;
}

/* Instructions equal but for where they came from; symbols are compared by
 * name, since a printed module may declare them in another order. */
static bool same_code(const isa_module *ma, const isa_func *a, const isa_module *mb, const isa_func *b)
{
    if (a->ncode != b->ncode)
        return false;
    for (uint32_t i = 0; i < a->ncode; i++) {
        isa_inst x = a->code[i], y = b->code[i];
        x.line = y.line = 0;
        x.col = y.col = 0;
        for (unsigned k = 0; k < ISA_MAX_OPDS; k++) {
            isa_opd *ox = &x.opd[k], *oy = &y.opd[k];
            bool sym = ox->kind == ISA_OPD_SYM || ox->kind == ISA_OPD_ADDR_SYM;
            if (sym && ox->kind == oy->kind) {
                const isa_var *vx = &ma->vars[isa_opd_var(ox)], *vy = &mb->vars[isa_opd_var(oy)];
                size_t nx = base_len(vx), ny = base_len(vy);
                if (nx != ny || strncmp(vx->name, vy->name, nx) != 0 || vx->size != vy->size) {
                    printf("  instruction %u operand %u names %s / %s\n", i, k, vx->name, vy->name);
                    return false;
                }
                isa_opd_set_var(ox, 0);
                isa_opd_set_var(oy, 0);
            }
            if (ox->kind == ISA_OPD_FUNC && oy->kind == ISA_OPD_FUNC) {
                if (strcmp(ma->funcs[ox->reg].name, mb->funcs[oy->reg].name) != 0)
                    return false;
                ox->reg = oy->reg = 0;
            }
        }
        if (memcmp(&x, &y, sizeof x) != 0) {
            printf("  instruction %u differs (op %s / %s)\n", i, isa_ops[x.op].name, isa_ops[y.op].name);
            return false;
        }
    }
    return true;
}

static void round_trip(const char *path)
{
    size_t len;
    char *text = ptx_read_file(path, &len);
    CHECK(text != NULL, "cannot read %s", path);
    if (!text)
        return;
    ptx_diag d;
    isa_module *a = parse(text, &d);
    CHECK(a != NULL, "%s parses: %u:%u %s", path, d.line, d.col, d.msg);
    free(text);
    if (!a)
        return;
    char *printed = NULL;
    size_t plen = 0;
    FILE *mem = open_memstream(&printed, &plen);
    fe_print(mem, a);
    fclose(mem);
    isa_module *b = parse(printed, &d);
    CHECK(b != NULL, "%s printed parses again: %u:%u %s", path, d.line, d.col, d.msg);
    if (b) {
        CHECK(a->nfuncs == b->nfuncs, "%s: function count", path);
        for (uint32_t i = 0; i < a->nfuncs && i < b->nfuncs; i++)
            CHECK(same_code(a, &a->funcs[i], b, &b->funcs[i]), "%s: function %s round-trips", path, a->funcs[i].name);
    }
    free(printed);
    isa_module_free(a);
    isa_module_free(b);
}

/* Every file of the PTX corpus parses, prints and parses to the same code. */
static void test_corpus(void)
{
    const char *dir = check_src_dir;
    char path[1024];
    snprintf(path, sizeof path, "%s/ptx", dir);
    DIR *dp = opendir(path);
    CHECK(dp != NULL, "cannot open the corpus %s", path);
    if (!dp)
        return;
    unsigned files = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        size_t n = strlen(de->d_name);
        if (n < 5 || strcmp(de->d_name + n - 4, ".ptx") != 0)
            continue;
        snprintf(path, sizeof path, "%s/ptx/%s", dir, de->d_name);
        round_trip(path);
        files++;
    }
    closedir(dp);
    CHECK(files >= 3, "the corpus has %u files", files);
}


/* ---- machine code ----------------------------------------------------------- */

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* A cubin as ptxas lays one out (the ELF64 format, the .nv.info records
 * that cubin.c's comment describes): two kernels, k1 with 40 registers and a
 * 64-byte frame, k2 with 8, and a non-function symbol with a count that
 * must be ignored.  Returns its size. */
static size_t make_cubin(uint8_t *img, size_t cap)
{
    static const char shstr[] = "\0.shstrtab\0.strtab\0.symtab\0.nv.info\0";
    static const char str[] = "\0k1\0k2\0data\0";
    enum { EH = 64, SH = 64, SYM = 24 };
    memset(img, 0, cap);
    size_t off = EH;
    size_t shstr_off = off; memcpy(img + off, shstr, sizeof shstr); off += sizeof shstr;
    size_t str_off = off; memcpy(img + off, str, sizeof str); off += sizeof str;
    off = (off + 7) & ~(size_t)7;
    size_t sym_off = off;
    /* symbols: 0 null, 1 k1 (func), 2 k2 (func), 3 data (object) */
    const uint32_t names[] = { 0, 1, 4, 7 };
    const uint8_t info[] = { 0, 0x12, 0x12, 0x11 };
    for (int i = 0; i < 4; i++) {
        put32(img + off, names[i]);
        img[off + 4] = info[i];
        off += SYM;
    }
    size_t sym_bytes = off - sym_off;
    size_t nvi_off = off;
    const uint32_t recs[][3] = { { 0x2f, 1, 40 }, { 0x11, 1, 64 }, { 0x2f, 2, 8 }, { 0x2f, 3, 99 } };
    for (int i = 0; i < 4; i++) {
        img[off] = 4;
        img[off + 1] = (uint8_t)recs[i][0];
        put16(img + off + 2, 8);
        put32(img + off + 4, recs[i][1]);
        put32(img + off + 8, recs[i][2]);
        off += 12;
    }
    img[off] = 3;                       /* a u16-valued record between them */
    img[off + 1] = 0x1b;
    put16(img + off + 2, 0xff);
    off += 4;
    size_t nvi_bytes = off - nvi_off;
    off = (off + 7) & ~(size_t)7;
    size_t sh_off = off;
    /* sections: 0 null, 1 .shstrtab, 2 .strtab, 3 .symtab, 4 .nv.info */
    const struct { uint32_t name, type, link; size_t at, bytes; } sec[] = {
        { 0, 0, 0, 0, 0 }, { 1, 3, 0, shstr_off, sizeof shstr }, { 11, 3, 0, str_off, sizeof str },
        { 19, 2, 2, sym_off, sym_bytes }, { 27, 0x70000000, 3, nvi_off, nvi_bytes },
    };
    for (int i = 0; i < 5; i++) {
        uint8_t *h = img + off;
        put32(h, sec[i].name);
        put32(h + 4, sec[i].type);
        put64(h + 24, sec[i].at);
        put64(h + 32, sec[i].bytes);
        put32(h + 40, sec[i].link);
        off += SH;
    }
    memcpy(img, "\177ELF", 4);
    img[4] = 2;
    img[5] = 1;
    put64(img + 0x28, sh_off);
    put16(img + 0x3A, SH);
    put16(img + 0x3C, 5);
    put16(img + 0x3E, 1);
    return off;
}

typedef struct { unsigned n; fe_kernel_res r[4]; } seen_kernels;

static bool collect_kernel(void *ctx, const fe_kernel_res *r)
{
    seen_kernels *s = ctx;
    if (s->n < 4)
        s->r[s->n] = *r;
    s->n++;
    return true;
}

/* Register counts are read from a cubin, and no malformed cubin (every
 * truncation, every single-byte corruption) crashes the reader or hands out
 * a name outside the image. */
static void test_cubin(void)
{
    uint8_t img[1024], bad[1024];
    size_t n = make_cubin(img, sizeof img);
    seen_kernels s = {0};
    ptx_diag d = {0};
    CHECK(fe_cubin_kernels(img, n, collect_kernel, &s, &d) == PTX_OK, "a well-formed cubin reads: %s", d.msg);
    CHECK(s.n == 2, "two kernels, not %u (a data symbol's count is not a kernel's)", s.n);
    CHECK(s.n >= 2 && !strcmp(s.r[0].name, "k1") && s.r[0].regs == 40 && s.r[0].frame_bytes == 64,
          "k1: 40 registers, 64-byte frame");
    CHECK(s.n >= 2 && !strcmp(s.r[1].name, "k2") && s.r[1].regs == 8, "k2: 8 registers");
    unsigned failures = 0, wrong = 0;
    for (size_t cut = 0; cut < n; cut++) {
        seen_kernels t = {0};
        ptx_diag td = {0};
        if (fe_cubin_kernels(img, cut, collect_kernel, &t, &td) != PTX_OK)
            failures++;
    }
    CHECK(failures > n / 2, "truncated cubins are refused (%u of %zu)", failures, n);
    for (size_t at = 0; at < n; at++) {
        memcpy(bad, img, n);
        bad[at] ^= 0xA5;
        seen_kernels t = {0};
        ptx_diag td = {0};
        fe_cubin_kernels(bad, n, collect_kernel, &t, &td);
        for (unsigned i = 0; i < t.n && i < 4; i++) {
            const uint8_t *name = (const uint8_t *)t.r[i].name;
            wrong += name < bad || name >= bad + n || !memchr(name, 0, (size_t)(bad + n - name));
        }
    }
    CHECK(wrong == 0, "corrupt cubins' kernel names lie inside them, terminated (%u did not)", wrong);
}

static const check_case cases[] = {
    CASE(constructs),
    CASE(errors),
    CASE(error_recovery),
    CASE(refused_instruction_slot),
    CASE(postdominators),
    CASE(corpus),
    CASE(cubin),
};

int main(int argc, char **argv)
{
    return CHECK_MAIN(argc, argv, cases);
}
