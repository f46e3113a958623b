/*
 * dwarf.c -- CUDA variables by name, from the DWARF that `nvcc -G` writes
 * into the PTX itself.
 *
 * The PTX carries .debug_info, .debug_abbrev and .debug_loc as sections of
 * .b8/.b16/.b32/.b64 data, where a label ($L__tmp3) or a symbol (a kernel
 * parameter, a shared array) stands in for an address.  Read once per
 * program: the sections' bytes with the symbols at their offsets, the
 * abbreviations, and one record per DIE with the attributes a lookup
 * needs.  Addresses become pcs through the labels' places in the PTX text.
 *
 * A variable is found by name in the function the frame executes: among
 * its parameters and the variables of the lexical blocks that hold the pc,
 * the innermost wins.  Its location is a register (DW_OP_regx of the
 * register's name packed into a number, as nvcc writes it), a symbol
 * (DW_OP_addr of a parameter or variable, plus DW_OP_plus_uconst for
 * clang's locals in the function's local depot), or a location list of
 * those by pc range.
 * Base types, pointers (with what they point to), arrays (by their first
 * element's address), const, volatile and typedefs are understood.
 */
#include "dbg_int.h"

#include <stdlib.h>
#include <string.h>

enum {
    TAG_ARRAY = 0x01, TAG_PARAM = 0x05, TAG_BLOCK = 0x0b, TAG_POINTER = 0x0f, TAG_TYPEDEF = 0x16,
    TAG_SUBRANGE = 0x21, TAG_BASE = 0x24, TAG_CONST = 0x26, TAG_SUBPROGRAM = 0x2e, TAG_VAR = 0x34,
    TAG_VOLATILE = 0x35,
    AT_LOCATION = 0x02, AT_NAME = 0x03, AT_BYTE_SIZE = 0x0b, AT_LOW_PC = 0x11, AT_HIGH_PC = 0x12,
    AT_UPPER = 0x2f, AT_COUNT = 0x37, AT_ENCODING = 0x3e, AT_TYPE = 0x49, AT_LINKAGE = 0x6e,
    AT_MIPS_LINKAGE = 0x2007,
    OP_ADDR = 0x03, OP_PLUS_UCONST = 0x23, OP_REGX = 0x90,
};

typedef struct dw_sym {
    uint32_t at;                /* byte offset in the section */
    const char *name;           /* into the PTX text */
    uint32_t len;
    uint32_t pc;                /* a label's pc once looked up (PC_UNKNOWN before) */
} dw_sym;

#define PC_UNKNOWN 0xFFFFFFFEu

typedef struct dw_section {
    uint8_t *b;
    uint32_t n, cap;
    dw_sym *syms;
    uint32_t nsyms, capsyms;
} dw_section;

typedef struct dw_die {
    uint32_t off;               /* offset in .debug_info */
    uint16_t tag;
    int32_t parent;             /* index, -1 at the top */
    const char *name, *linkage; /* NUL-terminated, in .debug_info */
    uint32_t type;              /* offset of the type's DIE, 0 if none */
    uint8_t loc_kind;           /* 0 none, 1 an expression, 2 a location list */
    uint32_t loc_at, loc_len;   /* expression in .debug_info, or list offset in .debug_loc */
    int32_t low, high;          /* symbols of low_pc and high_pc, -1 if none */
    uint32_t byte_size, encoding;
    uint64_t count;             /* subrange: elements */
} dw_die;

typedef struct dw_label {
    const char *name;
    uint32_t len, line;
} dw_label;

struct dbg_dwarf {
    dw_section info, abbrev, loc;
    dw_die *dies;
    uint32_t ndies, capdies;
    dw_label *labels;
    uint32_t nlabels, caplabels;
    uint64_t *line_pc;          /* (PTX line << 32 | pc), sorted */
    uint32_t nline_pc;
};

/* ---- the sections' bytes ------------------------------------------------------ */

