/*
 * opcodes_test.c -- the opcode table checks itself: every row has a unique
 * mnemonic the parser's index finds, a semantic function and a value in
 * each column; the flags of a row agree with each other and with its
 * family, latency class and P-mode treatment; and the functions next to
 * the table (isa.h) refine them by type and modifier as timing/ and the
 * checkers expect.  A new row that contradicts the others fails here, not
 * in a statistic of some sample.
 */
#include "check.h"
#include "isa.h"

#include <stdlib.h>
#include <string.h>

/* Each spelling index is an open-addressing hash: a search ends at an
 * empty slot, and at most half full keeps the probe sequences short. */
static void test_index_capacity(void)
{
    static const struct { const char *what; unsigned count; } tables[] = {
        { "opcodes", ISA_OP_COUNT }, { "types", ISA_TYPE_COUNT }, { "special registers", ISA_SREG_COUNT },
        { "spaces", ISA_SPACE_COUNT }, { "comparisons", ISA_CMP_COUNT }, { "roundings", ISA_RND_COUNT },
        { "modes", ISA_MODE_COUNT }, { "atomic ops", ISA_AOP_COUNT }, { "orders", ISA_ORDER_COUNT },
        { "scopes", ISA_SCOPE_COUNT }, { "flags", ISA_FLAGBIT_COUNT }, { "geometries", ISA_GEOM_COUNT },
        { "shapes", ISA_SHAPE_COUNT },
    };
    CHECK((ISA_NAME_SLOTS & (ISA_NAME_SLOTS - 1)) == 0, "ISA_NAME_SLOTS %u is a power of two", ISA_NAME_SLOTS);
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        CHECK(2 * tables[i].count <= ISA_NAME_SLOTS, "%u %s fill more than half of the %u slots of their index",
              tables[i].count, tables[i].what, ISA_NAME_SLOTS);
    CHECK(isa_lookup_op("nosuchop", 8) == -1, "an unknown mnemonic is not found");
    CHECK(isa_lookup_op("ld", 1) == -1, "a prefix of a mnemonic is not found");
}

static void test_names(void)
{
    for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
        const char *name = isa_ops[op].name;
        CHECK(name && *name, "opcode %u has a mnemonic", op);
        if (!name)
            continue;
        for (unsigned o = 0; o < op; o++)
            CHECK(strcmp(name, isa_ops[o].name) != 0, "opcodes %u and %u are both '%s'", o, op, name);
        CHECK(isa_lookup_op(name, strlen(name)) == (int)op, "'%s' is found as opcode %u (got %d)", name, op,
              isa_lookup_op(name, strlen(name)));
        CHECK(isa_sem_table[op] != NULL, "'%s' has a semantic function", name);
    }
}

#define HAS(f) ((fl & (f)) != 0)

