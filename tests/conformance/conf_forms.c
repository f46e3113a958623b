/*
 * conf_forms.c -- instruction forms: expanding the ISA syntax lines of
 * conf_table.c into mnemonics, and reading a mnemonic back into a
 * conf_form the references look at.  Everything here is spelled the way
 * the PTX ISA spells it; nothing is taken from isa/.
 */
#include "conf.h"

#include <stdio.h>
#include <string.h>

const conf_type_info conf_types[CT_COUNT] = {
    [CT_NONE] = { "none", 0, CK_B },
    [CT_B8] = { "b8", 8, CK_B },     [CT_B16] = { "b16", 16, CK_B },
    [CT_B32] = { "b32", 32, CK_B },  [CT_B64] = { "b64", 64, CK_B },  [CT_B128] = { "b128", 128, CK_B },
    [CT_U8] = { "u8", 8, CK_U },     [CT_U16] = { "u16", 16, CK_U },
    [CT_U32] = { "u32", 32, CK_U },  [CT_U64] = { "u64", 64, CK_U },
    [CT_S8] = { "s8", 8, CK_S },     [CT_S16] = { "s16", 16, CK_S },
    [CT_S32] = { "s32", 32, CK_S },  [CT_S64] = { "s64", 64, CK_S },
    [CT_F16] = { "f16", 16, CK_F },  [CT_F16X2] = { "f16x2", 32, CK_F },
    [CT_BF16] = { "bf16", 16, CK_F }, [CT_BF16X2] = { "bf16x2", 32, CK_F },
    [CT_TF32] = { "tf32", 32, CK_F }, [CT_F32] = { "f32", 32, CK_F },
    [CT_F64] = { "f64", 64, CK_F },
    [CT_E4M3X2] = { "e4m3x2", 16, CK_F }, [CT_E5M2X2] = { "e5m2x2", 16, CK_F },
    [CT_E4M3] = { "e4m3", 8, CK_F },      [CT_E5M2] = { "e5m2", 8, CK_F },
    [CT_U16X2] = { "u16x2", 32, CK_U }, [CT_S16X2] = { "s16x2", 32, CK_S },
    [CT_F32X2] = { "f32x2", 64, CK_F },
    [CT_U4] = { "u4", 4, CK_U },     [CT_S4] = { "s4", 4, CK_S },
    [CT_U2] = { "u2", 2, CK_U },     [CT_S2] = { "s2", 2, CK_S },
    [CT_PRED] = { "pred", 1, CK_P },
};

conf_type conf_type_by_name(const char *s, size_t n)
{
    for (int t = 1; t < CT_COUNT; t++)
        if (strlen(conf_types[t].name) == n && memcmp(conf_types[t].name, s, n) == 0)
            return (conf_type)t;
    return CT_NONE;
}

/* ---- expansion ------------------------------------------------------------ */

static bool expand_from(const char *rest, char *buf, size_t len,
                        void (*out)(void *ctx, const char *mnemonic), void *ctx)
{
    const char *open = strchr(rest, '{');
    if (!open) {
        if (len + strlen(rest) + 1 > 96)
            return false;
        strcpy(buf + len, rest);
        out(ctx, buf);
        return true;
    }
    const char *close = strchr(open, '}');
    if (!close)
        return false;
    size_t pre = (size_t)(open - rest);
    if (len + pre + 1 > 96)
        return false;
    memcpy(buf + len, rest, pre);
    const char *alt = open + 1;
    for (;;) {
        const char *end = alt;
        while (end < close && *end != ',')
            end++;
        size_t an = (size_t)(end - alt);
        if (len + pre + an + 1 > 96)
            return false;
        memcpy(buf + len + pre, alt, an);
        buf[len + pre + an] = 0;
        if (!expand_from(close + 1, buf, len + pre + an, out, ctx))
            return false;
        if (end == close)
            break;
        alt = end + 1;
    }
    return true;
}