static bool put(dw_section *sec, const uint8_t *b, uint32_t n)
{
    if (sec->n + n > sec->cap) {
        uint32_t nc = sec->cap ? sec->cap * 2 : 4096;
        while (nc < sec->n + n)
            nc *= 2;
        uint8_t *nb = realloc(sec->b, nc);
        if (!nb)
            return false;
        sec->b = nb;
        sec->cap = nc;
    }
    memcpy(sec->b + sec->n, b, n);
    sec->n += n;
    return true;
}

static bool put_sym(dw_section *sec, const char *name, uint32_t len)
{
    if (sec->nsyms == sec->capsyms) {
        uint32_t nc = sec->capsyms ? sec->capsyms * 2 : 64;
        dw_sym *ns = realloc(sec->syms, nc * sizeof *ns);
        if (!ns)
            return false;
        sec->syms = ns;
        sec->capsyms = nc;
    }
    sec->syms[sec->nsyms++] = (dw_sym){ sec->n, name, len, PC_UNKNOWN };
    return true;
}

static bool is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '.';
}

/* One `.bN v, v, ...` line of a section. */
static bool data_line(dw_section *sec, const char *p, const char *end)
{
    unsigned bytes = p[2] == '8' ? 1 : p[2] == '1' ? 2 : p[2] == '3' ? 4 : 8;
    p += p[2] == '8' ? 3 : 4;
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
            p++;
        if (p >= end)
            break;
        const char *q = p;
        while (q < end && is_ident(*q))
            q++;
        if (q == p)
            return true;                /* something else: ignore the rest */
        uint64_t v = 0;
        if (*p >= '0' && *p <= '9') {
            v = strtoull(p, NULL, 0);
        } else {
            if (!put_sym(sec, p, (uint32_t)(q - p)))
                return false;
            /* `.debug_loc+133`: an offset into another section. */
            if (q < end && (*q == '+' || *q == '-')) {
                char *after;
                long long add = strtoll(q, &after, 0);
                v = (uint64_t)add;
                q = after;
            }
        }
        uint8_t le[8];
        for (unsigned i = 0; i < bytes; i++)
            le[i] = (uint8_t)(v >> (8 * i));
        if (!put(sec, le, bytes))
            return false;
        p = q;
    }
    return true;
}

static bool read_sections(dbg_dwarf *dw, const isa_module *m)
{
    const char *t = m->text, *end = t + m->text_len;
    dw_section *sec = NULL;
    for (const char *line = t; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *le = nl ? nl : end;
        const char *p = line;
        while (p < le && (*p == ' ' || *p == '\t'))
            p++;
        if (le - p > 8 && memcmp(p, ".section", 8) == 0) {
            p += 8;
            while (p < le && (*p == ' ' || *p == '\t'))
                p++;
            size_t n = (size_t)(le - p);
            sec = n >= 11 && memcmp(p, ".debug_info", 11) == 0 ? &dw->info
                : n >= 13 && memcmp(p, ".debug_abbrev", 13) == 0 ? &dw->abbrev
                : n >= 10 && memcmp(p, ".debug_loc", 10) == 0 ? &dw->loc : NULL;
        } else if (sec && p < le && *p == '}') {
            sec = NULL;
        } else if (sec && le - p > 3 && p[0] == '.' && p[1] == 'b') {
            if (!data_line(sec, p, le))
                return false;
        }
        line = nl ? nl + 1 : end;
    }
    return dw->info.n && dw->abbrev.n;
}

/* The symbol written at `at` in a section, or -1. */
static int32_t sym_at(const dw_section *sec, uint32_t at)
{
    uint32_t lo = 0, hi = sec->nsyms;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (sec->syms[mid].at < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sec->nsyms && sec->syms[lo].at == at ? (int32_t)lo : -1;
}

/* ---- reading DWARF ---------------------------------------------------------------- */

typedef struct cursor {
    const uint8_t *b;
    uint32_t at, end;
    bool bad;
} cursor;

static uint64_t fixed(cursor *c, unsigned n)
{
    if (c->at + n > c->end) {
        c->bad = true;
        c->at = c->end;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)c->b[c->at + i] << (8 * i);
    c->at += n;
    return v;
}

static uint64_t leb(cursor *c, bool is_signed)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t x = 0;
    do {
        if (c->at >= c->end) {
            c->bad = true;
            return 0;
        }
        x = c->b[c->at++];
        if (shift < 64)
            v |= (uint64_t)(x & 0x7F) << shift;
        shift += 7;
    } while (x & 0x80);
    if (is_signed && shift < 64 && (x & 0x40))
        v |= ~0ull << shift;
    return v;
}