/* Implications between one row's flags and columns. */
static void test_row_consistency(void)
{
    for (unsigned op = 0; op < ISA_OP_COUNT; op++) {
        const isa_op_info *r = &isa_ops[op];
        const char *n = r->name;
        unsigned fl = r->flags;
        CHECK(r->family <= ISA_FAM_TENSOR, "%s: family %u", n, r->family);
        CHECK(r->lat > ISA_LAT_NONE && r->lat < ISA_LAT_COUNT, "%s has a latency class (%u)", n, r->lat);
        CHECK(r->pmode < ISA_PM_COUNT, "%s: P-mode treatment %u", n, r->pmode);

        /* Memory. */
        CHECK(!HAS(ISA_F_LOAD | ISA_F_STORE | ISA_F_ATOMIC | ISA_F_IMAGE) || HAS(ISA_F_MEM),
              "%s: a load, store, atomic or image instruction is a memory instruction", n);
        CHECK(!HAS(ISA_F_ATOMIC) || HAS(ISA_F_STORE), "%s: an atomic writes memory", n);
        CHECK(!HAS(ISA_F_STORE) || HAS(ISA_F_ATOMIC) || HAS(ISA_F_NODST),
              "%s: a store has no destination unless it is atomic", n);
        CHECK(!(HAS(ISA_F_LOAD) && HAS(ISA_F_NODST)), "%s: a load has a destination", n);
        CHECK(!(HAS(ISA_F_PDST) && HAS(ISA_F_NODST)), "%s: a predicate destination is a destination", n);
        CHECK(!HAS(ISA_F_SURFACE) || HAS(ISA_F_IMAGE), "%s: a surface instruction is an image one", n);
        CHECK(!(HAS(ISA_F_IMAGE) && HAS(ISA_F_MATRIX)), "%s: image or matrix, not both", n);
        CHECK(!HAS(ISA_F_MEM) || r->family == ISA_FAM_MEM, "%s: a memory instruction is of the MEM family", n);

        /* Control. */
        CHECK(!HAS(ISA_F_CTRL) || HAS(ISA_F_NODST), "%s: a control instruction writes no register", n);
        CHECK(!HAS(ISA_F_ENDS_BLOCK) || HAS(ISA_F_CTRL), "%s: what ends a block is a control instruction", n);
        CHECK(!HAS(ISA_F_TABLE) || HAS(ISA_F_ENDS_BLOCK), "%s: a table branch ends its block", n);
        CHECK(!HAS(ISA_F_CALL) || HAS(ISA_F_CTRL), "%s: a call is a control instruction", n);
        CHECK(!(HAS(ISA_F_CTRL) && HAS(ISA_F_MEM)), "%s: control or memory, not both", n);

        /* Warps. */
        CHECK(!HAS(ISA_F_MATRIX) || HAS(ISA_F_WARPSYNC), "%s: a matrix instruction is warp-synchronous", n);

        /* Latency classes: by type for FP, FDIV and DP (isa_inst_lat). */
        CHECK(r->lat != ISA_LAT_FDIV && r->lat != ISA_LAT_DP, "%s: FDIV and DP come from the type", n);
        CHECK((r->family == ISA_FAM_TENSOR) == (r->lat == ISA_LAT_TENSOR), "%s: tensor family and class", n);
        CHECK((r->family == ISA_FAM_SFU) == (r->lat == ISA_LAT_SFU), "%s: SFU family and class", n);
        CHECK(r->family != ISA_FAM_FP || r->lat == ISA_LAT_FP, "%s: an FP row is of the FP class", n);
        CHECK((r->lat != ISA_LAT_IMUL && r->lat != ISA_LAT_IDIV) || r->family == ISA_FAM_INT,
              "%s: integer multiply and divide rows are INT", n);
        CHECK((r->family != ISA_FAM_MEM && r->family != ISA_FAM_CTRL && r->family != ISA_FAM_SYNC) ||
                  r->lat == ISA_LAT_ALU,
              "%s: memory, control and synchronisation rows pass the issue path as ALU", n);

        /* P-mode: the pre-executing copy never writes memory or moves past
         * what it cannot undo. */
        bool pm_ctrl = r->pmode == ISA_PM_BRANCH || r->pmode == ISA_PM_BARRIER || r->pmode == ISA_PM_HALT;
        CHECK(HAS(ISA_F_CTRL) == pm_ctrl, "%s: control instructions, and only they, branch, wait or halt", n);
        CHECK(r->pmode != ISA_PM_BRANCH || HAS(ISA_F_ENDS_BLOCK), "%s: a branch ends its block", n);
        CHECK(!HAS(ISA_F_STORE) || r->pmode == ISA_PM_STORE, "%s: what writes memory is skipped as a store", n);
        CHECK(!HAS(ISA_F_MEM) || r->pmode == ISA_PM_LOAD || r->pmode == ISA_PM_STORE || r->pmode == ISA_PM_SKIP,
              "%s: a memory instruction is never simply run", n);
        CHECK(r->pmode != ISA_PM_LOAD || (HAS(ISA_F_LOAD) && !HAS(ISA_F_ATOMIC) && !HAS(ISA_F_MATRIX)),
              "%s: a pre-load is a load of its own data a lane", n);
    }
}