bool conf_expand(const char *syntax, void (*out)(void *ctx, const char *mnemonic), void *ctx)
{
    char buf[100];
    return expand_from(syntax, buf, 0, out, ctx);
}

/* ---- reading a mnemonic --------------------------------------------------- */

static const char *const rnd_names[] = { "", "rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi", "rs" };
static const char *const cmp_names[] = { "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                         "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };
static const char *const bool_names[] = { "", "and", "or", "xor" };
static const struct { const char *name; uint32_t flag; } flag_names[] = {
    { "ftz", CF_FTZ }, { "sat", CF_SAT }, { "hi", CF_HI }, { "lo", CF_LO }, { "wide", CF_WIDE },
    { "cc", CF_CC }, { "approx", CF_APPROX }, { "full", CF_FULL }, { "NaN", CF_NAN },
    { "xorsign", CF_XORSIGN }, { "abs", CF_ABS }, { "relu", CF_RELU }, { "satfinite", CF_SATFINITE },
    { "shiftamt", CF_SHIFTAMT }, { "clamp", CF_CLAMP }, { "wrap", CF_WRAP }, { "oob", CF_OOB },
};
/* Words that select an instruction's mode: prmt's, testp's, shf's. */
static const char *const mode_names[] = {
    "f4e", "b4e", "rc8", "ecl", "ecr", "rc16",
    "finite", "infinite", "number", "notanumber", "normal", "subnormal",
    "l", "r", "pack",
};

static int find_word(const char *const *names, size_t count, const char *s, size_t n)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
            return (int)i;
    return -1;
}
#define FIND(tab, s, n) find_word(tab, sizeof tab / sizeof tab[0], s, n)

bool conf_has(const conf_form *f, uint32_t flag) { return (f->flags & flag) != 0; }

bool conf_word(const conf_form *f, const char *w)
{
    for (unsigned i = 0; i < f->nwords; i++)
        if (!strcmp(f->words[i], w))
            return true;
    return false;
}

static bool is_cmp_op(const char *op)
{
    return !strcmp(op, "setp") || !strcmp(op, "set");
}

/* A wider type of the same kind, for .wide products. */
static conf_type widen(conf_type t)
{
    switch (t) {
    case CT_U16: return CT_U32;
    case CT_U32: return CT_U64;
    case CT_S16: return CT_S32;
    case CT_S32: return CT_S64;
    default: return CT_NONE;
    }
}

static bool parse_opd_type(const conf_form *f, const char *s, size_t n, conf_opd *o)
{
    o->kind = CO_REG;
    if (n == 4 && !memcmp(s, "pred", 4)) {
        o->kind = CO_PRED;
        o->type = CT_PRED;
        return true;
    }
    if (n == 3 && !memcmp(s, "imm", 3)) {
        o->kind = CO_IMM;
        o->type = CT_B32;
        return true;
    }
    if (n == 2 && s[0] == 'T' && (s[1] == '1' || s[1] == '2')) {
        unsigned k = (unsigned)(s[1] - '1');
        if (k >= f->ntypes)
            return false;
        o->type = f->type[k];
        return true;
    }
    if (n == 1 && s[0] == 'W') {
        o->type = (uint8_t)widen((conf_type)f->type[f->ntypes - 1]);
        return o->type != CT_NONE;
    }
    o->type = (uint8_t)conf_type_by_name(s, n);
    return o->type != CT_NONE;
}

