/*
 * ref_ldst.c -- the reference for ld and st (PTX ISA 9.7.9.8 ld, 9.7.9.10
 * st) and the ISA's rules for registers wider than the instruction type
 * (5.x "Operand Size Exceeding Instruction-Type Size"):
 *
 *   ld   element k of the vector is the type's size of bytes at a + k *
 *        size, little-endian.  In a wider register it is sign-extended for
 *        the signed integer types and zero-extended for every other type
 *        (bit-size, unsigned; a float register takes a narrower bit-size
 *        value zero-extended).
 *   st   element k's register is truncated to the type's size and written
 *        at a + k * size; no other byte changes.  Except st.f32 from a
 *        .b64 register: an H200 stores the register converted from an
 *        unsigned 64-bit integer to f32 (rounded to nearest), not its low
 *        32 bits (1 is stored as 0x3F800000), and that is what is wanted.
 *
 * A .b128 register is given as two 64-bit words, the low one first (the
 * order of mov.b128 d, {lo, hi}), and its 16 bytes go to memory in order.
 */
#include "refs.h"

static uint64_t mask_of(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

uint64_t ref_ld_value(uint8_t itype, uint8_t rtype, const uint8_t *mem)
{
    unsigned ib = conf_types[itype].bits, rb = conf_types[rtype].bits;
    uint64_t v = 0;
    for (unsigned i = 0; i < ib / 8; i++)
        v |= (uint64_t)mem[i] << (8 * i);
    if (conf_types[itype].kind == CK_S && ib < 64 && (v >> (ib - 1)) & 1)
        v |= ~mask_of(ib);
    return v & mask_of(rb);
}

void ref_st_bytes(uint8_t itype, uint8_t rtype, unsigned nvec, const uint64_t *regs, uint8_t *slot)
{
    unsigned size = conf_types[itype].bits / 8, words = size > 8 ? size / 8 : 1;
    bool from_u64 = itype == CT_F32 && conf_types[rtype].bits == 64;
    for (unsigned k = 0; k < nvec; k++) {
        uint64_t v[2] = { regs[k * words], words > 1 ? regs[k * words + 1] : 0 };
        if (from_u64) {
            float x = (float)v[0];          /* the host's conversion rounds to nearest */
            uint32_t b;
            memcpy(&b, &x, 4);
            v[0] = b;
        }
        for (unsigned i = 0; i < size; i++)
            slot[k * size + i] = (uint8_t)(v[i / 8] >> (8 * (i % 8)));
    }
}
