/*
 * refs.h -- the reference functions conf_table.c names, one per opcode (or
 * group of opcodes with one definition), by the file that holds them.
 * Each writes what a lane with sources s (conf.h) must produce.
 */
#ifndef PTXSIM_REFS_H
#define PTXSIM_REFS_H

#include "conf.h"

#include <string.h>

#define REF(name) void name(const conf_form *f, const uint64_t *s, conf_want *w);

/* ref_int.c */
REF(ref_int_add) REF(ref_int_sub) REF(ref_addc) REF(ref_subc) REF(ref_int_mul) REF(ref_int_mad)
REF(ref_mul24) REF(ref_mad24) REF(ref_sad) REF(ref_int_div) REF(ref_int_rem) REF(ref_int_abs)
REF(ref_int_neg) REF(ref_int_min) REF(ref_int_max)

/* ref_bits.c */
REF(ref_and) REF(ref_or) REF(ref_xor) REF(ref_not) REF(ref_cnot) REF(ref_lop3) REF(ref_shl) REF(ref_shr)
REF(ref_shf) REF(ref_popc) REF(ref_clz) REF(ref_bfind) REF(ref_brev) REF(ref_bfe) REF(ref_bfi) REF(ref_szext)
REF(ref_prmt) REF(ref_dp4a) REF(ref_dp2a) REF(ref_fns) REF(ref_bmsk)

/* ref_cmp.c */
REF(ref_setp) REF(ref_set) REF(ref_selp) REF(ref_slct)

/* ref_cvt.c */
REF(ref_cvt) REF(ref_cvt_pack) REF(ref_cvt_rs)

/* ref_float.c */
REF(ref_fadd) REF(ref_fsub) REF(ref_fmul) REF(ref_ffma) REF(ref_fdiv) REF(ref_rcp) REF(ref_sqrt) REF(ref_rsqrt)
REF(ref_sin) REF(ref_cos) REF(ref_lg2) REF(ref_ex2) REF(ref_tanh) REF(ref_fabs) REF(ref_fneg) REF(ref_fmin)
REF(ref_fmax) REF(ref_copysign) REF(ref_testp) REF(ref_fadd2) REF(ref_fsub2) REF(ref_fmul2) REF(ref_ffma2)

/* ref_half.c */
REF(ref_hadd) REF(ref_hsub) REF(ref_hmul) REF(ref_hfma) REF(ref_hfma_oob) REF(ref_hneg) REF(ref_habs) REF(ref_hmin) REF(ref_hmax)
REF(ref_hex2) REF(ref_htanh) REF(ref_mixed)

/* ref_data.c */
REF(ref_mov)

#undef REF

/* ref_warp.c: a whole warp's sources, the lanes that execute the
 * instruction and the membermask (conf_xwarp.c). */
typedef struct conf_warp_in {
    uint64_t a[32], b[32], c[32];
    uint32_t exec, member;
    bool neg;               /* vote's source is written !a */
    unsigned tile;          /* 0, or lanes per tile: each lane's membermask is its tile's part of member */
} conf_warp_in;
void ref_warp(const conf_form *f, const conf_warp_in *in, conf_want w[32]);

/* ref_atom.c: the operation's name ("add", "cas" ...), one step of it on
 * the value r with operands b and c (flush: atom.add.f32's flush of
 * subnormals on global memory), and whether two values of the type are
 * the same result (any NaN for any NaN). */
const char *ref_atom_op(const conf_form *f);
uint64_t ref_atom_apply(const conf_form *f, bool flush, uint64_t r, uint64_t b, uint64_t c);
bool ref_atom_same(const conf_form *f, uint64_t x, uint64_t y);
/* atom.{cas,exch}.b128 on r, b, c given as {low half, high half}. */
void ref_atom_apply128(const conf_form *f, const uint64_t *r, const uint64_t *b, const uint64_t *c, uint64_t *out);

/* ref_ldst.c: the value an ld of type itype leaves in a register of type
 * rtype from the bytes at mem; the slot's bytes after an st of nvec
 * elements from registers regs (a .b128 register: two words, low first). */
