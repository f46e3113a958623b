/*
 * fatbin.c -- reading CUDA fat binaries.
 *
 * Layout (little-endian; see docs/fatbin.md):
 *   container header  u32 magic 0xBA55ED50, u16 version (1), u16 header size,
 *                     u64 bytes of entries that follow the header
 *   entry header      u16 kind (1 PTX, 2 cubin), u16 version, u32 header size,
 *                     u64 payload size, ... u32 ISA version at 0x18,
 *                     u32 sm at 0x1C, u32 flags at 0x28 (0x2000 LZ4,
 *                     0x8000 zstd), u64 uncompressed size at 0x38
 * Every field is untrusted: each offset and size is checked against the
 * bytes actually available before it is used.
 */
#include "frontend.h"

#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* Refuse to inflate a single entry past this; real PTX is megabytes at most. */
#define MAX_PAYLOAD (1ull << 30)

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static ptx_status bad(ptx_diag *d, size_t at, const char *what)
{
    return ptx_error(d, PTX_E_BAD_FATBIN, NULL, 0, 0,
                     "corrupt fat binary: %s at byte offset %zu", what, at);
}

ptx_status fe_fatbin_size(const uint8_t *data, size_t avail, size_t *out_size, ptx_diag *diag)
{
    if (avail < 16)
        return bad(diag, 0, "truncated container header");
    if (rd32(data) != FE_FATBIN_MAGIC)
        return bad(diag, 0, "bad magic number (not a fat binary)");
    if (rd16(data + 4) != FE_FATBIN_VERSION)
        return bad(diag, 4, "unknown container version");
    uint16_t hsize = rd16(data + 6);
    uint64_t body = rd64(data + 8);
    if (hsize < 16 || hsize > avail)
        return bad(diag, 6, "impossible header size");
    if (body > avail - hsize)
        return bad(diag, 8, "entries run past the end of the data (truncated?)");
    *out_size = hsize + (size_t)body;
    return PTX_OK;
}

ptx_status fe_fatbin_walk(const uint8_t *data, size_t len,
                          bool (*fn)(void *ctx, const fe_fatbin_entry *e), void *ctx,
                          ptx_diag *diag)
{
    size_t off = 0;
    for (;;) {
        /* Containers are 8-byte aligned and may be followed by zero padding. */
        while (off < len && data[off] == 0)
            off++;
        if (off >= len)
            break;
        size_t csize;
        ptx_status st = fe_fatbin_size(data + off, len - off, &csize, diag);
        if (st != PTX_OK)
            return st;
        size_t e = off + rd16(data + off + 6), end = off + csize;
        while (e < end) {
            if (end - e < 16)
                return bad(diag, e, "truncated entry header");
            uint32_t ehs = rd32(data + e + 4);
            uint64_t psize = rd64(data + e + 8);
            if (ehs < 16 || ehs > end - e)
                return bad(diag, e + 4, "impossible entry header size");
            if (psize > end - e - ehs)
                return bad(diag, e + 8, "entry payload runs past the container");
            fe_fatbin_entry ent = {
                .kind = rd16(data + e),
                .payload = data + e + ehs,
                .payload_bytes = psize,
            };
            if (ehs >= 0x20) {
                uint32_t v = rd32(data + e + 0x18);
                ent.ptx_version = (v >> 16) * 10 + (v & 0xFFFF);
                ent.sm = rd32(data + e + 0x1C);
            }
            if (ehs >= 0x2C)
                ent.flags = rd32(data + e + 0x28);
            if (ehs >= 0x40)
                ent.raw_bytes = rd64(data + e + 0x38);
            if (ehs >= 0x14 && (ent.flags & (FE_FATBIN_ZSTD | FE_FATBIN_LZ4))) {
                /* The stored payload is padded; the compressed length is at 0x10. */
                uint32_t csz = rd32(data + e + 0x10);
                if (csz && csz <= psize)
                    ent.payload_bytes = csz;
            }
            if (!fn(ctx, &ent))
                return PTX_OK;
            e += ehs + psize;
        }
        off = end;
    }
    return PTX_OK;
}

