#!/usr/bin/env python3
"""Generates wgmma_ops.h: one small struct per wgmma.mma_async variant used by the tests.

Each struct wraps exactly one inline-PTX wgmma.mma_async instruction.  The operand order
follows the PTX ISA syntax (9.7.15.5.2):

  f16/bf16, A from smem : d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b
  f16/bf16, A from regs : d, a,      b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-b
  tf32, e4m3/e5m2       : d, a-desc|a, b-desc, scale-d, imm-scale-a, imm-scale-b
  s8/u8                 : d, a-desc|a, b-desc, scale-d

scale-d is a predicate operand: we build it with setp from a run-time int.
Run:  python3 gen_ops.py > wgmma_ops.h
"""

# (name suffix, dtype, atype, btype, K, list of N, A-in-registers?)
VARIANTS = [
    # f16 / bf16 inputs, f32 accumulate, A and B from descriptors
    ("f32", "f16", "f16", 16, [8, 64, 256], False),
    ("f32", "bf16", "bf16", 16, [8, 64, 256], False),
    # f16 accumulate
    ("f16", "f16", "f16", 16, [8, 64], False),
    # A from registers
    ("f32", "f16", "f16", 16, [8, 64, 256], True),
    ("f32", "bf16", "bf16", 16, [64], True),
    ("f16", "f16", "f16", 16, [64], True),
    # tf32, K = 8
    ("f32", "tf32", "tf32", 8, [8, 64], False),
    # fp8, K = 32
    ("f32", "e4m3", "e4m3", 32, [8, 64], False),
    ("f32", "e5m2", "e5m2", 32, [64], False),
    ("f32", "e4m3", "e5m2", 32, [256], False),
    ("f16", "e4m3", "e4m3", 32, [64], False),
    # 8-bit integers, K = 32
    ("s32", "s8", "s8", 32, [8, 64], False),
    ("s32", "u8", "s8", 32, [64], False),
]

TYCODE = {"f16": "TY_F16", "bf16": "TY_BF16", "tf32": "TY_TF32", "e4m3": "TY_E4M3",
          "e5m2": "TY_E5M2", "s8": "TY_S8", "u8": "TY_U8"}
DCODE = {"f32": "DT_F32", "f16": "DT_F16", "s32": "DT_S32"}


def nregs(dtype, n):
    # ISA register-fragment tables: .f32/.s32 accumulators take N/2 registers,
    # .f16 accumulators take N/4 .f16x2 registers.
    return n // 4 if dtype == "f16" else n // 2


def emit(dtype, atype, btype, k, n, aregs):
    nr = nregs(dtype, n)
    sfx = "RS" if aregs else "SS"
    name = f"Op_m64n{n}k{k}_{dtype}_{atype}_{btype}_{sfx}"
    acc_c = "float" if dtype == "f32" else "uint32_t"
    cons = '"+f"' if dtype == "f32" else '"+r"'
    fp16ish = atype in ("f16", "bf16")
    is_int = atype in ("s8", "u8")
    lines = []
    lines.append(f"struct {name} {{")
    lines.append(f"  static constexpr int N = {n}, K = {k}, NR = {nr};")
    lines.append(f"  static constexpr bool A_REGS = {'true' if aregs else 'false'};")
    lines.append(f"  static constexpr int TYA = {TYCODE[atype]}, TYB = {TYCODE[btype]}, DT = {DCODE[dtype]};")
    lines.append(f"  static constexpr bool HAS_TRANS = {'true' if fp16ish else 'false'};")
    lines.append(f"  static constexpr bool HAS_SCALE = {'false' if is_int else 'true'};")
    lines.append(f'  static const char* name() {{ return "m64n{n}k{k}.{dtype}.{atype}.{btype} ({"A regs" if aregs else "A desc"})"; }}')
    lines.append(f"  typedef {acc_c} acc_t;")
    lines.append("  template <int SA, int SB, int TA, int TB>")
    if aregs:
        lines.append(f"  __device__ static __forceinline__ void mma({acc_c} (&d)[{nr}], const uint32_t (&a)[4], uint64_t bdesc, int scale_d) {{")
    else:
        lines.append(f"  __device__ static __forceinline__ void mma({acc_c} (&d)[{nr}], uint64_t adesc, uint64_t bdesc, int scale_d) {{")
    if not fp16ish:
        lines.append("    static_assert(TA == 0 && TB == 0, \"transpose only exists for f16/bf16\");")
    if is_int:
        lines.append("    static_assert(SA == 1 && SB == 1, \"no imm-scale for integer wgmma\");")
    if aregs:
        lines.append("    static_assert(TA == 0, \"no imm-trans-a when A is in registers\");")
    # operand numbering
    dlist = ", ".join(f"%{i}" for i in range(nr))
    idx = nr
    if aregs:
        aops = "{" + ", ".join(f"%{idx + j}" for j in range(4)) + "}"
        idx += 4
    else:
        aops = f"%{idx}"
        idx += 1
    bop = f"%{idx}"; idx += 1
    sdop = f"%{idx}"; idx += 1
    tail = "p"
    if not is_int:
        tail += f", %{idx}, %{idx + 1}"
        sa_i, sb_i = idx, idx + 1
        idx += 2
        if fp16ish:
            if aregs:
                tail += f", %{idx}"
                idx += 1
            else:
                tail += f", %{idx}, %{idx + 1}"
                idx += 2
    instr = f"wgmma.mma_async.sync.aligned.m64n{n}k{k}.{dtype}.{atype}.{btype}"
    lines.append("    asm volatile(")
    lines.append('      "{\\n.reg .pred p;\\n"')
    lines.append(f'      "setp.ne.b32 p, {sdop}, 0;\\n"')
    lines.append(f'      "{instr} "')
    # split the d list into chunks to keep lines short
    dl = [f"%{i}" for i in range(nr)]
    chunks = [", ".join(dl[i:i + 16]) for i in range(0, nr, 16)]
    lines.append('      "{"')
    for ci, c in enumerate(chunks):
        sep = ", " if ci + 1 < len(chunks) else ""
        lines.append(f'      "{c}{sep}"')
    lines.append(f'      "}}, {aops}, {bop}, {tail};\\n"')
    lines.append('      "}\\n"')
    douts = [f"{cons}(d[{i}])" for i in range(nr)]
    lines.append("      : " + ",\n        ".join(", ".join(douts[i:i + 8]) for i in range(0, nr, 8)))
    ins = []
    if aregs:
        ins += [f'"r"(a[{j}])' for j in range(4)]
    else:
        ins.append('"l"(adesc)')
    ins.append('"l"(bdesc)')
    ins.append('"r"(scale_d)')
    if not is_int:
        ins += ['"n"(SA)', '"n"(SB)']
        if fp16ish:
            if not aregs:
                ins.append('"n"(TA)')
            ins.append('"n"(TB)')
    lines.append("      : " + ", ".join(ins))
    lines.append('      : "memory");')
    lines.append("  }")
    lines.append("};")
    return "\n".join(lines)


def main():
    print("// GENERATED by gen_ops.py -- do not edit by hand.")
    print("#pragma once")
    print("#include <stdint.h>")
    print("#include \"types.h\"")
    print()
    for (dtype, atype, btype, k, ns, aregs) in VARIANTS:
        for n in ns:
            print(emit(dtype, atype, btype, k, n, aregs))
            print()


if __name__ == "__main__":
    main()