uint64_t ref_ld_value(uint8_t itype, uint8_t rtype, const uint8_t *mem);
void ref_st_bytes(uint8_t itype, uint8_t rtype, unsigned nvec, const uint64_t *regs, uint8_t *slot);

/* ref_bar.c: the thread whose shared slot thread t reads after the
 * barrier (conf_xbar.c's pattern), and the .red result over the n
 * predicates p of the threads that arrive (neg: the source is !c). */
unsigned ref_bar_partner(unsigned t, unsigned block, bool groups, bool arrive);
uint64_t ref_bar_red(const conf_form *f, const uint8_t *p, unsigned n, bool neg);

/* ref_ctrl.c: the values conf_xctrl.c's kernels compute per lane. */
void ref_ctrl_loop(uint32_t a, bool odd_block, uint32_t *x, uint32_t *n);
uint32_t ref_ctrl_brx(uint32_t a, unsigned idx);
uint32_t ref_ctrl_fn(uint32_t a);
uint32_t ref_ctrl_fn2(uint32_t a);

/* ref_mbar.c: the thread whose slot thread t reads in phase `phase`, or
 * -1 if it reads none (drop: warps 0 and 1 left after phase 0). */
int ref_mbar_partner(unsigned t, unsigned block, unsigned phase, bool drop);
/* Whether phase 0 must still be incomplete when thread t has just arrived:
 * the tx-count is not zero until t itself completes bytes (tx: who
 * completes them, after arriving). */
enum { REF_MBAR_TX_NONE, REF_MBAR_TX_HI, REF_MBAR_TX_W3 };
bool ref_mbar_incomplete(unsigned tx, unsigned t);

/* ref_cp.c: a 16-byte shared slot (its bytes before: slot) after a copy of
 * size bytes of which src_size come from src. */
void ref_cp_slot(const uint8_t *slot, const uint8_t *src, unsigned size, unsigned src_size, uint8_t *out);

/* ref_data.c: mov's packing and unpacking of v and u
 * by conf_xdata.c's kernel for mov.type (the count of results); the .const
 * array's element i; isspacep of form space on an address of addr space
 * (spaces: global, shared, local, const; 2: either answer). */
unsigned ref_mov_pack(uint8_t type, uint64_t v, uint64_t u, uint64_t *want);
uint64_t ref_data_const(unsigned i);
unsigned ref_isspacep(unsigned form_space, unsigned addr_space);

/* ref_matrix.c: the 32 rows of 8 .b16 elements a warp's lanes name
 * (names[lane]: the row lane gives), read into fragments of n matrices
 * (want[i][lane]) or written from the registers regs[i][lane]; movmatrix's
 * transpose of fragment a. */
void ref_ldmatrix(uint16_t (*rows)[8], const uint8_t *names, unsigned n, bool trans, uint32_t (*want)[32]);
void ref_stmatrix(uint16_t (*rows)[8], const uint8_t *names, uint32_t (*regs)[32], unsigned n, bool trans);
void ref_movmatrix(const uint32_t *a, uint32_t *want);

/* ref_wmma.c: a matrix in memory (p, element type, rows x cols, stride
 * in elements, column-major or not); the small-integer elements of a
 * type; whether D (m[3]) is A * B + C (m[0..2], inner dimension k) and no
 * other byte of its `area` bytes changed, else the first wrong element (or
 * ~0u, ~0u for a byte outside D). */
typedef struct ref_wmma_mat {
    const uint8_t *p;
    uint8_t type;
    unsigned rows, cols, stride;
    bool col;
} ref_wmma_mat;
void ref_wmma_fill(conf_rng *r, uint8_t type, uint8_t *p, unsigned bytes);
bool ref_wmma_check(const ref_wmma_mat *m, unsigned k, bool sat, unsigned area, unsigned *out_r, unsigned *out_c,
                    uint64_t *got, uint64_t *want);