static const char *cstr(cursor *c)
{
    const uint8_t *s = c->b + c->at;
    const uint8_t *z = memchr(s, 0, c->end - c->at);
    if (!z) {
        c->bad = true;
        c->at = c->end;
        return "";
    }
    c->at = (uint32_t)(z - c->b) + 1;
    return (const char *)s;
}

/* Read one attribute value of form `form` into die (when it is one we keep). */
static void attribute(dbg_dwarf *dw, cursor *c, dw_die *d, uint64_t at, uint64_t form, uint32_t cu,
                      unsigned addr_size)
{
    uint32_t start = c->at;
    uint64_t v = 0;
    bool is_block = false, is_ref = false;
    const char *str = NULL;
    switch (form) {
    case 0x01: v = fixed(c, addr_size); break;                  /* addr */
    case 0x0b: case 0x11: v = fixed(c, 1); is_ref = form == 0x11; break;
    case 0x05: case 0x12: v = fixed(c, 2); is_ref = form == 0x12; break;
    case 0x06: case 0x13: case 0x17: v = fixed(c, 4); is_ref = form == 0x13; break;
    case 0x07: case 0x14: v = fixed(c, 8); is_ref = form == 0x14; break;
    case 0x0c: v = fixed(c, 1); break;                          /* flag */
    case 0x19: break;                                           /* flag_present */
    case 0x0d: v = leb(c, true); break;
    case 0x0f: v = leb(c, false); break;
    case 0x15: v = leb(c, false); is_ref = true; break;
    case 0x10: v = fixed(c, addr_size); break;                  /* ref_addr (DWARF 2) */
    case 0x08: str = cstr(c); break;
    case 0x0e: v = fixed(c, 4); break;                          /* strp: no .debug_str kept */
    case 0x0a: v = fixed(c, 1); is_block = true; break;
    case 0x03: v = fixed(c, 2); is_block = true; break;
    case 0x04: v = fixed(c, 4); is_block = true; break;
    case 0x09: case 0x18: v = leb(c, false); is_block = true; break;
    case 0x16: attribute(dw, c, d, at, leb(c, false), cu, addr_size); return;   /* indirect */
    default: c->bad = true; return;
    }
    uint32_t block_at = c->at;
    if (is_block) {
        if (c->at + v > c->end) {
            c->bad = true;
            return;
        }
        c->at += (uint32_t)v;
    }
    switch (at) {
    case AT_NAME: d->name = str; break;
    case AT_LINKAGE: case AT_MIPS_LINKAGE: d->linkage = str; break;
    case AT_TYPE: d->type = is_ref ? (uint32_t)(cu + v) : (uint32_t)v; break;
    case AT_BYTE_SIZE: d->byte_size = (uint32_t)v; break;
    case AT_ENCODING: d->encoding = (uint32_t)v; break;
    case AT_COUNT: d->count = v; break;
    case AT_UPPER: d->count = v + 1; break;
    case AT_LOW_PC: d->low = sym_at(&dw->info, start); break;
    case AT_HIGH_PC: d->high = sym_at(&dw->info, start); break;
    case AT_LOCATION:
        if (is_block) {
            d->loc_kind = 1;
            d->loc_at = block_at;
            d->loc_len = (uint32_t)v;
        } else {
            d->loc_kind = 2;
            d->loc_at = (uint32_t)v;
        }
        break;
    default: break;
    }
}

