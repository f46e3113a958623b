/*
 * value.c -- the values expressions compute: reading them from register
 * and memory bits by PTX type, their truth, and how they print (gdb's
 * formats x d u o t c f); and the C type names of casts and watchpoints.
 */
#include "dbg_int.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* ---- C types (casts and watchpoints) ------------------------------------ */

/* Type names that are one word and say everything. */
static const struct { const char *name; uint8_t type; } fixed[] = {
    { "int8_t", ISA_TYPE_S8 }, { "uint8_t", ISA_TYPE_U8 }, { "int16_t", ISA_TYPE_S16 },
    { "uint16_t", ISA_TYPE_U16 }, { "int32_t", ISA_TYPE_S32 }, { "uint32_t", ISA_TYPE_U32 },
    { "int64_t", ISA_TYPE_S64 }, { "uint64_t", ISA_TYPE_U64 }, { "size_t", ISA_TYPE_U64 },
    { "bool", ISA_TYPE_U8 }, { "float", ISA_TYPE_F32 }, { "double", ISA_TYPE_F64 },
    { "half", ISA_TYPE_F16 }, { "__half", ISA_TYPE_F16 },
};

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

bool dbg_parse_ctype(const char **pp, dbg_ctype *out)
{
    const char *p = dbg_skip(*pp);
    int is_unsigned = 0, is_signed = 0, longs = 0, shorts = 0, is_char = 0, is_int = 0;
    uint8_t type = ISA_TYPE_NONE;
    const char *start = p;
    for (;;) {
        const char *w = dbg_skip(p);
        size_t n = 0;
        while (ident_char(w[n]))
            n++;
        if (!n)
            break;
#define IS(s) (n == sizeof(s) - 1 && memcmp(w, s, n) == 0)
        if (IS("unsigned"))
            is_unsigned = 1;
        else if (IS("signed"))
            is_signed = 1;
        else if (IS("long"))
            longs++;
        else if (IS("short"))
            shorts++;
        else if (IS("char"))
            is_char = 1;
        else if (IS("int"))
            is_int = 1;
        else if (IS("const") || IS("volatile"))
            ;
        else {
            bool found = false;
            for (size_t k = 0; k < sizeof fixed / sizeof fixed[0] && !found && type == ISA_TYPE_NONE; k++)
                if (strlen(fixed[k].name) == n && memcmp(fixed[k].name, w, n) == 0) {
                    type = fixed[k].type;
                    found = true;
                }
            if (!found)
                break;
        }
#undef IS
        p = w + n;
    }
    if (type == ISA_TYPE_NONE) {
        if (!is_unsigned && !is_signed && !longs && !shorts && !is_char && !is_int)
            return false;
        if (is_char)
            type = is_unsigned ? ISA_TYPE_U8 : ISA_TYPE_S8;
        else if (shorts)
            type = is_unsigned ? ISA_TYPE_U16 : ISA_TYPE_S16;
        else if (longs)
            type = is_unsigned ? ISA_TYPE_U64 : ISA_TYPE_S64;
        else
            type = is_unsigned ? ISA_TYPE_U32 : ISA_TYPE_S32;
    }
    out->type = type;
    out->bytes = isa_types[type].bytes;
    size_t len = (size_t)(p - start);
    snprintf(out->name, sizeof out->name, "%.*s", (int)len, dbg_skip(start));
    *pp = p;
    return true;
}

