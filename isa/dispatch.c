/*
 * dispatch.c -- the semantic function of every opcode, by opcode number.
 * Generated from opcodes.def: a row without its isa_sem_<mnemonic> fails
 * to link (isa_int.h declares them all).
 */
#include "isa_int.h"

isa_sem_fn *const isa_sem_table[ISA_OP_COUNT] = {
#define PTX_OP(E, id, fam, lat, pm, fl) [ISA_OP_##E] = isa_sem_##id,
#include "opcodes.def"
#undef PTX_OP
};
