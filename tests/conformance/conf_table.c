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
 * form's imm), or a type name.  A source written c? is there only when
 * the form has a BoolOp (setp, set).
 */
#include "refs.h"

#define NOGEN { 0 }
#define T(fam, syn, opds, ref, ...) { fam, syn, opds, ref, __VA_ARGS__ }
/* A whole-warp family's line: its runner builds the operands itself. */
#define X(fam, syn, run) { fam, syn, "", NULL, NOGEN, 0, run }

#define INT_TYPES "{u16,u32,u64,s16,s32,s64}"
#define ALL_TYPES "{b16,b32,b64,u16,u32,u64,s16,s32,s64,f32,f64}"
/* Comparison operators by operand kind (ISA tables of the comparison
 * operators): bit-size types compare for equality only, unsigned types
 * also with lo ls hi hs, floats with the ordered and unordered operators. */
#define CMP_B "{eq,ne}"
#define CMP_U "{eq,ne,lt,le,gt,ge,lo,ls,hi,hs}"
#define CMP_S "{eq,ne,lt,le,gt,ge}"
#define CMP_F "{eq,ne,lt,le,gt,ge,equ,neu,ltu,leu,gtu,geu,num,nan}"
#define BOOL "{and,or,xor}"
#define BOOL_OPT "{,.and,.or,.xor}"
#define INT8 "{u8,u16,u32,u64,s8,s16,s32,s64}"
#define FRND "{rn,rz,rm,rp}"
#define IRND "{rni,rzi,rmi,rpi}"
/* atom{.sem}{.scope}{.space} and red{.sem}{.scope}{.space}. */
#define SCOPE_OPT "{,.cta,.cluster,.gpu,.sys}"
#define ATOM_SPACE "{,.global,.shared,.shared::cta,.shared::cluster}"
#define ATOM_PRE "{,.relaxed,.acquire,.release,.acq_rel}" SCOPE_OPT ATOM_SPACE
#define RED_PRE "{,.relaxed,.release}" SCOPE_OPT ATOM_SPACE
#define MB_SPACE "{,.shared,.shared::cta}"
#define WM_SHAPES "{m16n16k16,m32n8k16,m8n32k16}"
#define WM_SPACE "{,.global,.shared}"
#define VATOM_PRE "{,.relaxed,.acquire,.release,.acq_rel}{,.cta,.gpu,.sys}{,.global}"
#define VRED_PRE "{,.relaxed,.release}{,.cta,.gpu,.sys}{,.global}"
/* ld/st: spaces, those .volatile .relaxed .acquire .release allow, vectors. */
#define LD_SPACE "{,.global,.shared,.shared::cta,.local}"
#define SYNC_SPACE "{,.global,.shared,.shared::cta}"
#define VEC "{,.v2,.v4}"
#define LDST_TYPES ".{b8,b16,b32,b64,u8,u16,u32,u64,s8,s16,s32,s64,f32,f64}"