bool conf_form_init(conf_form *f, const conf_template *t, const char *mnemonic, char *err, size_t n)
{
    memset(f, 0, sizeof *f);
    f->tpl = t;
    snprintf(f->text, sizeof f->text, "%s", mnemonic);
    const char *s = mnemonic, *dot = strchr(s, '.');
    size_t len = dot ? (size_t)(dot - s) : strlen(s);
    if (len >= sizeof f->op)
        goto bad;
    memcpy(f->op, s, len);
    while (dot) {
        s = dot + 1;
        dot = strchr(s, '.');
        len = dot ? (size_t)(dot - s) : strlen(s);
        int v;
        conf_type ty = conf_type_by_name(s, len);
        if (ty != CT_NONE) {
            if (f->ntypes == 4)
                goto bad;
            f->type[f->ntypes++] = (uint8_t)ty;
        } else if (is_cmp_op(f->op) && (v = FIND(cmp_names, s, len)) > 0) {
            f->cmp = (uint8_t)v;
        } else if ((is_cmp_op(f->op) || !strcmp(f->op, "lop3")) && (v = FIND(bool_names, s, len)) > 0) {
            f->boolop = (uint8_t)v;
        } else if ((v = FIND(rnd_names, s, len)) > 0) {
            f->rnd = (uint8_t)v;
        } else if (FIND(mode_names, s, len) >= 0 && len < sizeof f->mode) {
            memcpy(f->mode, s, len);
            f->mode[len] = 0;
        } else {
            size_t k;
            for (k = 0; k < sizeof flag_names / sizeof flag_names[0]; k++)
                if (strlen(flag_names[k].name) == len && !memcmp(flag_names[k].name, s, len))
                    break;
            if (k < sizeof flag_names / sizeof flag_names[0]) {
                f->flags |= flag_names[k].flag;
            } else if (t->xrun && f->nwords < 8 && len < sizeof f->words[0]) {
                memcpy(f->words[f->nwords], s, len);
                f->words[f->nwords++][len] = 0;
            } else {
                goto bad;
            }
        }
    }
    if (!f->ntypes && !t->xrun)                 /* bar.sync, bra, exit: whole-warp forms without a type */
        goto bad;
    f->carry_in = !strcmp(f->op, "addc") || !strcmp(f->op, "subc") || !strcmp(f->op, "madc");
    f->carry_out = conf_has(f, CF_CC);
    /* Operands: "d, a, b:u32"; "p|q" is a pair of predicate results. */
    const char *o = t->operands;
    bool first = true;
    while (*o) {
        while (*o == ' ' || *o == ',')
            o++;
        if (!*o)
            break;
        const char *e = o;
        while (*e && *e != ',')
            e++;
        const char *colon = memchr(o, ':', (size_t)(e - o));
        const char *name_end = colon ? colon : e;
        while (name_end > o && name_end[-1] == ' ')
            name_end--;
        if (name_end > o && name_end[-1] == '?') {         /* only with a BoolOp */
            if (!f->boolop) {
                o = e;
                continue;
            }
            name_end--;
        }
        conf_opd op = { CO_REG, f->type[first ? 0 : f->ntypes - 1], *o };
        if (colon && !parse_opd_type(f, colon + 1, (size_t)(e - colon - 1), &op))
            goto bad;
        if (op.type == CT_PRED)
            op.kind = CO_PRED;
        if (first) {
            if (name_end - o == 3 && o[1] == '|') {
                /* p|q: two predicates; d|p: a register and a predicate */
                conf_opd p = { CO_PRED, CT_PRED, o[0] }, q = { CO_PRED, CT_PRED, o[2] };
                f->dst[0] = o[0] == 'd' ? op : p;
                f->dst[1] = q;
                f->ndst = 2;
            } else {
                if (op.name == 'p' && !colon)
                    op.kind = CO_PRED, op.type = CT_PRED;
                f->dst[0] = op;
                f->ndst = 1;
            }
            first = false;
        } else {
            if (f->nsrc == CONF_MAX_SRC)
                goto bad;
            f->src[f->nsrc++] = op;
        }
        o = e;
    }
    if (f->carry_out) {
        if (f->ndst == CONF_MAX_DST)
            goto bad;
        f->dst[f->ndst++] = (conf_opd){ CO_REG, CT_U32, 'c' };
    }
    return true;
bad:
    snprintf(err, n, "cannot read form `%s` with operands `%s`", mnemonic, t->operands);
    return false;
}