/* The attribute list of abbreviation `code`, as a cursor into .debug_abbrev. */
static bool find_abbrev(const dbg_dwarf *dw, uint32_t table, uint64_t code, cursor *out, uint64_t *tag,
                        bool *children)
{
    cursor c = { dw->abbrev.b, table, dw->abbrev.n, false };
    while (!c.bad && c.at < c.end) {
        uint64_t k = leb(&c, false);
        if (k == 0)
            return false;
        uint64_t t = leb(&c, false);
        bool ch = fixed(&c, 1) != 0;
        if (k == code) {
            *out = c;
            *tag = t;
            *children = ch;
            return true;
        }
        while (!c.bad) {
            uint64_t a = leb(&c, false), f = leb(&c, false);
            if (!a && !f)
                break;
        }
    }
    return false;
}

static bool read_dies(dbg_dwarf *dw)
{
    cursor c = { dw->info.b, 0, dw->info.n, false };
    while (!c.bad && c.at + 11 <= c.end) {
        uint32_t cu = c.at;
        uint32_t len = (uint32_t)fixed(&c, 4);
        uint32_t cu_end = c.at + len;
        if (len == 0xFFFFFFFFu || cu_end > c.end || cu_end < c.at)
            return dw->ndies > 0;       /* 64-bit DWARF or damage: keep what was read */
        fixed(&c, 2);                   /* version */
        uint32_t table = (uint32_t)fixed(&c, 4);
        if (sym_at(&dw->info, c.at - 4) >= 0)
            table = 0;                  /* `.b32 .debug_abbrev`: the start of the section */
        unsigned addr_size = (unsigned)fixed(&c, 1);
        if (addr_size != 4 && addr_size != 8)
            return false;
        int32_t parent = -1;
        c.end = cu_end;
        while (!c.bad && c.at < cu_end) {
            uint32_t off = c.at;
            uint64_t code = leb(&c, false);
            if (code == 0) {
                parent = parent >= 0 ? dw->dies[parent].parent : -1;
                continue;
            }
            cursor a;
            uint64_t tag;
            bool children;
            if (!find_abbrev(dw, table, code, &a, &tag, &children))
                return dw->ndies > 0;
            if (dw->ndies == dw->capdies) {
                uint32_t nc = dw->capdies ? dw->capdies * 2 : 256;
                dw_die *nd = realloc(dw->dies, nc * sizeof *nd);
                if (!nd)
                    return false;
                dw->dies = nd;
                dw->capdies = nc;
            }
            dw_die *d = &dw->dies[dw->ndies];
            memset(d, 0, sizeof *d);
            d->off = off;
            d->tag = (uint16_t)tag;
            d->parent = parent;
            d->low = d->high = -1;
            for (;;) {
                uint64_t at = leb(&a, false), form = leb(&a, false);
                if ((!at && !form) || a.bad || c.bad)
                    break;
                attribute(dw, &c, d, at, form, cu, addr_size);
            }
            if (children)
                parent = (int32_t)dw->ndies;
            dw->ndies++;
        }
        c.end = dw->info.n;
        c.at = cu_end;
    }
    return dw->ndies > 0;
}

/* ---- addresses as pcs ------------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool read_labels(dbg_dwarf *dw, dbg_session *s)
{
    for (uint32_t line = 1; line <= s->prog.nlines; line++) {
        size_t n;
        const char *t = dbg_ptx_line(s, line, &n);
        size_t k = 0;
        while (k < n && (t[k] == ' ' || t[k] == '\t'))
            k++;
        size_t b = k;
        while (k < n && is_ident(t[k]))
            k++;
        if (k == b || k >= n || t[k] != ':')
            continue;
        if (dw->nlabels == dw->caplabels) {
            uint32_t nc = dw->caplabels ? dw->caplabels * 2 : 256;
            dw_label *nl = realloc(dw->labels, nc * sizeof *nl);
            if (!nl)
                return false;
            dw->labels = nl;
            dw->caplabels = nc;
        }
        dw->labels[dw->nlabels++] = (dw_label){ t + b, (uint32_t)(k - b), line };
    }
    uint32_t ncode = s->prog.ncode;
    dw->line_pc = malloc(((size_t)ncode + 1) * sizeof *dw->line_pc);
    if (!dw->line_pc)
        return false;
    for (uint32_t pc = 0; pc < ncode; pc++)
        dw->line_pc[pc] = (uint64_t)exec_program_inst(s->prog.p, pc)->line << 32 | pc;
    dw->nline_pc = ncode;
    qsort(dw->line_pc, ncode, sizeof *dw->line_pc, cmp_u64);
    return true;
}

/* The pc a label stands for: the first instruction after it (remembered,
 * as conditions look the same labels up for every lane). */