const conf_template conf_templates[] = {
    /* ---- 9.7.1 integer arithmetic -------------------------------------- */
    T("int", "add." INT_TYPES, "d, a, b", ref_int_add, NOGEN),
    T("int", "add.sat.s32", "d, a, b", ref_int_add, NOGEN),
    T("int", "sub." INT_TYPES, "d, a, b", ref_int_sub, NOGEN),
    T("int", "sub.sat.s32", "d, a, b", ref_int_sub, NOGEN),
    T("int", "add.{u16x2,s16x2}", "d, a, b", ref_int_add, NOGEN),
    T("int", "sub.{u16x2,s16x2}", "d, a, b", ref_int_sub, NOGEN),
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
    T("int", "min{,.relu}.s16x2", "d, a, b", ref_int_min, NOGEN),
    T("int", "min.u16x2", "d, a, b", ref_int_min, NOGEN),
    T("int", "max{,.relu}.s16x2", "d, a, b", ref_int_max, NOGEN),
    T("int", "max.u16x2", "d, a, b", ref_int_max, NOGEN),
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
    T("bits", "bmsk.{clamp,wrap}.b32", "d, a, b", ref_bmsk, { CG_SHIFT, CG_SHIFT }),
    T("bits", "fns.b32", "d, a, b:u32, c:s32", ref_fns, { 0, CG_SHIFT, CG_SHIFT }),
    T("bits", "prmt.b32{,.f4e,.b4e,.rc8,.ecl,.ecr,.rc16}", "d, a, b, c", ref_prmt, { 0, 0, CG_PRMT }),
    T("bits", "and.{pred,b16,b32,b64}", "d, a, b", ref_and, NOGEN),
    T("bits", "or.{pred,b16,b32,b64}", "d, a, b", ref_or, NOGEN),
    T("bits", "xor.{pred,b16,b32,b64}", "d, a, b", ref_xor, NOGEN),
    T("bits", "not.{pred,b16,b32,b64}", "d, a", ref_not, NOGEN),
    T("bits", "cnot.{b16,b32,b64}", "d, a", ref_cnot, NOGEN),
    T("bits", "lop3.b32", "d, a, b, c, i:imm", ref_lop3, NOGEN, 256),
    T("bits", "lop3.{or,and}.b32", "d|p, a, b, c, i:imm, e:pred", ref_lop3, NOGEN, 256),
    T("bits", "shl.{b16,b32,b64}", "d, a, b:u32", ref_shl, { 0, CG_SHIFT }),
    T("bits", "shr.{b16,b32,b64,u16,u32,u64,s16,s32,s64}", "d, a, b:u32", ref_shr, { 0, CG_SHIFT }),
    T("bits", "shf.{l,r}.{clamp,wrap}.b32", "d, a, b, c:u32", ref_shf, { 0, 0, CG_SHIFT }),

    /* ---- 9.7.3 comparison and selection (and 9.7.4's half setp/set) ------ */
    T("cmp", "setp." CMP_B ".{b16,b32,b64}", "p|q, a, b", ref_setp, NOGEN),
    T("cmp", "setp." CMP_U ".{u16,u32,u64}", "p|q, a, b", ref_setp, NOGEN),
    T("cmp", "setp." CMP_S ".{s16,s32,s64}", "p|q, a, b", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F "{,.ftz}.f32", "p|q, a, b", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F ".f64", "p|q, a, b", ref_setp, NOGEN),
    T("cmp", "setp." CMP_B "." BOOL ".{b16,b32,b64}", "p|q, a, b, c:pred", ref_setp, NOGEN),
    T("cmp", "setp." CMP_U "." BOOL ".{u16,u32,u64}", "p|q, a, b, c:pred", ref_setp, NOGEN),
    T("cmp", "setp." CMP_S "." BOOL ".{s16,s32,s64}", "p|q, a, b, c:pred", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F "." BOOL "{,.ftz}.f32", "p|q, a, b, c:pred", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F "." BOOL ".f64", "p|q, a, b, c:pred", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F "{,.ftz}.f16", "p, a, b", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F "." BOOL "{,.ftz}.f16", "p, a, b, c:pred", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F "{,.ftz}.f16x2", "p|q, a, b", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F "." BOOL "{,.ftz}.f16x2", "p|q, a, b, c:pred", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F ".bf16", "p, a, b", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F "." BOOL ".bf16", "p, a, b, c:pred", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F ".bf16x2", "p|q, a, b", ref_setp, NOGEN),
    T("cmp", "setp." CMP_F "." BOOL ".bf16x2", "p|q, a, b, c:pred", ref_setp, NOGEN),
    T("cmp", "set." CMP_B BOOL_OPT ".{u32,s32,f32}.{b16,b32,b64}", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_U BOOL_OPT ".{u32,s32,f32}.{u16,u32,u64}", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_S BOOL_OPT ".{u32,s32,f32}.{s16,s32,s64}", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_F BOOL_OPT "{,.ftz}.{u32,s32,f32}.f32", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_F BOOL_OPT ".{u32,s32,f32}.f64", "d, a, b, c?:pred", ref_set, NOGEN),
    /* 9.7.7.1: half-precision results of any source type, and the half
     * sources into integer results (CmpOp without lo ls hi hs). */
    T("cmp", "set." CMP_B BOOL_OPT ".{f16,bf16}.{b16,b32,b64}", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_S BOOL_OPT ".{f16,bf16}.{u16,u32,u64,s16,s32,s64}", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_F BOOL_OPT "{,.ftz}.f16.f32", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_F BOOL_OPT ".bf16.f32", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_F BOOL_OPT ".{f16,bf16}.f64", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_F BOOL_OPT "{,.ftz}.{u16,s16,u32,s32,f16}.f16", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_F BOOL_OPT "{,.ftz}.{f16x2,u32,s32}.f16x2", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_F BOOL_OPT ".{u16,s16,u32,s32,bf16}.bf16", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "set." CMP_F BOOL_OPT ".{bf16x2,u32,s32}.bf16x2", "d, a, b, c?:pred", ref_set, NOGEN),
    T("cmp", "selp." ALL_TYPES, "d, a, b, c:pred", ref_selp, NOGEN),
    T("cmp", "slct." ALL_TYPES ".s32", "d, a:T1, b:T1, c", ref_slct, NOGEN),
    T("cmp", "slct{,.ftz}." ALL_TYPES ".f32", "d, a:T1, b:T1, c", ref_slct, NOGEN),

    /* ---- 9.7.9.21 cvt, by kind of conversion: a rounding modifier is
     * required where the ISA requires one (float to integer: an integer
     * rounding; integer to float and narrowing float to float: a float
     * rounding; same-size float to float: an integer rounding or none) and
     * .ftz appears where an .f32 is involved. */
    T("cvt", "cvt{,.sat}." INT8 "." INT8, "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt." IRND "{,.ftz}{,.sat}." INT8 ".f32", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt." IRND "{,.sat}." INT8 ".{f16,bf16,f64}", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt." FRND "{,.ftz}{,.sat}.f32." INT8, "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt." FRND "{,.sat}.{f16,bf16,f64}." INT8, "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt." FRND "{,.ftz}{,.sat}.f32.f64", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt." FRND "{,.ftz}{,.sat}.{f16,bf16}.f32", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt." FRND "{,.sat}.{f16,bf16}.f64", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt." FRND "{,.sat}.f16.bf16", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt." FRND "{,.sat}.bf16.f16", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt.{rn,rz}{.relu,.satfinite,.relu.satfinite}.{f16,bf16}.f32", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt{,.ftz}{,.sat}.f64.f32", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt{,.ftz}{,.sat}.f32.{f16,bf16}", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt{,.sat}.f64.{f16,bf16}", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt{,.rni,.rzi,.rmi,.rpi}{,.ftz}{,.sat}.f32.f32", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt{,.rni,.rzi,.rmi,.rpi}{,.sat}.f64.f64", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt{,.rni,.rzi,.rmi,.rpi}{,.sat}.f16.f16", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt{,.rni,.rzi,.rmi,.rpi}{,.sat}.bf16.bf16", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt.{rn,rz}{,.relu}{,.satfinite}.{f16x2,bf16x2}.f32", "d, a, b", ref_cvt, NOGEN),
    /* .rs (PTX ISA 8.7): c is rbits.  Left out: the x4 forms to e4m3/e5m2
     * (d, {a, b, e, f}, rbits), whose random bits the ISA lays out only in
     * a figure; ptxsim refuses them (sem_conv.c). */
    T("cvt", "cvt.rs{,.relu}{,.satfinite}.{f16x2,bf16x2}.f32", "d, a, b, c:b32", ref_cvt_rs, NOGEN),
    T("cvt", "cvt.rna{,.satfinite}.tf32.f32", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt.{rn,rz}{,.satfinite}{,.relu}.tf32.f32", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt.rn.satfinite{,.relu}.{e4m3x2,e5m2x2}.f32", "d, a, b", ref_cvt, NOGEN),
    T("cvt", "cvt.rn.satfinite{,.relu}.{e4m3x2,e5m2x2}.f16x2", "d, a", ref_cvt, NOGEN),
    T("cvt", "cvt.rn{,.relu}.f16x2.{e4m3x2,e5m2x2}", "d, a", ref_cvt, NOGEN),
    /* 9.7.9.22 cvt.pack */
    T("cvt", "cvt.pack.sat.{u16,s16}.s32", "d:b32, a, b", ref_cvt_pack, NOGEN),
    T("cvt", "cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32", "d:b32, a:s32, b:s32, c", ref_cvt_pack, NOGEN),

    /* ---- 9.7.3 floating point, f32 and f64 ------------------------------ */
    T("float", "add{,.rn,.rz,.rm,.rp}{,.ftz}{,.sat}.f32", "d, a, b", ref_fadd, NOGEN),
    T("float", "add{,.rn,.rz,.rm,.rp}.f64", "d, a, b", ref_fadd, NOGEN),
    /* .f32x2 (PTX ISA 8.6, sm_100): two f32 lanes in a .b64; no .sat. */
    T("float", "add{,.rn,.rz,.rm,.rp}{,.ftz}.f32x2", "d, a, b", ref_fadd2, NOGEN),
    T("float", "sub{,.rn,.rz,.rm,.rp}{,.ftz}.f32x2", "d, a, b", ref_fsub2, NOGEN),
    T("float", "mul{,.rn,.rz,.rm,.rp}{,.ftz}.f32x2", "d, a, b", ref_fmul2, NOGEN),
    T("float", "fma." FRND "{,.ftz}.f32x2", "d, a, b, c", ref_ffma2, NOGEN),
    T("float", "sub{,.rn,.rz,.rm,.rp}{,.ftz}{,.sat}.f32", "d, a, b", ref_fsub, NOGEN),
    T("float", "sub{,.rn,.rz,.rm,.rp}.f64", "d, a, b", ref_fsub, NOGEN),
    T("float", "mul{,.rn,.rz,.rm,.rp}{,.ftz}{,.sat}.f32", "d, a, b", ref_fmul, NOGEN),
    T("float", "mul{,.rn,.rz,.rm,.rp}.f64", "d, a, b", ref_fmul, NOGEN),
    T("float", "fma." FRND "{,.ftz}{,.sat}.f32", "d, a, b, c", ref_ffma, NOGEN),
    T("float", "fma." FRND ".f64", "d, a, b, c", ref_ffma, NOGEN),
    T("float", "mad." FRND "{,.ftz}{,.sat}.f32", "d, a, b, c", ref_ffma, NOGEN),
    T("float", "mad." FRND ".f64", "d, a, b, c", ref_ffma, NOGEN),
    T("float", "div.{approx,full}{,.ftz}.f32", "d, a, b", ref_fdiv, NOGEN),
    T("float", "div." FRND "{,.ftz}.f32", "d, a, b", ref_fdiv, NOGEN),
    T("float", "div." FRND ".f64", "d, a, b", ref_fdiv, NOGEN),
    T("float", "rcp.approx{,.ftz}.f32", "d, a", ref_rcp, NOGEN),
    T("float", "rcp." FRND "{,.ftz}.f32", "d, a", ref_rcp, NOGEN),
    T("float", "rcp." FRND ".f64", "d, a", ref_rcp, NOGEN),
    T("float", "rcp.approx.ftz.f64", "d, a", ref_rcp, NOGEN),
    T("float", "sqrt.approx{,.ftz}.f32", "d, a", ref_sqrt, NOGEN),
    T("float", "sqrt." FRND "{,.ftz}.f32", "d, a", ref_sqrt, NOGEN),
    T("float", "sqrt." FRND ".f64", "d, a", ref_sqrt, NOGEN),
    T("float", "rsqrt.approx{,.ftz}.f32", "d, a", ref_rsqrt, NOGEN),
    T("float", "rsqrt.approx{,.ftz}.f64", "d, a", ref_rsqrt, NOGEN),
    T("float", "sin.approx{,.ftz}.f32", "d, a", ref_sin, NOGEN),
    T("float", "cos.approx{,.ftz}.f32", "d, a", ref_cos, NOGEN),
    T("float", "lg2.approx{,.ftz}.f32", "d, a", ref_lg2, NOGEN),
    T("float", "ex2.approx{,.ftz}.f32", "d, a", ref_ex2, NOGEN),
    T("float", "tanh.approx.f32", "d, a", ref_tanh, NOGEN),
    T("float", "abs{,.ftz}.f32", "d, a", ref_fabs, NOGEN),
    T("float", "abs.f64", "d, a", ref_fabs, NOGEN),
    T("float", "neg{,.ftz}.f32", "d, a", ref_fneg, NOGEN),
    T("float", "neg.f64", "d, a", ref_fneg, NOGEN),
    T("float", "min{,.ftz}{,.NaN}{,.xorsign.abs}.f32", "d, a, b", ref_fmin, NOGEN),
    T("float", "min.f64", "d, a, b", ref_fmin, NOGEN),
    T("float", "min{,.ftz}{,.NaN}{,.abs}.f32", "d, a, b, c", ref_fmin, NOGEN),
    T("float", "max{,.ftz}{,.NaN}{,.xorsign.abs}.f32", "d, a, b", ref_fmax, NOGEN),
    T("float", "max.f64", "d, a, b", ref_fmax, NOGEN),
    T("float", "max{,.ftz}{,.NaN}{,.abs}.f32", "d, a, b, c", ref_fmax, NOGEN),
    T("float", "copysign.{f32,f64}", "d, a, b", ref_copysign, NOGEN),
    T("float", "testp.{finite,infinite,number,notanumber,normal,subnormal}.{f32,f64}", "p, a", ref_testp,
      NOGEN),

    /* ---- 9.7.4 half precision ---------------------------------------------- */
    T("half", "add{,.rn}{,.ftz}{,.sat}.{f16,f16x2}", "d, a, b", ref_hadd, NOGEN),
    T("half", "add{,.rn}.{bf16,bf16x2}", "d, a, b", ref_hadd, NOGEN),
    T("half", "sub{,.rn}{,.ftz}{,.sat}.{f16,f16x2}", "d, a, b", ref_hsub, NOGEN),
    T("half", "sub{,.rn}.{bf16,bf16x2}", "d, a, b", ref_hsub, NOGEN),
    T("half", "mul{,.rn}{,.ftz}{,.sat}.{f16,f16x2}", "d, a, b", ref_hmul, NOGEN),
    T("half", "mul{,.rn}.{bf16,bf16x2}", "d, a, b", ref_hmul, NOGEN),
    T("half", "fma.rn{,.ftz}{,.sat}.{f16,f16x2}", "d, a, b, c", ref_hfma, NOGEN),
    T("half", "fma.rn{,.ftz}.relu.{f16,f16x2}", "d, a, b, c", ref_hfma, NOGEN),
    T("half", "fma.rn{,.relu}.{bf16,bf16x2}", "d, a, b, c", ref_hfma, NOGEN),
    /* .oob: checked where no operand is a NaN (the OOB-NaN's bits are not
     * in the ISA; sem_test.c pins ptxsim's). */
    T("half", "fma.rn.oob{,.relu}.{f16,f16x2,bf16,bf16x2}", "d, a, b, c", ref_hfma_oob, NOGEN),
    T("half", "neg{,.ftz}.{f16,f16x2}", "d, a", ref_hneg, NOGEN),
    T("half", "neg.{bf16,bf16x2}", "d, a", ref_hneg, NOGEN),
    T("half", "abs{,.ftz}.{f16,f16x2}", "d, a", ref_habs, NOGEN),
    T("half", "abs.{bf16,bf16x2}", "d, a", ref_habs, NOGEN),
    T("half", "min{,.ftz}{,.NaN}{,.xorsign.abs}.{f16,f16x2}", "d, a, b", ref_hmin, NOGEN),
    T("half", "min{,.NaN}{,.xorsign.abs}.{bf16,bf16x2}", "d, a, b", ref_hmin, NOGEN),
    T("half", "max{,.ftz}{,.NaN}{,.xorsign.abs}.{f16,f16x2}", "d, a, b", ref_hmax, NOGEN),
    T("half", "max{,.NaN}{,.xorsign.abs}.{bf16,bf16x2}", "d, a, b", ref_hmax, NOGEN),
    T("half", "ex2.approx.{f16,f16x2}", "d, a", ref_hex2, NOGEN),
    T("half", "ex2.approx.ftz.{bf16,bf16x2}", "d, a", ref_hex2, NOGEN),
    T("half", "tanh.approx.{f16,f16x2,bf16,bf16x2}", "d, a", ref_htanh, NOGEN),
    /* ---- 9.7.5 mixed precision: an f32 result from half inputs --------- */
    T("half", "add{,.rn,.rz,.rm,.rp}{,.sat}.f32.{f16,bf16}", "d, a:T2, c:f32", ref_mixed, NOGEN),
    T("half", "sub{,.rn,.rz,.rm,.rp}{,.sat}.f32.{f16,bf16}", "d, a:T2, c:f32", ref_mixed, NOGEN),
    T("half", "fma." FRND "{,.sat}.f32.{f16,bf16}", "d, a:T2, b:T2, c:f32", ref_mixed, NOGEN),

    /* ---- 9.7.9.6 shfl, 9.7.13.8-11 activemask vote match redux: whole
     * warps, some lanes exited, branched away or predicated off ----------- */
    X("warp", "shfl.sync.{up,down,bfly,idx}.b32", conf_xrun_warp),
    X("warp", "shfl.{up,down,bfly,idx}.b32", conf_xrun_warp),
    X("warp", "vote.sync.{all,any,uni}.pred", conf_xrun_warp),
    X("warp", "vote.sync.ballot.b32", conf_xrun_warp),
    X("warp", "vote.{all,any,uni}.pred", conf_xrun_warp),
    X("warp", "vote.ballot.b32", conf_xrun_warp),
    X("warp", "match.{any,all}.sync.{b32,b64}", conf_xrun_warp),
    X("warp", "redux.sync.{add,min,max}.{u32,s32}", conf_xrun_warp),
    X("warp", "redux.sync.{and,or,xor}.b32", conf_xrun_warp),
    X("warp", "redux.sync.{min,max}{,.abs}{,.NaN}.f32", conf_xrun_warp),
    X("warp", "activemask.b32", conf_xrun_warp),

    /* ---- 9.7.13.5 atom and 9.7.13.6 red, scalar types: the ISA's syntax
     * lines with the operation/type pairs its description allows (bit-size
     * operations on .b32/.b64, cas also .b16, cas and exch also .b128; add
     * on .u32 .s32 .u64 .f32 .f64 and, with .noftz, the half types;
     * inc/dec on .u32; min/max on the 32- and 64-bit integers). ---- */
    X("atom", "atom" ATOM_PRE ".{and,or,xor,exch}.{b32,b64}", conf_xrun_atom),
    X("atom", "atom" ATOM_PRE ".cas.{b16,b32,b64}", conf_xrun_atom),
    X("atom", "atom" ATOM_PRE ".add.{u32,s32,u64,f32,f64}", conf_xrun_atom),
    X("atom", "atom" ATOM_PRE ".{inc,dec}.u32", conf_xrun_atom),
    X("atom", "atom" ATOM_PRE ".{min,max}.{u32,s32,u64,s64}", conf_xrun_atom),
    X("atom", "atom" ATOM_PRE ".add.noftz.{f16,f16x2,bf16,bf16x2}", conf_xrun_atom),
    X("atom", "red" RED_PRE ".{and,or,xor}.{b32,b64}", conf_xrun_atom),
    X("atom", "red" RED_PRE ".add.{u32,s32,u64,f32,f64}", conf_xrun_atom),
    X("atom", "red" RED_PRE ".{inc,dec}.u32", conf_xrun_atom),
    X("atom", "red" RED_PRE ".{min,max}.{u32,s32,u64,s64}", conf_xrun_atom),
    X("atom", "red" RED_PRE ".add.noftz.{f16,f16x2,bf16,bf16x2}", conf_xrun_atom),
    X("atom", "atom" ATOM_PRE ".{cas,exch}.b128", conf_xrun_atom),
    /* The vector lines (PTX ISA 8.1, sm_90): .global only, scopes .cta
     * .gpu .sys; .f32 add on .v2/.v4, the half types' add/min/max with
     * .noftz on .v2-.v8 (16-bit) and .v2/.v4 (pairs). */
    X("atom", "atom" VATOM_PRE ".add.{v2,v4}.f32", conf_xrun_atom),
    X("atom", "atom" VATOM_PRE ".{add,min,max}.noftz.{v2,v4,v8}.{f16,bf16}", conf_xrun_atom),
    X("atom", "atom" VATOM_PRE ".{add,min,max}.noftz.{v2,v4}.{f16x2,bf16x2}", conf_xrun_atom),
    X("atom", "red" VRED_PRE ".add.{v2,v4}.f32", conf_xrun_atom),
    X("atom", "red" VRED_PRE ".{add,min,max}.noftz.{v2,v4,v8}.{f16,bf16}", conf_xrun_atom),
    X("atom", "red" VRED_PRE ".{add,min,max}.noftz.{v2,v4}.{f16x2,bf16x2}", conf_xrun_atom),

    /* ---- 9.7.9.8 ld and 9.7.9.10 st: the syntax lines' state spaces,
     * qualifiers and vector widths (.v8 and .v4 of 64-bit types are
     * sm_100's, on global memory), and .b128 (PTX ISA 8.3) as a scalar.
     * Left out: vectors of .b128 (not PTX: ptxas refuses them, "Vector
     * type too large, exceeds 128 bit limit"), .const and .param (not
     * writable by a kernel), the eviction-priority, cache-hint and
     * prefetch qualifiers (hints). ---- */
    X("ldst", "ld{,.weak}" LD_SPACE VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "ld" LD_SPACE "{.ca,.cg,.cs,.lu,.cv}" VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "ld.volatile" SYNC_SPACE VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "ld.{relaxed,acquire}.{cta,cluster,gpu,sys}" SYNC_SPACE VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "ld{,.global}.v8.{b32,u32,s32,f32}", conf_xrun_ldst),
    X("ldst", "st{,.weak}" LD_SPACE VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "st" LD_SPACE "{.wb,.cg,.cs,.wt}" VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "st.volatile" SYNC_SPACE VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "st.{relaxed,release}.{cta,cluster,gpu,sys}" SYNC_SPACE VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "st{,.global}.v8.{b32,u32,s32,f32}", conf_xrun_ldst),
    X("ldst", "ld.global{,.ca,.cg,.cs}.nc" VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "ld.global{,.ca,.cg,.cs}.nc.b128", conf_xrun_ldst),
    X("ldst", "ld.global.nc.v8.{b32,u32,s32,f32}", conf_xrun_ldst),
    X("ldst", "ldu{,.global}" VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "ldu{,.global}.b128", conf_xrun_ldst),
    X("ldst", "ld{,.weak}" LD_SPACE "{,.ca,.cg,.cs,.lu,.cv}.b128", conf_xrun_ldst),
    X("ldst", "ld.volatile" SYNC_SPACE ".b128", conf_xrun_ldst),
    X("ldst", "ld.{relaxed,acquire}.{cta,cluster,gpu,sys}" SYNC_SPACE ".b128", conf_xrun_ldst),
    X("ldst", "st{,.weak}" LD_SPACE "{,.wb,.cg,.cs,.wt}.b128", conf_xrun_ldst),
    X("ldst", "st.volatile" SYNC_SPACE ".b128", conf_xrun_ldst),
    X("ldst", "st.{relaxed,release}.{cta,cluster,gpu,sys}" SYNC_SPACE ".b128", conf_xrun_ldst),
    /* .shared::cluster (PTX ISA 7.8) at the CTA's own shared memory, which
     * is part of the cluster's window (the cluster family reaches the other
     * CTAs'). */
    X("ldst", "ld{,.weak,.volatile}.shared::cluster" VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "ld.{relaxed,acquire}.{cta,cluster,gpu,sys}.shared::cluster" VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "ld{,.weak,.volatile}.shared::cluster.b128", conf_xrun_ldst),
    X("ldst", "st{,.weak,.volatile}.shared::cluster" VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "st.{relaxed,release}.{cta,cluster,gpu,sys}.shared::cluster" VEC LDST_TYPES, conf_xrun_ldst),
    X("ldst", "st{,.weak,.volatile}.shared::cluster.b128", conf_xrun_ldst),

    /* ---- 9.7.13.1 bar and barrier: blocks of four warps; .sync with the
     * whole block, with thread counts, and (without .aligned) from
     * diverged lanes; .arrive as producers; .red over a block or a group. */
    X("bar", "bar{,.cta}.sync", conf_xrun_bar),
    X("bar", "barrier{,.cta}{,.aligned}.sync", conf_xrun_bar),
    X("bar", "bar{,.cta}.arrive", conf_xrun_bar),
    X("bar", "barrier{,.cta}{,.aligned}.arrive", conf_xrun_bar),
    X("bar", "bar{,.cta}.red.popc.u32", conf_xrun_bar),
    X("bar", "barrier{,.cta}{,.aligned}.red.popc.u32", conf_xrun_bar),
    X("bar", "bar{,.cta}.red.{and,or}.pred", conf_xrun_bar),
    X("bar", "barrier{,.cta}{,.aligned}.red.{and,or}.pred", conf_xrun_bar),

    /* ---- 9.7.12 control flow: diverging lanes, each checked against the
     * values it computes alone, and the active mask where paths join. -- */
    X("ctrl", "bra{,.uni}", conf_xrun_ctrl),
    X("ctrl", "brx.idx{,.uni}", conf_xrun_ctrl),
    X("ctrl", "call{,.uni}", conf_xrun_ctrl),
    X("ctrl", "ret{,.uni}", conf_xrun_ctrl),
    X("ctrl", "exit", conf_xrun_ctrl),
    X("ctrl", "nanosleep.u32", conf_xrun_ctrl),
    X("ctrl", "elect.sync", conf_xrun_ctrl),
    /* last: on a GPU a trap (or brkpt) leaves the process no usable context */
    X("ctrl", "brkpt", conf_xrun_ctrl),
    X("ctrl", "trap", conf_xrun_ctrl),

    /* ---- 9.7.13.15 mbarrier: a block's threads exchange values through
     * two phases of one barrier; .sem/.scope as the syntax lines give
     * them.  Left out: pending_count (the state is opaque; the ISA gives
     * no value to compare with), the shared::cluster forms (clusters). -- */
    X("mbar", "mbarrier.init" MB_SPACE ".b64", conf_xrun_mbar),
    X("mbar", "mbarrier.inval" MB_SPACE ".b64", conf_xrun_mbar),
    X("mbar", "mbarrier.{arrive,arrive_drop}{,.release}{,.cta,.cluster}" MB_SPACE ".b64", conf_xrun_mbar),
    X("mbar", "mbarrier.{arrive,arrive_drop}.expect_tx{,.release}{,.cta,.cluster}" MB_SPACE ".b64", conf_xrun_mbar),
    X("mbar", "mbarrier.{arrive,arrive_drop}.noComplete{,.release}{,.cta}" MB_SPACE ".b64", conf_xrun_mbar),
    X("mbar", "mbarrier.{expect_tx,complete_tx}{,.relaxed}{,.cta,.cluster}" MB_SPACE ".b64", conf_xrun_mbar),
    X("mbar", "mbarrier.{test_wait,try_wait}{,.parity}{,.acquire}{,.cta,.cluster}" MB_SPACE ".b64", conf_xrun_mbar),

    /* ---- 9.7.9.25 cp.async: copies of 4, 8 and 16 bytes (.cg: 16) with
     * and without src-size, the group instructions, and the mbarrier
     * arrive-on.  Left out: the cache and prefetch hints, ignore-src. -- */
    X("cp", "cp.async.{ca,cg}.shared{,::cta}.global", conf_xrun_cp),
    X("cp", "cp.async.{commit_group,wait_group,wait_all}", conf_xrun_cp),
    X("cp", "cp.async.mbarrier.arrive{,.noinc}" MB_SPACE ".b64", conf_xrun_cp),

    /* ---- 9.7.9.1-2 mov, 9.7.9.18 isspacep, 9.7.9.19 cvta, 9.7.9.15
     * prefetch, 9.7.13.4 membar/fence.  mov.b32/.b64/.b128 also pack and
     * unpack; the others as conf_xdata.c says.  Left out: cvta of .param
     * and the .u32 forms (32-bit addresses), fence.proxy and the
     * mbarrier_init fence (async proxies), prefetch.tensormap. ------- */
    T("data", "mov.{b16,u16,u32,u64,s16,s32,s64,f32,f64}", "d, a", ref_mov, NOGEN),
    T("data", "mov.pred", "p, a:pred", ref_mov, NOGEN),
    X("data", "mov.{b32,b64,b128}", conf_xrun_data),
    X("data", "cvta{,.to}.{global,shared,shared::cta,local,const}.u64", conf_xrun_data),
    X("data", "isspacep.{global,shared,shared::cta,local,const}", conf_xrun_data),
    X("data", "prefetch{,.global,.local}.{L1,L2}", conf_xrun_data),
    X("data", "prefetch{,.global}.{L2::evict_last,L2::evict_normal}", conf_xrun_data),
    X("data", "prefetchu.L1", conf_xrun_data),
    X("data", "membar.{cta,gl,sys}", conf_xrun_data),
    X("data", "fence{,.sc,.acq_rel}.{cta,cluster,gpu,sys}", conf_xrun_data),

    /* ---- 9.7.9.26-28 ldmatrix, stmatrix, movmatrix of 8x8 .b16
     * matrices.  Left out: the sm_100 m16n16/m8n16 shapes of 8-bit and
     * 6/4-bit elements. --------------------------------------------- */
    X("matrix", "ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{,.trans}{,.shared,.shared::cta}.b16", conf_xrun_matrix),
    X("matrix", "stmatrix.sync.aligned.m8n8.{x1,x2,x4}{,.trans}{,.shared,.shared::cta}.b16", conf_xrun_matrix),
    X("matrix", "movmatrix.sync.aligned.m8n8.trans.b16", conf_xrun_matrix),

    /* ---- 9.7.14.4 wmma, checked through memory (D = A * B + C): f16,
     * bf16, s8/u8 on the three 16-element shapes, tf32 on m16n16k8, f64
     * on m8n8k4.  Left out: the sub-byte and b1 forms, f64 rounding
     * modifiers. ------------------------------------------------------ */
    X("wmma", "wmma.load.{a,b}.sync.aligned.{row,col}." WM_SHAPES WM_SPACE ".{f16,bf16,s8,u8}", conf_xrun_wmma),
    X("wmma", "wmma.load.{a,b}.sync.aligned.{row,col}.m16n16k8" WM_SPACE ".tf32", conf_xrun_wmma),
    X("wmma", "wmma.load.{a,b}.sync.aligned.{row,col}.m8n8k4" WM_SPACE ".f64", conf_xrun_wmma),
    X("wmma", "wmma.load.c.sync.aligned.{row,col}." WM_SHAPES WM_SPACE ".{f16,f32,s32}", conf_xrun_wmma),
    X("wmma", "wmma.load.c.sync.aligned.{row,col}.m16n16k8" WM_SPACE ".f32", conf_xrun_wmma),
    X("wmma", "wmma.load.c.sync.aligned.{row,col}.m8n8k4" WM_SPACE ".f64", conf_xrun_wmma),
    X("wmma", "wmma.store.d.sync.aligned.{row,col}." WM_SHAPES WM_SPACE ".{f16,f32,s32}", conf_xrun_wmma),
    X("wmma", "wmma.store.d.sync.aligned.{row,col}.m16n16k8" WM_SPACE ".f32", conf_xrun_wmma),
    X("wmma", "wmma.store.d.sync.aligned.{row,col}.m8n8k4" WM_SPACE ".f64", conf_xrun_wmma),
    X("wmma", "wmma.mma.sync.aligned.{row,col}.{row,col}." WM_SHAPES ".{f16,f32}.{f16,f32}", conf_xrun_wmma),
    X("wmma", "wmma.mma.sync.aligned.{row,col}.{row,col}." WM_SHAPES ".f32.bf16.bf16.f32", conf_xrun_wmma),
    X("wmma", "wmma.mma.sync.aligned.{row,col}.{row,col}." WM_SHAPES ".s32.{s8,u8}.{s8,u8}.s32{,.satfinite}",
      conf_xrun_wmma),
    X("wmma", "wmma.mma.sync.aligned.{row,col}.{row,col}.m16n16k8.f32.tf32.tf32.f32", conf_xrun_wmma),
    X("wmma", "wmma.mma.sync.aligned.{row,col}.{row,col}.m8n8k4.f64.f64.f64.f64", conf_xrun_wmma),

    /* ---- 9.7.10 textures and surfaces: nearest sampling with clamp
     * addressing (and linear filtering of floats), layered and cube-map
     * geometries, .level and .grad on one-level textures, raw surface
     * loads and stores with each out-of-range rule, the size queries.
     * Left out: mipmapped textures (the runtime creates none), seamless
     * linear filtering across cube faces. ---- */
    X("image", "tex.{1d,2d,3d}.v4.{u32,s32,f32}.{s32,f32}", conf_xrun_image),
    X("image", "tex.{a1d,a2d}.v4.{u32,s32,f32}.{s32,f32}", conf_xrun_sample),
    X("image", "tex.{cube,acube}.v4.{u32,s32,f32}.f32", conf_xrun_sample),
    X("image", "tex.{level,grad}.{1d,2d,3d,a1d,a2d,cube,acube}.v4.{u32,s32,f32}.f32", conf_xrun_sample),
    X("image", "suld.b.{1d,2d,3d}{,.v2}.{b8,b16,b32,b64}.{trap,clamp,zero}", conf_xrun_image),
    X("image", "suld.b.{1d,2d,3d}.v4.{b8,b16,b32}.{trap,clamp,zero}", conf_xrun_image),
    X("image", "sust.b.{1d,2d,3d}{,.v2}.{b8,b16,b32,b64}.{trap,clamp,zero}", conf_xrun_image),
    X("image", "sust.b.{1d,2d,3d}.v4.{b8,b16,b32}.{trap,clamp,zero}", conf_xrun_image),
    X("image", "tld4.{r,g,b,a}.2d.v4.{u32,s32,f32}.f32", conf_xrun_image),
    X("image", "txq.{width,height,depth}.b32", conf_xrun_image),
    X("image", "suq.{width,height,depth}.b32", conf_xrun_image),

    /* ---- 9.7.9.16-17 getctarank, mapa; 9.7.13.3 barrier.cluster: values
     * read from the next CTA of clusters of 2 and 4.  Left out: mapa and
     * getctarank .u32 on generic addresses (64-bit addressing here). -- */
    X("cluster", "mapa.u64", conf_xrun_cluster),
    X("cluster", "mapa.shared::cluster.{u32,u64}", conf_xrun_cluster),
    X("cluster", "getctarank.u64", conf_xrun_cluster),
    X("cluster", "getctarank.shared::cluster.{u32,u64}", conf_xrun_cluster),
    X("cluster", "barrier.cluster.arrive{,.release,.relaxed}{,.aligned}", conf_xrun_cluster),
    X("cluster", "barrier.cluster.wait{,.acquire}{,.aligned}", conf_xrun_cluster),

    /* ---- 9.7.14.5 mma.sync and 9.7.14.6 mma.sp, register by register
     * against the ISA's fragment layouts.  Left out: the sub-byte types,
     * .kind:: and block scaling, the sm_70 m8n8k4 f16 form (ptxsim refuses
     * it); mma.sp runs with one metadata nibble per group of four lanes
     * (ref_mma.c says why). ----- */
    X("mma", "mma.sync.aligned.m16n8k16.row.col.{f16.f16.f16.f16,f32.f16.f16.f32,f32.bf16.bf16.f32}",
      conf_xrun_mma),
    X("mma", "mma.sync.aligned.m16n8k8.row.col.{f16.f16.f16.f16,f32.f16.f16.f32,f32.bf16.bf16.f32,f32.tf32.tf32.f32}",
      conf_xrun_mma),
    X("mma", "mma.sync.aligned.{m16n8k16,m16n8k32}.row.col{,.satfinite}.s32.{s8,u8}.{s8,u8}.s32", conf_xrun_mma),
    X("mma", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", conf_xrun_mma),
    X("mma", "mma.sync.aligned.{m16n8k16,m16n8k32}.row.col.{f32.e4m3.e4m3.f32,f32.e4m3.e5m2.f32,f32.e5m2.e4m3.f32,"
             "f32.e5m2.e5m2.f32}", conf_xrun_mma),
    X("mma", "mma.sync.aligned.{m16n8k16,m16n8k32}.row.col.{f16.e4m3.e4m3.f16,f16.e4m3.e5m2.f16,f16.e5m2.e4m3.f16,"
             "f16.e5m2.e5m2.f16}", conf_xrun_mma),
    X("mma", "mma{.sp,.sp::ordered_metadata}.sync.aligned.{m16n8k16,m16n8k32}.row.col."
             "{f16.f16.f16.f16,f32.f16.f16.f32,f32.bf16.bf16.f32}", conf_xrun_mma),
    X("mma", "mma{.sp,.sp::ordered_metadata}.sync.aligned.{m16n8k8,m16n8k16}.row.col.f32.tf32.tf32.f32", conf_xrun_mma),
    X("mma", "mma{.sp,.sp::ordered_metadata}.sync.aligned.{m16n8k32,m16n8k64}.row.col{,.satfinite}.s32.{s8,u8}.{s8,u8}.s32",
      conf_xrun_mma),
    X("mma", "mma{.sp,.sp::ordered_metadata}.sync.aligned.m16n8k64.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32",
      conf_xrun_mma),
};

const size_t conf_ntemplates = sizeof conf_templates / sizeof conf_templates[0];