/* ---- values --------------------------------------------------------------------- */

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1F, man = h & 0x3FF, bits;
    if (exp == 0x1F)
        bits = sign | 0x7F800000u | (man << 13);
    else if (exp)
        bits = sign | ((exp + 112) << 23) | (man << 13);
    else if (!man)
        bits = sign;
    else {                                  /* subnormal: normalise */
        exp = 113;
        while (!(man & 0x400)) {
            man <<= 1;
            exp--;
        }
        bits = sign | (exp << 23) | ((man & 0x3FF) << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

dbg_value dbg_value_from_bits(uint64_t bits, uint8_t type)
{
    dbg_value v = { .type = type, .space = ISA_SPACE_GENERIC };
    unsigned bytes = type < ISA_TYPE_COUNT ? isa_types[type].bytes : 8;
    if (type == ISA_TYPE_PRED || type == ISA_TYPE_NONE || bytes == 0 || bytes > 8)
        bytes = type == ISA_TYPE_PRED ? 1 : 8;
    v.bytes = (uint8_t)bytes;
    uint64_t mask = bytes == 8 ? ~0ull : (1ull << (bytes * 8)) - 1;
    bits &= mask;
    switch (type) {
    case ISA_TYPE_F32:
    case ISA_TYPE_TF32: {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, 4);
        v.kind = DBG_V_FLT;
        v.f = f;
        return v;
    }
    case ISA_TYPE_F64:
        v.kind = DBG_V_FLT;
        memcpy(&v.f, &bits, 8);
        return v;
    case ISA_TYPE_F16:
        v.kind = DBG_V_FLT;
        v.f = half_to_float((uint16_t)bits);
        return v;
    case ISA_TYPE_BF16: {
        uint32_t b = (uint32_t)bits << 16;
        float f;
        memcpy(&f, &b, 4);
        v.kind = DBG_V_FLT;
        v.f = f;
        return v;
    }
    default:
        break;
    }
    uint8_t kind = type < ISA_TYPE_COUNT ? isa_types[type].kind : ISA_KIND_U;
    /* Untyped registers up to 32 bits are read as C's int (nvcc keeps ints
     * in .b32); 64-bit ones are mostly addresses and print in hex. */
    bool is_signed = kind == ISA_KIND_S || (kind == ISA_KIND_B && bytes < 8);
    if (is_signed) {
        v.kind = DBG_V_INT;
        unsigned shift = 64 - bytes * 8;
        v.i = (int64_t)(bits << shift) >> shift;
    } else {
        v.kind = DBG_V_UINT;
        v.u = bits;
    }
    return v;
}

bool dbg_value_truth(const dbg_value *v)
{
    switch (v->kind) {
    case DBG_V_FLT: return v->f != 0;
    case DBG_V_DIM3: return true;
    default: return v->u != 0;
    }
}

/* The value's bits at its width (floats: their encoding when they came from
 * a register or memory, else the integer they convert to). */
static uint64_t raw_bits(const dbg_value *v)
{
    unsigned bytes = v->bytes ? v->bytes : 8;
    uint64_t mask = bytes >= 8 ? ~0ull : (1ull << (bytes * 8)) - 1;
    if (v->kind == DBG_V_FLT) {
        if (bytes == 4) {
            float f = (float)v->f;
            uint32_t b;
            memcpy(&b, &f, 4);
            return b;
        }
        if (bytes == 8) {
            uint64_t b;
            memcpy(&b, &v->f, 8);
            return b;
        }
        return (uint64_t)(int64_t)v->f & mask;
    }
    return v->u & mask;
}

static void format_scalar(const dbg_value *v, char fmt, char *buf, size_t n)
{
    unsigned bytes = v->bytes ? v->bytes : 8;
    uint64_t bits = raw_bits(v);
    switch (fmt) {
    case 'x': snprintf(buf, n, "0x%llx", (unsigned long long)bits); return;
    case 'o': snprintf(buf, n, "0%llo", (unsigned long long)bits); return;
    case 'u': snprintf(buf, n, "%llu", (unsigned long long)bits); return;
    case 'd': {
        unsigned shift = 64 - bytes * 8;
        snprintf(buf, n, "%lld", (long long)((int64_t)(bits << shift) >> shift));
        return;
    }
    case 't': {
        char tmp[80];
        int k = 0;
        for (int b = (int)bytes * 8 - 1; b >= 0; b--)
            if (k || (bits >> b) & 1 || b == 0)
                tmp[k++] = (char)('0' + ((bits >> b) & 1));
        tmp[k] = 0;
        snprintf(buf, n, "%s", tmp);
        return;
    }
    case 'c': {
        int c = (int)(bits & 0xFF);
        if (isprint(c))
            snprintf(buf, n, "%d '%c'", (int)(int8_t)c, c);
        else
            snprintf(buf, n, "%d '\\%03o'", (int)(int8_t)c, c);
        return;
    }
    case 'f':
        if (v->kind != DBG_V_FLT) {
            dbg_value f = dbg_value_from_bits(bits, bytes == 8 ? ISA_TYPE_F64 : ISA_TYPE_F32);
            format_scalar(&f, 0, buf, n);
            return;
        }
        break;
    default:
        break;
    }
    switch (v->kind) {
    case DBG_V_FLT:
        if (isinf(v->f))
            snprintf(buf, n, "%sinf", v->f < 0 ? "-" : "");
        else if (isnan(v->f))
            snprintf(buf, n, "nan(0x%llx)",
                     (unsigned long long)(bits & (bytes == 4 ? 0x7FFFFFull : 0xFFFFFFFFFFFFFull)));
        else    /* enough digits to read the value back: 9 for single, 17 for double */
            snprintf(buf, n, "%.*g",
                     bytes == 4 || v->type == ISA_TYPE_F16 || v->type == ISA_TYPE_BF16 ? 9 : 17, v->f);
        return;
    case DBG_V_INT:
        snprintf(buf, n, "%lld", (long long)v->i);
        return;
    default:
        if (v->type == ISA_TYPE_B64 && v->space != ISA_SPACE_GENERIC && v->space != ISA_SPACE_GLOBAL)
            dbg_mem_label(v->space, v->u, buf, n);    /* shared:0x10 and the like */
        else if (v->type == ISA_TYPE_B64 || v->type == ISA_TYPE_F16X2 || v->type == ISA_TYPE_BF16X2)
            snprintf(buf, n, "0x%llx", (unsigned long long)v->u);
        else
            snprintf(buf, n, "%llu", (unsigned long long)v->u);
        return;
    }
}

dbg_value dbg_value_from_b128(uint64_t lo, uint64_t hi)
{
    return (dbg_value){ .kind = DBG_V_UINT, .bytes = 16, .type = ISA_TYPE_B128, .space = ISA_SPACE_GENERIC,
                        .u = lo, .hi = hi };
}

dbg_value dbg_reg_value(exec_warp *w, uint32_t level, uint32_t reg, uint8_t type, unsigned lane)
{
    if (type == ISA_TYPE_PRED)
        return dbg_value_from_bits(exec_warp_pred(w, level, reg, lane), type);
    if (type == ISA_TYPE_B128)          /* two columns, low half first (isa_reg_slots) */
        return dbg_value_from_b128(exec_warp_reg(w, level, reg, lane), exec_warp_reg(w, level, reg + 1, lane));
    return dbg_value_from_bits(exec_warp_reg(w, level, reg, lane), type);
}

/* A 128-bit value: hex by default (and /x), /u and /d in decimal, /t in
 * binary; the other formats apply to C scalars, not to it. */
static void format_b128(const dbg_value *v, char fmt, char *buf, size_t n)
{
    unsigned __int128 x = (unsigned __int128)v->hi << 64 | v->u;
    if (fmt == 'u' || fmt == 'd') {
        bool neg = fmt == 'd' && (v->hi >> 63);
        unsigned __int128 m = neg ? -x : x;
        char tmp[48];
        int k = (int)sizeof tmp - 1;
        tmp[k] = 0;
        do {
            tmp[--k] = (char)('0' + (int)(m % 10));
            m /= 10;
        } while (m);
        snprintf(buf, n, "%s%s", neg ? "-" : "", tmp + k);
    } else if (fmt == 't') {
        char tmp[132];
        int k = 0;
        for (int b = 127; b >= 0; b--)
            if (k || (x >> b) & 1 || b == 0)
                tmp[k++] = (char)('0' + (int)((x >> b) & 1));
        tmp[k] = 0;
        snprintf(buf, n, "%s", tmp);
    } else if (v->hi) {
        snprintf(buf, n, "0x%llx%016llx", (unsigned long long)v->hi, (unsigned long long)v->u);
    } else {
        snprintf(buf, n, "0x%llx", (unsigned long long)v->u);
    }
}

void dbg_value_format(const dbg_value *v, char fmt, char *buf, size_t n)
{
    if (v->bytes == 16) {
        format_b128(v, fmt, buf, n);
        return;
    }
    if (v->kind == DBG_V_DIM3) {
        char c[3][40];
        for (int d = 0; d < 3; d++) {
            dbg_value x = { .kind = DBG_V_UINT, .bytes = 4, .type = ISA_TYPE_U32, .u = v->dim[d] };
            format_scalar(&x, fmt, c[d], sizeof c[d]);
        }
        snprintf(buf, n, "{x = %s, y = %s, z = %s}", c[0], c[1], c[2]);
        return;
    }
    format_scalar(v, fmt, buf, n);
}