/* ref_mma.c: an mma.sync or mma.sp shape (M x N x K) and its A, B, C, D
 * element types; the elements of operand which (0 A, 1 B, 2 C, 3 D) a lane
 * holds; where element i of lane's fragment sits in its matrix (dense
 * shapes); a small element of a type; how many lanes of a group of four
 * hold mma.sp's metadata, and a valid metadata nibble; D's fragments
 * (d[lane][i]) from the warp's A, B and C fragments
 * (frag[operand][lane][i]), the metadata registers and the sparsity
 * selector (mma.sp). */
typedef struct ref_mma_case {
    unsigned m, n, k;
    uint8_t type[4];
    bool sparse, ordered;   /* mma.sp, mma.sp::ordered_metadata */
} ref_mma_case;
unsigned ref_mma_elems(const ref_mma_case *m, unsigned which);
void ref_mma_coord(const ref_mma_case *m, unsigned which, unsigned lane, unsigned i, unsigned *r, unsigned *c);
uint64_t ref_mma_small(conf_rng *r, uint8_t t);
unsigned ref_mma_meta_lanes(const ref_mma_case *m);
uint32_t ref_mma_meta_nibble(conf_rng *r, const ref_mma_case *m);
void ref_mma_run(const ref_mma_case *m, const uint64_t (*frag)[32][16], const uint32_t *meta, unsigned sel,
                 uint64_t (*d)[16]);

/* ref_cluster.c: the lane whose value thread t of block `block` reads in
 * clusters of n blocks, and the rank it reads from. */
unsigned ref_cluster_source(unsigned block, unsigned t, unsigned n, unsigned *out_rank);

/* ref_image.c: an image (texels of `texel` bytes, rows pitch bytes apart,
 * slices slice bytes apart) in memory; filling it; a lane's coordinates
 * (texture: texel indices, some outside; surface: x in bytes, aligned to
 * esize, some outside for .zero and .clamp; slot >= 0: that element); the texel tex
 * returns; the esize bytes suld returns; sust's effect. */
typedef struct ref_image {
    uint32_t width, height, depth, texel;
    uint32_t pitch, slice;
} ref_image;
void ref_image_fill(conf_rng *r, const ref_image *im, uint8_t *mem, bool floats);
void ref_image_coords(conf_rng *r, const ref_image *im, unsigned dims, bool texture, unsigned esize, bool outside,
                      int slot, int64_t *xyz);
void ref_image_texel(const ref_image *im, const uint8_t *mem, unsigned dims, const int64_t *xyz, uint8_t *out);
/* clamp: the .clamp rule outside the surface (else .zero's). */
void ref_image_surface(const ref_image *im, const uint8_t *mem, unsigned dims, const int64_t *xyz, unsigned esize,
                       bool clamp, uint8_t *out);
void ref_image_store(const ref_image *im, uint8_t *mem, unsigned dims, const int64_t *xyz, unsigned esize,
                     bool clamp, const uint8_t *data);
/* tld4's four values (channel comp) at coordinates (x + 1, y + 1). */
void ref_image_gather(const ref_image *im, const uint8_t *mem, const int64_t *xyz, unsigned comp, uint8_t *out);

/* ref_sample.c: tex's sampling of an image of 4-channel 32-bit texels
 * (dims spatial dimensions of size[] texels, layers layer_bytes apart),
 * clamp addressing, unnormalised coordinates x[]: the texel nearest
 * filtering returns, the four channels linear filtering returns (and the
 * sum of the magnitudes of their terms, for the accumulation's error),
 * and the face and normalised face coordinates of a cube-map direction. */
typedef struct ref_sampled {
    unsigned dims;
    uint32_t size[3];
    uint64_t pitch, slice, layer_bytes;
} ref_sampled;
void ref_sample_nearest(const ref_sampled *im, const uint8_t *mem, uint32_t layer, const double *x, uint8_t *out);
void ref_sample_linear(const ref_sampled *im, const uint8_t *mem, uint32_t layer, const double *x, double *out,
                       double *magnitude);
uint32_t ref_cube_face(const double *v, double *st);

#endif /* PTXSIM_REFS_H */