static uint32_t label_pc(const dbg_dwarf *dw, dw_sym *sym)
{
    if (sym->pc != PC_UNKNOWN)
        return sym->pc;
    uint32_t line = 0;
    for (uint32_t i = 0; i < dw->nlabels && !line; i++)
        if (dw->labels[i].len == sym->len && memcmp(dw->labels[i].name, sym->name, sym->len) == 0)
            line = dw->labels[i].line;
    if (!line)
        return sym->pc = UINT32_MAX;
    uint64_t key = (uint64_t)(line + 1) << 32;
    uint32_t lo = 0, hi = dw->nline_pc;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (dw->line_pc[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return sym->pc = lo < dw->nline_pc ? (uint32_t)dw->line_pc[lo] : dw->nline_pc;
}

static bool in_range(const dbg_dwarf *dw, const dw_section *sec, int32_t low, int32_t high, uint32_t pc)
{
    if (low < 0 || high < 0)
        return true;                    /* no range: the whole function */
    uint32_t lo = label_pc(dw, &sec->syms[low]), hi = label_pc(dw, &sec->syms[high]);
    return lo != UINT32_MAX && hi != UINT32_MAX && pc >= lo && pc < hi;
}

/* ---- the program's DWARF, read when first asked ------------------------------------- */

void dbg_dwarf_free(dbg_dwarf *dw)
{
    if (!dw)
        return;
    dw_section *secs[] = { &dw->info, &dw->abbrev, &dw->loc };
    for (int i = 0; i < 3; i++) {
        free(secs[i]->b);
        free(secs[i]->syms);
    }
    free(dw->dies);
    free(dw->labels);
    free(dw->line_pc);
    free(dw);
}

static dbg_dwarf *dwarf(dbg_session *s)
{
    dbg_prog *pr = &s->prog;
    if (pr->dw || pr->dw_tried || !pr->m || !pr->m->text)
        return pr->dw;
    pr->dw_tried = true;
    dbg_dwarf *dw = calloc(1, sizeof *dw);
    if (!dw)
        return NULL;
    if (!read_sections(dw, pr->m) || !read_dies(dw) || !read_labels(dw, s)) {
        dbg_dwarf_free(dw);
        return NULL;
    }
    pr->dw = dw;
    return dw;
}

static int32_t die_at(const dbg_dwarf *dw, uint32_t off)
{
    uint32_t lo = 0, hi = dw->ndies;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (dw->dies[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < dw->ndies && dw->dies[lo].off == off ? (int32_t)lo : -1;
}

/* ---- types ---------------------------------------------------------------------------- */

typedef struct dw_type {
    uint8_t type;               /* isa_type of the value (B64 for pointers and arrays) */
    uint8_t pointee;            /* pointers and arrays: isa_type of an element */
    bool array;                 /* the variable is the array: its value is its address */
    char name[48];
} dw_type;

static uint8_t base_type(const dw_die *d)
{
    unsigned n = d->byte_size;
    switch (d->encoding) {
    case 4: return n == 8 ? ISA_TYPE_F64 : n == 2 ? ISA_TYPE_F16 : ISA_TYPE_F32;
    case 5: case 6: case 0xd:
        return n == 1 ? ISA_TYPE_S8 : n == 2 ? ISA_TYPE_S16 : n == 8 ? ISA_TYPE_S64 : ISA_TYPE_S32;
    case 2: case 7: case 8: case 0x10:
        return n == 1 ? ISA_TYPE_U8 : n == 2 ? ISA_TYPE_U16 : n == 8 ? ISA_TYPE_U64 : ISA_TYPE_U32;
    default: return ISA_TYPE_NONE;
    }
}

/* The isa_type of the type at `off` once qualifiers and typedefs are gone
 * (pointers are B64); *out_die is the DIE left. */
static uint8_t strip(const dbg_dwarf *dw, uint32_t off, int32_t *out_die)
{
    for (int hops = 0; hops < 16; hops++) {
        int32_t i = off ? die_at(dw, off) : -1;
        *out_die = i;
        if (i < 0)
            return ISA_TYPE_NONE;
        const dw_die *d = &dw->dies[i];
        if (d->tag == TAG_CONST || d->tag == TAG_VOLATILE || d->tag == TAG_TYPEDEF) {
            off = d->type;
            continue;
        }
        if (d->tag == TAG_BASE)
            return base_type(d);
        if (d->tag == TAG_POINTER)
            return ISA_TYPE_B64;
        return ISA_TYPE_NONE;
    }
    return ISA_TYPE_NONE;
}

static bool type_of(const dbg_dwarf *dw, uint32_t off, dw_type *t)
{
    memset(t, 0, sizeof *t);
    int32_t i;
    t->type = strip(dw, off, &i);
    if (i < 0)
        return false;
    const dw_die *d = &dw->dies[i];
    if (d->name)
        snprintf(t->name, sizeof t->name, "%s", d->name);
    if (d->tag == TAG_POINTER || d->tag == TAG_ARRAY) {
        int32_t e;
        t->pointee = strip(dw, d->type, &e);
        t->array = d->tag == TAG_ARRAY;
        t->type = ISA_TYPE_B64;
        if (e >= 0 && dw->dies[e].name)
            snprintf(t->name, sizeof t->name, "%s %s", dw->dies[e].name, t->array ? "[]" : "*");
        return true;
    }
    return t->type != ISA_TYPE_NONE;
}

/* ---- variables -------------------------------------------------------------------------- */

/* The subprogram DIE of module function `fi`. */
static int32_t subprogram(dbg_session *s, const dbg_dwarf *dw, uint32_t fi)
{
    const char *name = s->prog.m->funcs[fi].name;
    for (uint32_t i = 0; i < dw->ndies; i++) {
        const dw_die *d = &dw->dies[i];
        if (d->tag == TAG_SUBPROGRAM && ((d->linkage && strcmp(d->linkage, name) == 0) ||
                                         (!d->linkage && d->name && strcmp(d->name, name) == 0)))
            return (int32_t)i;
    }
    return -1;
}

/* How deep in `sub` die i sits, through blocks that hold pc; -1 if not
 * visible there. */
static int visible(const dbg_dwarf *dw, int32_t sub, uint32_t i, uint32_t pc)
{
    int depth = 0;
    for (int32_t p = dw->dies[i].parent; p >= 0; p = dw->dies[p].parent, depth++) {
        if (p == sub)
            return depth;
        const dw_die *b = &dw->dies[p];
        if (b->tag != TAG_BLOCK || !in_range(dw, &dw->info, b->low, b->high, pc))
            return -1;
    }
    return -1;
}

/* A location expression at `at` (len bytes) of section sec: a register name
 * into reg, or a symbol (plus *add bytes) into *sym.  Anything else (a
 * dereference, pieces) is refused rather than misread. */
static bool location(const dw_section *sec, uint32_t at, uint32_t len, char *reg, size_t n, const dw_sym **sym,
                     uint64_t *add)
{
    cursor c = { sec->b, at, at + len, false };
    if (c.end > sec->n)
        return false;
    *add = 0;
    uint8_t op = (uint8_t)fixed(&c, 1);
    if (op == OP_REGX) {
        /* nvcc packs the register's name, "%r5", into the number. */
        uint64_t v = leb(&c, false);
        char tmp[9];
        int k = 0;
        for (; v && k < 8; v >>= 8)
            tmp[k++] = (char)(v & 0xFF);
        size_t o = 0;
        while (k > 0 && o + 1 < n)
            reg[o++] = tmp[--k];
        reg[o] = 0;
        return !c.bad && o > 0 && c.at == c.end;
    }
    if (op == OP_ADDR) {
        /* clang -g: a local in its function's depot, `addr depot; plus_uconst N`. */
        int32_t i = sym_at(sec, c.at);
        *sym = i >= 0 ? &sec->syms[i] : NULL;
        c.at += 8;
        while (*sym && !c.bad && c.at < c.end) {
            if (fixed(&c, 1) != OP_PLUS_UCONST)
                return false;
            *add += leb(&c, false);
        }
        return *sym != NULL && !c.bad;
    }
    return false;
}

/* The variable's location at pc: through its location list if it has one. */
static bool place(const dbg_dwarf *dw, const dw_die *d, uint32_t pc, char *reg, size_t n, const dw_sym **sym,
                  uint64_t *add)
{
    reg[0] = 0;
    *sym = NULL;
    if (d->loc_kind == 1)
        return location(&dw->info, d->loc_at, d->loc_len, reg, n, sym, add);
    if (d->loc_kind != 2)
        return false;
    cursor c = { dw->loc.b, d->loc_at, dw->loc.n, false };
    while (!c.bad && c.at + 16 <= c.end) {
        uint32_t at = c.at;
        uint64_t lo = fixed(&c, 8), hi = fixed(&c, 8);
        int32_t slo = sym_at(&dw->loc, at), shi = sym_at(&dw->loc, at + 8);
        if (lo == 0 && hi == 0 && slo < 0 && shi < 0)
            return false;               /* the end of the list */
        uint32_t len = (uint32_t)fixed(&c, 2);
        if (slo >= 0 && shi >= 0 && in_range(dw, &dw->loc, slo, shi, pc))
            return location(&dw->loc, c.at, len, reg, n, sym, add);
        c.at += len;
    }
    return false;
}

/* Read a variable that lives at a symbol: a kernel parameter, a shared
 * array, a global. */
static int symbol_value(dbg_session *s, const dbg_ctx *c, uint32_t fi, const dw_sym *sym, uint64_t add,
                        const dw_type *t, dbg_value *out, char *err, size_t n)
{
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)sym->len, sym->name);
    const isa_module *m = s->prog.m;
    int v = isa_find_var(m, name, (int32_t)fi);
    if (v < 0)
        v = isa_find_var(m, name, -1);
    if (v < 0) {
        snprintf(err, n, "The variable's symbol %s is not in the program.", name);
        return -1;
    }
    const isa_var *var = &m->vars[v];
    uint64_t addr = exec_program_var_addr(s->prog.p, (uint32_t)v) + add;
    uint8_t space = ISA_SPACE_GLOBAL;
    if (var->space == ISA_SPACE_SHARED)
        space = ISA_SPACE_SHARED;
    else if (var->space == ISA_SPACE_LOCAL || (var->space == ISA_SPACE_PARAM && var->role != ISA_VAR_KPARAM)) {
        exec_frame_view fv;
        if (!exec_warp_frame(c->w, c->level, &fv))
            return -1;
        addr += fv.local;
        space = ISA_SPACE_LOCAL;
    }
    if (t->array) {
        *out = (dbg_value){ .kind = DBG_V_UINT, .bytes = 8, .type = ISA_TYPE_B64, .space = space, .u = addr,
                            .pointee = t->pointee };
        return 1;
    }
    unsigned bytes = isa_types[t->type].bytes;
    uint8_t *host = dbg_mem_map(s, c, space, addr, bytes, err, n);
    if (!host)
        return -1;
    uint64_t bits = 0;
    memcpy(&bits, host, bytes);
    *out = dbg_value_from_bits(bits, t->type);
    out->pointee = t->pointee;
    return 1;
}

static int value_of(dbg_session *s, const dbg_dwarf *dw, const dbg_ctx *c, uint32_t fi, uint32_t pc,
                    const dw_die *d, dbg_value *out, char *err, size_t n)
{
    dw_type t;
    if (!type_of(dw, d->type, &t)) {
        snprintf(err, n, "The type of %s is not one the debugger can show.", d->name);
        return -1;
    }
    char reg[16];
    const dw_sym *sym;
    uint64_t add;
    if (!place(dw, d, pc, reg, sizeof reg, &sym, &add)) {
        snprintf(err, n, "%s is not available at this pc.", d->name);
        return -1;
    }
    if (sym)
        return symbol_value(s, c, fi, sym, add, &t, out, err, n);
    uint32_t r;
    uint8_t rtype;
    if (!dbg_find_reg(&s->prog.m->funcs[fi], reg, &r, &rtype)) {
        snprintf(err, n, "%s lives in %s, which %s does not declare.", d->name, reg, s->prog.m->funcs[fi].name);
        return -1;
    }
    uint64_t bits = rtype == ISA_TYPE_PRED ? exec_warp_pred(c->w, c->level, r, c->lane)
                                           : exec_warp_reg(c->w, c->level, r, c->lane);
    *out = dbg_value_from_bits(bits, t.type);
    out->pointee = t.pointee;
    return 1;
}

/* Where the context is: its function and pc. */
static bool frame(const dbg_ctx *c, uint32_t *fi, uint32_t *pc)
{
    exec_frame_view fv;
    if (!c->w || !exec_warp_frame(c->w, c->level, &fv))
        return false;
    *fi = fv.func;
    *pc = fv.pc;
    return true;
}

int dbg_dwarf_var(dbg_session *s, const dbg_ctx *c, const char *name, dbg_value *out, char *err, size_t n)
{
    uint32_t fi, pc;
    dbg_dwarf *dw = dwarf(s);
    if (!dw || !frame(c, &fi, &pc))
        return 0;
    int32_t sub = subprogram(s, dw, fi);
    if (sub < 0)
        return 0;
    int best_depth = -1;
    int32_t best = -1;
    for (uint32_t i = (uint32_t)sub + 1; i < dw->ndies; i++) {
        const dw_die *d = &dw->dies[i];
        if ((d->tag != TAG_VAR && d->tag != TAG_PARAM) || !d->name || strcmp(d->name, name) != 0)
            continue;
        int depth = visible(dw, sub, i, pc);
        if (depth > best_depth) {
            best_depth = depth;
            best = (int32_t)i;
        }
    }
    if (best < 0)
        return 0;
    return value_of(s, dw, c, fi, pc, &dw->dies[best], out, err, n);
}

void dbg_dwarf_locals(dbg_session *s, const dbg_ctx *c, bool args)
{
    uint32_t fi, pc;
    dbg_dwarf *dw = dwarf(s);
    int32_t sub = dw && frame(c, &fi, &pc) ? subprogram(s, dw, fi) : -1;
    if (sub < 0) {
        dbg_say(s, "No symbol table info available (build with nvcc -G).\n");
        return;
    }
    bool any = false;
    for (uint32_t i = (uint32_t)sub + 1; i < dw->ndies; i++) {
        const dw_die *d = &dw->dies[i];
        if (!d->name || (d->tag != (args ? TAG_PARAM : TAG_VAR)) || visible(dw, sub, i, pc) < 0)
            continue;
        dbg_value v;
        char err[200], text[160];
        if (value_of(s, dw, c, fi, pc, d, &v, err, sizeof err) > 0) {
            dbg_value_format(&v, 0, text, sizeof text);
            dbg_say(s, "%s = %s\n", d->name, text);
        } else {
            dbg_say(s, "%s = <%s>\n", d->name, err);
        }
        any = true;
    }
    if (!any)
        dbg_say(s, args ? "No arguments.\n" : "No locals.\n");
}
