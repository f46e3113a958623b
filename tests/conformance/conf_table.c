/*
 * conf_table.c -- the instruction forms under test, as the PTX ISA writes
 * their syntax, one line per syntax line of the ISA's instruction
 * descriptions (section numbers of the PTX ISA 9.x document).  {x,y}
 * picks one of its spellings, {,x} makes x optional; the generator expands
 * every combination and keeps those ptxsim accepts.
 *
 * Operands: d is the result (p|q a predicate pair), a b c e the sources in
 * order.  A result has the first type of the mnemonic and a source the
 * last one, unless a suffix says otherwise: :T1/:T2 (the first/second
 * type), :W (twice the last type's width), :pred, :imm (an immediate, the
 * form's imm), or a type name.
 */
#include "refs.h"

#define NOGEN { 0 }
#define T(fam, syn, opds, ref, ...) { fam, syn, opds, ref, __VA_ARGS__ }

#define INT_TYPES "{u16,u32,u64,s16,s32,s64}"

const conf_template conf_templates[] = {
    /* ---- 9.7.1 integer arithmetic -------------------------------------- */
    T("int", "add." INT_TYPES, "d, a, b", ref_int_add, NOGEN),
    T("int", "add.sat.s32", "d, a, b", ref_int_add, NOGEN),
    T("int", "sub." INT_TYPES, "d, a, b", ref_int_sub, NOGEN),
    T("int", "sub.sat.s32", "d, a, b", ref_int_sub, NOGEN),
    T("int", "mul.{hi,lo}." INT_TYPES, "d, a, b", ref_int_mul, NOGEN),
    T("int", "mul.wide.{u16,u32,s16,s32}", "d:W, a, b", ref_int_mul, NOGEN),
    T("int", "mad.{hi,lo}." INT_TYPES, "d, a, b, c", ref_int_mad, NOGEN),
    T("int", "mad.wide.{u16,u32,s16,s32}", "d:W, a, b, c:W", ref_int_mad, NOGEN),
    T("int", "mad.hi.sat.s32", "d, a, b, c", ref_int_mad, NOGEN),
    T("int", "mul24.{hi,lo}.{u32,s32}", "d, a, b", ref_mul24, NOGEN),
    T("int", "mad24.{hi,lo}.{u32,s32}", "d, a, b, c", ref_mad24, NOGEN),
    T("int", "mad24.hi.sat.s32", "d, a, b, c", ref_mad24, NOGEN),
    T("int", "sad." INT_TYPES, "d, a, b, c", ref_sad, NOGEN),
    T("int", "div." INT_TYPES, "d, a, b", ref_int_div, NOGEN),
    T("int", "rem." INT_TYPES, "d, a, b", ref_int_rem, NOGEN),
    T("int", "abs.{s16,s32,s64}", "d, a", ref_int_abs, NOGEN),
    T("int", "neg.{s16,s32,s64}", "d, a", ref_int_neg, NOGEN),
    T("int", "min." INT_TYPES, "d, a, b", ref_int_min, NOGEN),
    T("int", "min.relu.s32", "d, a, b", ref_int_min, NOGEN),
    T("int", "max." INT_TYPES, "d, a, b", ref_int_max, NOGEN),
    T("int", "max.relu.s32", "d, a, b", ref_int_max, NOGEN),
    /* ---- 9.7.2 extended precision ------------------------------------- */
    T("int", "add.cc.{u32,s32,u64,s64}", "d, a, b", ref_int_add, NOGEN),
    T("int", "addc{,.cc}.{u32,s32,u64,s64}", "d, a, b", ref_addc, NOGEN),
    T("int", "sub.cc.{u32,s32,u64,s64}", "d, a, b", ref_int_sub, NOGEN),
    T("int", "subc{,.cc}.{u32,s32,u64,s64}", "d, a, b", ref_subc, NOGEN),
    T("int", "mad{.hi,.lo}.cc.{u32,s32,u64,s64}", "d, a, b, c", ref_int_mad, NOGEN),
    T("int", "madc{.hi,.lo}{,.cc}.{u32,s32,u64,s64}", "d, a, b, c", ref_int_mad, NOGEN),
    /* ---- 9.7.1.23-24 dot products --------------------------------------- */
    T("int", "dp4a.{u32,s32}.{u32,s32}", "d, a:T1, b:T2, c:b32", ref_dp4a, NOGEN),
    T("int", "dp2a.{lo,hi}.{u32,s32}.{u32,s32}", "d, a:T1, b:T2, c:b32", ref_dp2a, NOGEN),

    /* ---- 9.7.1 bit counting and fields, 9.7.7 logic and shifts, 9.7.9 prmt */
    T("bits", "popc.{b32,b64}", "d:u32, a", ref_popc, NOGEN),
    T("bits", "clz.{b32,b64}", "d:u32, a", ref_clz, NOGEN),
    T("bits", "bfind{,.shiftamt}.{u32,u64,s32,s64}", "d:u32, a", ref_bfind, NOGEN),
    T("bits", "brev.{b32,b64}", "d, a", ref_brev, NOGEN),
    T("bits", "bfe.{u32,u64,s32,s64}", "d, a, b:u32, c:u32", ref_bfe, { 0, CG_BYTE, CG_BYTE }),
    T("bits", "bfi.{b32,b64}", "d, a, b, c:u32, e:u32", ref_bfi, { 0, 0, CG_BYTE, CG_BYTE }),
    T("bits", "szext.{clamp,wrap}.{u32,s32}", "d, a, b:u32", ref_szext, { 0, CG_SHIFT }),
    T("bits", "prmt.b32{,.f4e,.b4e,.rc8,.ecl,.ecr,.rc16}", "d, a, b, c", ref_prmt, { 0, 0, CG_PRMT }),
    T("bits", "and.{pred,b16,b32,b64}", "d, a, b", ref_and, NOGEN),
    T("bits", "or.{pred,b16,b32,b64}", "d, a, b", ref_or, NOGEN),
    T("bits", "xor.{pred,b16,b32,b64}", "d, a, b", ref_xor, NOGEN),
    T("bits", "not.{pred,b16,b32,b64}", "d, a", ref_not, NOGEN),
    T("bits", "cnot.{b16,b32,b64}", "d, a", ref_cnot, NOGEN),
    T("bits", "lop3.b32", "d, a, b, c, i:imm", ref_lop3, NOGEN, 256),
    T("bits", "shl.{b16,b32,b64}", "d, a, b:u32", ref_shl, { 0, CG_SHIFT }),
    T("bits", "shr.{b16,b32,b64,u16,u32,u64,s16,s32,s64}", "d, a, b:u32", ref_shr, { 0, CG_SHIFT }),
    T("bits", "shf.{l,r}.{clamp,wrap}.b32", "d, a, b, c:u32", ref_shf, { 0, 0, CG_SHIFT }),
};

const size_t conf_ntemplates = sizeof conf_templates / sizeof conf_templates[0];
