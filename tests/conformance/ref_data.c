/*
 * ref_data.c -- the reference for the data family (PTX ISA 9.7.9.1-2 mov,
 * 9.7.9.18 isspacep, 9.7.9.19 cvta):
 *
 *   mov d, a copies a.  mov d, {a, b, ...} packs: element k fills bits
 *   k * w .. k * w + w - 1 of d (the first element the least significant);
 *   mov {a, b, ...}, d unpacks the same way.  A .b128 register is two
 *   64-bit halves, the low first.
 *   cvta turns a space's address into the generic address of the same
 *   location and cvta.to back; a generic access then reaches that
 *   location.  isspacep.space a is true exactly when the generic address a
 *   lies in that space.
 */
#include "refs.h"

void ref_mov(const conf_form *f, const uint64_t *s, conf_want *w)
{
    (void)f;
    w->v[0] = s[0];
}

unsigned ref_mov_pack(uint8_t type, uint64_t v, uint64_t u, uint64_t *want)
{
    if (type == CT_B32) {
        want[0] = v & 0xFFFFFFFFu;
        want[1] = (u & 0xFFFF) << 16 | (v & 0xFFFF);
        want[2] = v & 0xFFFF;
        want[3] = (v >> 16) & 0xFFFF;
        return 4;
    }
    if (type == CT_B64) {
        want[0] = v;
        want[1] = (u & 0xFFFFFFFFu) << 32 | (v & 0xFFFFFFFFu);
        want[2] = (v & 0xFFFF) | ((v >> 16) & 0xFFFF) << 16 | (u & 0xFFFF) << 32 | ((u >> 16) & 0xFFFF) << 48;
        want[3] = v & 0xFFFFFFFFu;
        want[4] = v >> 32;
        for (unsigned k = 0; k < 3; k++)
            want[5 + k] = (u >> (16 * k)) & 0xFFFF;
        return 8;
    }
    want[0] = v, want[1] = u;                   /* .b128: {v, u} and back */
    want[2] = u, want[3] = v;                   /* a copy of {u, v} */
    return 4;
}

/* conf_xdata.c's .const array, as initialised. */
uint64_t ref_data_const(unsigned i) { return i ? 0xFEDCBA9876543210ull : 0x0123456789ABCDEFull; }

/* Spaces in the order of conf_xdata.c: global, shared, local, const.  The
 * ISA does not say whether a constant's generic address also lies in the
 * global window (constant memory is global memory on every GPU so far):
 * those two pairs are left open (2). */
unsigned ref_isspacep(unsigned form_space, unsigned addr_space)
{
    if ((form_space == 0 && addr_space == 3) || (form_space == 3 && addr_space == 0))
        return 2;
    return form_space == addr_space;
}