static isa_inst inst(unsigned op, unsigned type, unsigned type2, unsigned mode)
{
    isa_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)type;
    in.type2 = (uint8_t)type2;
    in.mode = (uint8_t)mode;
    in.vec = 1;
    in.guard = ISA_NOREG;
    return in;
}

/* The family and latency class timing/ sees, refined by type. */
static void test_refinement(void)
{
    static const struct { unsigned op, type, type2, family, lat; } cases[] = {
        { ISA_OP_ADD, ISA_TYPE_S32, 0, ISA_FAM_INT, ISA_LAT_ALU },
        { ISA_OP_ADD, ISA_TYPE_F32, 0, ISA_FAM_FP, ISA_LAT_FP },
        { ISA_OP_ADD, ISA_TYPE_F16X2, 0, ISA_FAM_FP, ISA_LAT_FP },
        { ISA_OP_ADD, ISA_TYPE_F64, 0, ISA_FAM_DP, ISA_LAT_DP },
        { ISA_OP_MUL, ISA_TYPE_U32, 0, ISA_FAM_INT, ISA_LAT_IMUL },
        { ISA_OP_MAD24, ISA_TYPE_S32, 0, ISA_FAM_INT, ISA_LAT_IMUL },
        { ISA_OP_MUL, ISA_TYPE_F32, 0, ISA_FAM_FP, ISA_LAT_FP },
        { ISA_OP_DIV, ISA_TYPE_S32, 0, ISA_FAM_INT, ISA_LAT_IDIV },
        { ISA_OP_REM, ISA_TYPE_U64, 0, ISA_FAM_INT, ISA_LAT_IDIV },
        { ISA_OP_DIV, ISA_TYPE_F32, 0, ISA_FAM_FP, ISA_LAT_FDIV },
        { ISA_OP_DIV, ISA_TYPE_F64, 0, ISA_FAM_DP, ISA_LAT_DP },
        { ISA_OP_FMA, ISA_TYPE_F64, 0, ISA_FAM_DP, ISA_LAT_DP },
        { ISA_OP_CVT, ISA_TYPE_F32, ISA_TYPE_F64, ISA_FAM_DP, ISA_LAT_DP },
        { ISA_OP_CVT, ISA_TYPE_S32, ISA_TYPE_F32, ISA_FAM_INT, ISA_LAT_ALU },
        { ISA_OP_SETP, ISA_TYPE_F32, 0, ISA_FAM_FP, ISA_LAT_FP },
        { ISA_OP_RCP, ISA_TYPE_F64, 0, ISA_FAM_SFU, ISA_LAT_SFU },
        { ISA_OP_LD, ISA_TYPE_F64, 0, ISA_FAM_MEM, ISA_LAT_ALU },
        { ISA_OP_MMA, ISA_TYPE_F32, ISA_TYPE_F16, ISA_FAM_TENSOR, ISA_LAT_TENSOR },
        { ISA_OP_BRA, ISA_TYPE_NONE, 0, ISA_FAM_CTRL, ISA_LAT_ALU },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        isa_inst in = inst(cases[i].op, cases[i].type, cases[i].type2, ISA_MODE_NONE);
        const char *n = isa_ops[in.op].name, *t = isa_types[in.type].name;
        CHECK(isa_inst_family(&in) == cases[i].family, "%s.%s: family %u, want %u", n, t, isa_inst_family(&in),
              cases[i].family);
        CHECK(isa_inst_lat(&in) == cases[i].lat, "%s.%s: latency class %u, want %u", n, t, isa_inst_lat(&in),
              cases[i].lat);
    }
}

