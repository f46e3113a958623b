/*
 * cubin.c -- what ptxas allocated for each kernel, read from a cubin.
 *
 * A cubin is an ELF64 file.  Its ".nv.info" section is a list of attribute
 * records, each a u8 format, a u8 attribute and a u16 that is either the
 * value itself or the byte size of the value that follows:
 *
 *   format 0x01 (no value), 0x02 (u8 in the u16), 0x03 (u16 value),
 *   0x04 (sized: u16 bytes of data follow the header)
 *
 * The per-kernel resources are sized records of two u32, the kernel's
 * symbol index and the value:
 *
 *   0x2f  registers per thread (EIATTR_REGCOUNT)
 *   0x11  stack frame bytes per thread (EIATTR_FRAME_SIZE)
 *   0x12  minimum stack bytes per thread (EIATTR_MIN_STACK_SIZE)
 *   0x23  maximum stack bytes per thread, calls included (EIATTR_MAX_STACK_SIZE)
 *
 * Every offset and size is checked against the image before it is read:
 * the cubin comes out of a program's fat binary and is untrusted.
 */
#include "frontend.h"

#include <stdlib.h>
#include <string.h>

enum {
    NVI_NVAL = 1, NVI_BVAL = 2, NVI_HVAL = 3, NVI_SVAL = 4,
    NVI_FRAME_SIZE = 0x11, NVI_MIN_STACK = 0x12, NVI_MAX_STACK = 0x23, NVI_REGCOUNT = 0x2f,
};

enum { SHT_SYMTAB = 2, STT_FUNC = 2, SHDR_BYTES = 64, SYM_BYTES = 24 };

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static ptx_status bad(ptx_diag *d, const char *what)
{
    return ptx_error(d, PTX_E_BAD_FATBIN, NULL, 0, 0, "corrupt cubin in the fat binary: %s", what);
}

/* One section: its bytes, checked to lie inside the image. */
typedef struct section {
    const uint8_t *data;
    uint64_t bytes;
    uint32_t type, link, name;
} section;

static bool section_at(const uint8_t *elf, size_t len, uint64_t shoff, uint32_t i, section *s)
{
    const uint8_t *h = elf + shoff + (uint64_t)i * SHDR_BYTES;
    uint64_t off = rd64(h + 24), bytes = rd64(h + 32);
    if (off > len || bytes > len - off)
        return false;
    *s = (section){ elf + off, bytes, rd32(h + 4), rd32(h + 40), rd32(h) };
    return true;
}

/* A NUL-terminated string at off in a string table, or NULL. */
static const char *string_at(const section *strtab, uint64_t off)
{
    if (off >= strtab->bytes || !memchr(strtab->data + off, 0, strtab->bytes - off))
        return NULL;
    return (const char *)strtab->data + off;
}

bool fe_cubin_has_code(const uint8_t *elf, size_t len)
{
    if (len < 64 || memcmp(elf, "\177ELF", 4) != 0 || elf[4] != 2 || elf[5] != 1)
        return true;                    /* (not readable: assume it has) */
    uint64_t shoff = rd64(elf + 0x28);
    uint32_t shnum = rd16(elf + 0x3C), shstrndx = rd16(elf + 0x3E);
    section names;
    if (rd16(elf + 0x3A) != SHDR_BYTES || shoff > len || (uint64_t)shnum * SHDR_BYTES > len - shoff ||
        shstrndx >= shnum || !section_at(elf, len, shoff, shstrndx, &names))
        return true;
    for (uint32_t i = 1; i < shnum; i++) {
        section s;
        if (!section_at(elf, len, shoff, i, &s))
            return true;
        const char *name = string_at(&names, s.name);
        if (name && strncmp(name, ".text.", 6) == 0 && s.bytes)
            return true;
    }
    return false;
}