ptx_status fe_fatbin_payload(const fe_fatbin_entry *e, char **out, size_t *out_len, ptx_diag *diag)
{
    *out = NULL;
    *out_len = 0;
    size_t n;
    char *buf;
    if (e->flags & FE_FATBIN_ZSTD) {
        unsigned long long want = ZSTD_getFrameContentSize(e->payload, e->payload_bytes);
        if (want == ZSTD_CONTENTSIZE_ERROR)
            return bad(diag, 0, "zstd payload is not a zstd frame");
        if (want == ZSTD_CONTENTSIZE_UNKNOWN)
            want = e->raw_bytes;
        if (want == 0 || want > MAX_PAYLOAD)
            return bad(diag, 0, "implausible uncompressed size of a zstd payload");
        buf = malloc(want + 1);
        if (!buf)
            return ptx_error(diag, PTX_E_NOMEM, NULL, 0, 0, "out of memory for a PTX payload");
        size_t got = ZSTD_decompress(buf, want, e->payload, e->payload_bytes);
        if (ZSTD_isError(got)) {
            free(buf);
            return ptx_error(diag, PTX_E_BAD_FATBIN, NULL, 0, 0,
                             "corrupt fat binary: zstd payload does not decompress (%s)",
                             ZSTD_getErrorName(got));
        }
        n = got;
    } else if (e->flags & FE_FATBIN_LZ4) {
        if (e->raw_bytes == 0 || e->raw_bytes > MAX_PAYLOAD || e->payload_bytes > INT32_MAX)
            return bad(diag, 0, "implausible uncompressed size of an LZ4 payload");
        buf = malloc(e->raw_bytes + 1);
        if (!buf)
            return ptx_error(diag, PTX_E_NOMEM, NULL, 0, 0, "out of memory for a PTX payload");
        int got = LZ4_decompress_safe((const char *)e->payload, buf, (int)e->payload_bytes,
                                      (int)e->raw_bytes);
        if (got < 0) {
            free(buf);
            return bad(diag, 0, "LZ4 payload does not decompress");
        }
        n = (size_t)got;
    } else {
        n = e->payload_bytes;
        buf = malloc(n + 1);
        if (!buf)
            return ptx_error(diag, PTX_E_NOMEM, NULL, 0, 0, "out of memory for a PTX payload");
        memcpy(buf, e->payload, n);
    }
    /* PTX payloads are padded with NULs; the text ends at the first one.
     * Machine code is binary and keeps every byte. */
    buf[n] = '\0';
    *out_len = e->kind == FE_ENTRY_PTX ? strlen(buf) : n;
    *out = buf;
    return PTX_OK;
}

typedef struct {
    uint32_t want;
    fe_fatbin_entry best;
    bool found;
} ptx_pick;

static bool pick_ptx(void *ctx, const fe_fatbin_entry *e)
{
    ptx_pick *p = ctx;
    if (e->kind != FE_ENTRY_PTX)
        return true;
    /* PTX for sm_90a runs on an sm_90 device only. */
    bool specific = e->flags & FE_FATBIN_ARCH_SPECIFIC;
    if (specific && e->sm != p->want)
        return true;
    if (!p->found) {
        p->best = *e;
        p->found = true;
        return true;
    }
    /* Prefer the newest architecture that does not exceed the target --
     * of two for the same, the one with the architecture's own features,
     * which a GPU runs (nvcc -arch=sm_90a embeds compute_90 PTX as well);
     * if all exceed it, the oldest. */
    bool fits = e->sm <= p->want, best_fits = p->best.sm <= p->want;
    bool newer = e->sm > p->best.sm ||
                 (e->sm == p->best.sm && specific && !(p->best.flags & FE_FATBIN_ARCH_SPECIFIC));
    if ((fits && (!best_fits || newer)) || (!fits && !best_fits && e->sm < p->best.sm))
        p->best = *e;
    return true;
}

static bool note_oldest(void *ctx, const fe_fatbin_entry *e)
{
    uint32_t *oldest = ctx;
    if ((e->kind == FE_ENTRY_PTX || e->kind == FE_ENTRY_CUBIN) && e->sm && (!*oldest || e->sm < *oldest))
        *oldest = e->sm;
    return true;
}

uint32_t fe_fatbin_oldest_arch(const uint8_t *data, size_t len)
{
    uint32_t oldest = 0;
    return fe_fatbin_walk(data, len, note_oldest, &oldest, NULL) == PTX_OK ? oldest : 0;
}

ptx_status fe_fatbin_ptx(const uint8_t *data, size_t len, uint32_t sm, char **out_text,
                         size_t *out_len, ptx_diag *diag)
{
    ptx_pick p = { .want = sm };
    ptx_status st = fe_fatbin_walk(data, len, pick_ptx, &p, diag);
    if (st != PTX_OK)
        return st;
    if (!p.found)
        return ptx_error(diag, PTX_E_NO_PTX, NULL, 0, 0, "the fat binary holds no PTX");
    return fe_fatbin_payload(&p.best, out_text, out_len, diag);
}