/* What depends on modifiers: the address operand, and cp's forms. */
static void test_modifier_helpers(void)
{
    static const struct { unsigned op, mode; int addr; bool lane_access; } cases[] = {
        { ISA_OP_LD, ISA_MODE_NONE, 1, true },         { ISA_OP_LDU, ISA_MODE_NONE, 1, true },
        { ISA_OP_ST, ISA_MODE_NONE, 0, true },         { ISA_OP_ATOM, ISA_MODE_NONE, 1, true },
        { ISA_OP_RED, ISA_MODE_NONE, 0, true },        { ISA_OP_PREFETCH, ISA_MODE_NONE, 0, false },
        { ISA_OP_CP, ISA_MODE_ASYNC, 1, false },       { ISA_OP_CP, ISA_MODE_ASYNC_BULK, -1, false },
        { ISA_OP_CP, ISA_MODE_WAIT_GROUP, -1, false }, { ISA_OP_TEX, ISA_MODE_NONE, -1, false },
        { ISA_OP_SUST, ISA_MODE_NONE, -1, false },     { ISA_OP_WMMA_LOAD, ISA_MODE_NONE, -1, false },
        { ISA_OP_STMATRIX, ISA_MODE_NONE, -1, false }, { ISA_OP_ADD, ISA_MODE_NONE, -1, false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        isa_inst in = inst(cases[i].op, ISA_TYPE_U32, 0, cases[i].mode);
        const char *n = isa_ops[in.op].name, *m = isa_mode_names[in.mode];
        CHECK(isa_lane_addr_opd(&in) == cases[i].addr, "%s.%s: address operand %d, want %d", n, m,
              isa_lane_addr_opd(&in), cases[i].addr);
        CHECK(isa_op_lane_access(in.op) == cases[i].lane_access, "%s: one address a lane for the race checks: %d",
              n, cases[i].lane_access);
    }

    static const struct { unsigned mode; bool async, commits, waits, bulk; } cp[] = {
        { ISA_MODE_ASYNC, true, false, false, false },
        { ISA_MODE_COMMIT_GROUP, false, true, false, false },
        { ISA_MODE_WAIT_GROUP, false, false, true, false },
        { ISA_MODE_WAIT_ALL, false, true, true, false },
        { ISA_MODE_ASYNC_MBARRIER_ARRIVE, false, false, false, false },
        { ISA_MODE_ASYNC_MBARRIER_ARRIVE_NOINC, false, false, false, false },
        { ISA_MODE_ASYNC_BULK, false, false, false, true },
        { ISA_MODE_ASYNC_BULK_MBAR, false, false, false, true },
        { ISA_MODE_REDUCE_BULK_GROUP, false, false, false, true },
    };
    for (size_t i = 0; i < sizeof cp / sizeof cp[0]; i++) {
        isa_inst in = inst(ISA_OP_CP, ISA_TYPE_NONE, 0, cp[i].mode);
        const char *m = isa_mode_names[in.mode];
        CHECK(isa_cp_async(&in) == cp[i].async, "cp.%s: cp.async %d", m, cp[i].async);
        CHECK(isa_cp_commits(&in) == cp[i].commits, "cp.%s: commits a group %d", m, cp[i].commits);
        CHECK(isa_cp_waits(&in) == cp[i].waits, "cp.%s: waits for groups %d", m, cp[i].waits);
        CHECK(isa_cp_is_bulk(&in) == cp[i].bulk, "cp.%s: bulk %d", m, cp[i].bulk);
    }
    /* Only cp has forms. */
    isa_inst ld = inst(ISA_OP_LD, ISA_TYPE_U32, 0, ISA_MODE_ASYNC);
    CHECK(!isa_cp_async(&ld) && !isa_cp_commits(&ld) && !isa_cp_waits(&ld) && !isa_cp_is_bulk(&ld),
          "ld is no form of cp");
}

int main(void)
{
    test_index_capacity();
    test_names();
    test_row_consistency();
    test_refinement();
    test_modifier_helpers();
    return check_summary();
}