ptx_status fe_cubin_kernels(const uint8_t *elf, size_t len, bool (*fn)(void *ctx, const fe_kernel_res *r),
                            void *ctx, ptx_diag *diag)
{
    if (len < 64 || memcmp(elf, "\177ELF", 4) != 0)
        return bad(diag, "no ELF header");
    if (elf[4] != 2 || elf[5] != 1)
        return bad(diag, "not a little-endian 64-bit ELF file");
    uint64_t shoff = rd64(elf + 0x28);
    uint32_t shnum = rd16(elf + 0x3C), shstrndx = rd16(elf + 0x3E);
    if (rd16(elf + 0x3A) != SHDR_BYTES || shoff > len || (uint64_t)shnum * SHDR_BYTES > len - shoff ||
        shstrndx >= shnum)
        return bad(diag, "section headers lie outside the file");
    section names;
    if (!section_at(elf, len, shoff, shstrndx, &names))
        return bad(diag, "section name table lies outside the file");

    section info = {0};
    bool have_info = false;
    for (uint32_t i = 1; i < shnum && !have_info; i++) {
        section s;
        if (!section_at(elf, len, shoff, i, &s))
            return bad(diag, "a section lies outside the file");
        const char *name = string_at(&names, s.name);
        if (name && strcmp(name, ".nv.info") == 0) {
            info = s;
            have_info = true;
        }
    }
    if (!have_info)
        return PTX_OK;              /* no kernels with resources (or an old format): nothing to say */
    section symtab, strtab;
    if (info.link >= shnum || !section_at(elf, len, shoff, info.link, &symtab) || symtab.type != SHT_SYMTAB ||
        symtab.link >= shnum || !section_at(elf, len, shoff, symtab.link, &strtab))
        return bad(diag, ".nv.info does not name a symbol table");
    uint64_t nsyms = symtab.bytes / SYM_BYTES;
    fe_kernel_res *res = calloc(nsyms ? nsyms : 1, sizeof *res);
    if (!res)
        return ptx_error(diag, PTX_E_NOMEM, NULL, 0, 0, "out of memory reading a cubin");

    ptx_status st = PTX_OK;
    for (uint64_t at = 0; at + 4 <= info.bytes;) {
        const uint8_t *r = info.data + at;
        uint8_t format = r[0], attr = r[1];
        uint16_t v = rd16(r + 2);
        uint64_t size = format == NVI_SVAL ? v : 0;
        if (format < NVI_NVAL || format > NVI_SVAL || size > info.bytes - at - 4) {
            st = bad(diag, "an .nv.info record runs past its section");
            break;
        }
        if (format == NVI_SVAL && size >= 8) {
            uint32_t sym = rd32(r + 4), value = rd32(r + 8);
            if (sym < nsyms) {
                fe_kernel_res *k = &res[sym];
                switch (attr) {
                case NVI_REGCOUNT: k->regs = value; k->known = true; break;
                case NVI_FRAME_SIZE: k->frame_bytes = value; break;
                case NVI_MIN_STACK: k->min_stack_bytes = value; break;
                case NVI_MAX_STACK: k->max_stack_bytes = value; break;
                default: break;
                }
            }
        }
        at += 4 + size;
    }
    for (uint64_t i = 0; st == PTX_OK && i < nsyms; i++) {
        if (!res[i].known)
            continue;
        const uint8_t *sym = symtab.data + i * SYM_BYTES;
        res[i].name = string_at(&strtab, rd32(sym));
        if (!res[i].name || (sym[4] & 0xF) != STT_FUNC)
            continue;
        if (!fn(ctx, &res[i]))
            break;
    }
    free(res);
    return st;
}

/* ---- choosing the cubin ------------------------------------------------------ */

typedef struct {
    uint32_t want;
    fe_fatbin_entry best;
    bool found;
} cubin_pick;

static bool pick_cubin(void *ctx, const fe_fatbin_entry *e)
{
    cubin_pick *p = ctx;
    if (e->kind != FE_ENTRY_CUBIN)
        return true;
    if (!p->found) {
        p->best = *e;
        p->found = true;
        return true;
    }
    /* Exactly the target; else the newest below it; else the oldest above. */
    uint32_t b = p->best.sm, s = e->sm, w = p->want;
    bool better = b != w && (s == w || (s < w && (b > w || s > b)) || (s > w && b > w && s < b));
    if (better)
        p->best = *e;
    return true;
}

ptx_status fe_fatbin_cubin(const uint8_t *data, size_t len, uint32_t sm, uint8_t **out, size_t *out_len,
                           uint32_t *out_sm, ptx_diag *diag)
{
    *out = NULL;
    *out_len = 0;
    *out_sm = 0;
    cubin_pick p = { .want = sm };
    ptx_status st = fe_fatbin_walk(data, len, pick_cubin, &p, diag);
    if (st != PTX_OK || !p.found)
        return st;
    char *buf;
    st = fe_fatbin_payload(&p.best, &buf, out_len, diag);
    if (st == PTX_OK) {
        *out = (uint8_t *)buf;
        *out_sm = p.best.sm;
    }
    return st;
}
