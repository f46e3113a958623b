/*
 * tm_int.h -- the timing model's internal structures (internal to timing/).
 *
 * Time is kept in picoseconds everywhere, so the core, interconnect, L2 and
 * DRAM clocks can differ without rounding each crossing to a cycle of the
 * other domain.  A component's "cycle" is its clock period in picoseconds.
 */
#ifndef PTXSIM_TM_INT_H
#define PTXSIM_TM_INT_H

#include "mech.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define TM_NEVER UINT64_MAX

/* What one host core writes is kept apart from what another does by this
 * much (two cache lines: cores fetch lines in pairs). */
#define TM_LINE 128

/* calloc for what one core writes: n zeroed objects in lines of their own
 * (aligned to TM_LINE, the size rounded up to it; free them with free).
 * An SM's state, and every array it owns, is allocated so: SMs stepped on
 * different host threads must not share a line. */
static inline void *tm_alloc_lines(size_t n, size_t size)
{
    size_t bytes = (n * size + TM_LINE - 1) / TM_LINE * TM_LINE;
    void *p = aligned_alloc(TM_LINE, bytes ? bytes : TM_LINE);
    if (p)
        memset(p, 0, bytes);
    return p;
}

/* ---- caches -------------------------------------------------------------- */

enum { LINE_INVALID, LINE_VALID, LINE_RESERVED };

typedef struct tm_line {
    uint64_t tag;               /* line address (address / line bytes) */
    uint64_t last_use;          /* LRU stamp */
    uint32_t sectors;           /* valid sectors */
    uint32_t dirty;             /* dirty sectors */
    uint8_t state;
} tm_line;

/* A miss being fetched: requests for the same line wait on it. */
typedef struct tm_mshr {
    uint64_t line;              /* line address; 0 with used == 0 is free */
    uint32_t sectors;           /* sectors requested from below */
    uint16_t merged;            /* requests waiting on this entry */
    bool used;
    struct tm_req *waiters;     /* requests to complete when the fill arrives */
    struct tm_line *line_slot;  /* the line reserved for the fill */
} tm_mshr;

/* A fully associative LRU cache of line addresses with the capacity of a
 * real one: a miss that would hit here is a conflict miss, one that misses
 * here too a capacity (or cold) miss. */
typedef struct tm_shadow {
    uint64_t *key;              /* line address + 1 by slot (0: empty) */
    uint32_t *slot_node;        /* node of each hash slot */
    uint32_t *prev, *next;      /* LRU list of nodes (head: most recent) */
    uint64_t *node_key;
    uint32_t nnodes, used, nslots, head, tail;
} tm_shadow;

/* The sets of the lines a cache looked up last (cache.c). */
#define TM_SET_MEMO 64
typedef struct tm_set_memo {
    uint64_t line[TM_SET_MEMO];
    uint32_t set[TM_SET_MEMO];
} tm_set_memo;

typedef struct tm_cache {
    const char *name;
    uint32_t sets, assoc, line_bytes, sector_bytes, index_fn;
    uint32_t poly, hi_bit;      /* pric's polynomial; highest address bit hashed */
    tm_set_memo *memo;          /* written by lookups of a const cache too: a pure function's values */
    uint32_t line_shift, sectors_per_line;
    tm_line *lines;             /* sets * assoc */
    tm_mshr *mshr;
    uint32_t nmshr, mshr_used, merge_limit;
    /* The entries in use by line (tm_mshr_find): index + 1 by hash slot,
     * 0 empty, mshr_mask + 1 slots; and a bit per free entry, so that an
     * allocation takes the lowest free one as a scan would. */
    uint32_t *mshr_table, mshr_mask;
    uint64_t *mshr_free;
    uint64_t stamp;
    tm_cache_stats *stats;
    uint64_t *set_accesses, *set_misses;   /* per-set counts (shared by a level) */
    tm_shadow fa;               /* conflict-versus-capacity classification */
    bool bypass;                /* misses do not allocate now (DBSA's streaming bypass) */
    uint32_t hit_extra;         /* extra hit latency of a hashed index */
    /* A slice of a cache interleaved over nslices partitions every
     * slice_lines lines (nslices 1: not partitioned). */
    uint32_t slice_lines, nslices;
} tm_cache;

typedef enum { PROBE_HIT, PROBE_MISS, PROBE_SECTOR_MISS } tm_probe;

bool tm_cache_init(tm_cache *c, const char *name, uint32_t sets, uint32_t assoc, uint32_t line,
                   uint32_t sector, uint32_t index_fn, uint32_t nmshr, uint32_t merge,
                   tm_cache_stats *stats);
void tm_cache_free(tm_cache *c);
/* Make c one of nslices slices interleaved every slice_lines lines (the
 * L2 over the memory partitions): its sets are indexed by the address
 * within its partition.  slice_lines 0: not partitioned. */
void tm_cache_set_slices(tm_cache *c, uint32_t slice_lines, uint32_t nslices);
/* L2 lines of one partition between interleave boundaries (0 when the
 * interleave is finer than a line, which leaves no field to remove). */
uint32_t tm_l2_slice_lines(const tm_config *c);
/* Set the index function's polynomial and hashed address bits. */
void tm_cache_set_hash(tm_cache *c, uint32_t poly, uint32_t hi_bit, uint32_t hit_extra);
/* Count an access: statistics, per-set counts, conflict or capacity for a
 * miss.  Returns whether the fully associative shadow missed as well. */
void tm_cache_account(tm_cache *c, uint64_t line_addr, bool hit);
/* Probe-and-fill of a tag-only cache (DBSA's copy of a bypassed level's
 * tags); true on a hit. */
bool tm_cache_touch_tags(tm_cache *tags, uint64_t addr);
bool tm_shadow_init(tm_shadow *s, uint32_t lines);
void tm_shadow_free(tm_shadow *s);
bool tm_shadow_access(tm_shadow *s, uint64_t line);
void tm_cache_flush(tm_cache *c);
/* The set an address maps to under the cache's index function. */
uint32_t tm_cache_set(const tm_cache *c, uint64_t line_addr);
/* Look a line up; on a hit with the sectors present, touch it. */
tm_probe tm_cache_probe(tm_cache *c, uint64_t addr, uint32_t sectors, tm_line **out);
/* True if the line is valid with those sectors (a look at the tags only). */
bool tm_cache_present(const tm_cache *c, uint64_t addr, uint32_t sectors);
/* A way to fill for this line (invalid, else the LRU valid one that is not
 * reserved), or NULL if every way is reserved.  *victim_dirty reports what
 * the chosen way held. */
tm_line *tm_cache_victim(tm_cache *c, uint64_t addr, bool *victim_dirty, uint64_t *victim_tag,
                         uint32_t *victim_sectors);
tm_mshr *tm_mshr_find(tm_cache *c, uint64_t line_addr);
tm_mshr *tm_mshr_alloc(tm_cache *c, uint64_t line_addr);
void tm_mshr_release(tm_cache *c, tm_mshr *m);
uint32_t tm_sector_mask(const tm_cache *c, uint64_t addr, uint32_t bytes);

/* ---- memory requests and events ---------------------------------------------- */

enum { REQ_READ, REQ_WRITE, REQ_ATOMIC };

typedef struct tm_req {
    struct tm_req *next;        /* in whichever list holds it */
    uint64_t addr;              /* first byte (line aligned for fills) */
    uint32_t sectors;           /* sectors of the L2 line touched */
    uint32_t bytes;
    uint8_t kind;
    uint16_t sm;
    uint32_t partition;
    uint64_t issued;            /* when the SM sent it */
    struct tm_load *load;       /* the warp load waiting for it (NULL for stores) */
    struct tm_mshr *l1_mshr;    /* an L1 fill: the entry whose waiters it completes */
    struct tm_mshr *l2_mshr;    /* an L2 fill from DRAM */
    struct tm_cache *ro;        /* l1_mshr is this read-only L1's (NULL: the L1D's) */
} tm_req;

/* A warp's load (or atomic) in flight: registers become ready when every
 * transaction has returned. */
#define TM_ASYNC_GROUPS 16      /* cp.async groups a warp can wait on separately */

typedef struct tm_load {
    struct tm_warp *warp;
    /* A mechanism's load (diverge on miss: a parked group's): when it
     * completes, owner's load_done hook runs instead of its registers
     * becoming ready; owner_data is the mechanism's. */
    const tm_mech *owner;
    void *owner_data;
    uint32_t outstanding;
    uint64_t issued, done;
    uint16_t regs[EXEC_MAX_DST];
    uint8_t nregs;
    uint32_t lanes;             /* the lanes whose registers it writes (tm_pending.lanes) */
    bool pred;
    bool preload;               /* P-mode or prefetcher: fills the L1, writes no register */
    uint8_t async_group;        /* cp.async: its group's slot + 1 in the warp's ring (0: none) */
    bool fetch;                 /* an instruction fetch: the warp gets code line fetch_line */
    bool constant;              /* a constant or parameter load: not in the load-latency figures */
    uint64_t fetch_line;
} tm_load;

typedef enum { EV_L2_ARRIVE, EV_L2_TICK, EV_L2_RESPOND, EV_DRAM_TICK, EV_DRAM_DONE, EV_SM_ARRIVE } tm_event_kind;

typedef struct tm_event {
    uint64_t time;
    /* Ties of time break by seq: in a queue, the event's key (events.c:
     * when and how it was queued); on its way in an outbox, when and by
     * whom it was sent (tm_send_key). */
    uint64_t seq;
    uint8_t kind;
    uint32_t where;             /* partition or SM */
    void *ptr;
} tm_event;

/* A component's event queue (events.c): each memory partition has one for
 * its own events and the requests that reach it, each SM one for the
 * replies that reach it.  Ties break by seq, the key an event was queued
 * under (events.c): the cycle and way it was queued, then the order. */
typedef struct tm_heap {
    tm_event *v;
    uint32_t n, cap;
    uint64_t key_at;            /* the cycle and way of the last key given */
    uint32_t key_n;             /* keys given since */
} tm_heap;

static inline uint64_t tm_heap_top(const tm_heap *h) { return h->n ? h->v[0].time : UINT64_MAX; }

/* An event on its way (in an outbox) carries when and by whom it was
 * sent: the sender's cycle, whether in the ordered part of the step (an
 * SM's), and its id.  Those order what one receiver gets (events.c). */
static inline uint64_t tm_send_key(uint64_t cycle, bool ordered, uint32_t sender)
{
    return cycle << 24 | (uint64_t)ordered << 23 | sender;
}
static inline uint64_t tm_send_cycle(uint64_t key) { return key >> 24; }

/* Events on their way from one lane's components to another lane's
 * (events.c), queued at the receivers at the start of the next step. */
typedef struct tm_outbox {
    tm_event *v;
    uint32_t n, cap;
} tm_outbox;

/* A chunk (step.c): a run of SMs with consecutive ids, the piece of a
 * step's SM cycles one host thread takes at a time.  Each belongs to a
 * lane, whose thread takes its chunks first; a thread with nothing left of
 * its own takes what is left of another lane's, from the back.  So what
 * its SMs send and what their cycles find are the chunk's own, whoever ran
 * it, and are gathered in chunk order, which is SM order.  Cache-line
 * aligned: each step it is written by whichever core ran it. */
typedef struct tm_chunk {
    _Alignas(TM_LINE) uint32_t first, end;  /* its SMs: ids first .. end - 1 */
    uint32_t lane;
    /* What its SMs sent partitions, by parity of the step that sent it,
     * then by receiving lane; the earliest time of what they sent this
     * step. */
    tm_outbox *requests[2];
    uint64_t sent_min;
    /* What its SMs' cycles found this step: whether any had work, the
     * earliest wake of one that has, warp-instructions issued, and the
     * SMs the ordered part of the step must look at (stopped, failed, or
     * a CTA to look at), in id order. */
    bool busy;
    uint64_t sm_next, insts;
    bool logged;                /* an SM of it logged a store this window (stores.c) */
    tm_sm **ordered;
    uint32_t nordered;
    bool active;                /* a piece of this window's job: an SM of it has something to do */
} tm_chunk;

/* The longest window, in 64-cycle words (tm_lane.fired_at). */
#define TM_WINDOW_WORDS 4

/* A lane (step.c): the memory partitions and the chunks of SMs one host
 * thread steps first; a launch on one thread has one lane.  Everything a
 * lane's step writes is its components' or its own, so lanes step side by
 * side; what its components send another lane's goes through outboxes
 * (events.c).  Lanes are cache-line aligned: each is written by one core. */
typedef struct tm_lane {
    _Alignas(TM_LINE) uint32_t index;
    uint32_t *chunks, nchunks;  /* its chunks, in order */
    uint32_t *active, nactive;  /* ... those active this window (tm_window_chunks) */
    tm_heap wakes;              /* (time, queue) entries for its queues (events.c) */
    uint64_t now;               /* it fires the events due by then */
    /* By parity of the step that sent them, then by receiving lane: what
     * its partitions sent to SMs. */
    tm_outbox *replies[2];
    uint64_t sent_min;          /* the earliest time of what they sent this step */
    /* This step's work: its partitions with events due, its SMs with
     * replies due (bits over all ids). */
    uint64_t *part_bits, *inbox_bits;
    uint64_t next;              /* its earliest event to come (its queues' or what it sent) */
    uint64_t fired_at[TM_WINDOW_WORDS]; /* the window's cycles its partitions fired at (bit: cycle from its start) */
    uint64_t step_ns;           /* host time its part of this step took (step.c's sharing bound) */
    struct tm_sent_at *order;   /* room to sort a window's arrivals in (events.c) */
    uint32_t order_cap;
} tm_lane;

/* ---- DRAM -------------------------------------------------------------------- */

typedef struct tm_bank {
    uint64_t open_row;          /* TM_NEVER: closed */
    uint64_t ready;             /* next column command allowed */
    uint64_t activated;         /* for tRAS */
} tm_bank;

typedef struct tm_dram {
    tm_bank *banks;
    tm_req *queue;              /* waiting requests, oldest first */
    uint32_t queued;
    uint64_t bus_free;          /* data bus free from */
    uint64_t last_col;          /* the last column command (TM_NEVER: none yet) */
    uint32_t last_group;        /* ... and its bank group */
    uint64_t last_act;          /* the last activate (TM_NEVER: none yet) */
    uint64_t write_end;         /* the last write's data are in by then */
    bool busy;                  /* a DRAM_DONE event is pending */
} tm_dram;

/* ---- memory partitions ------------------------------------------------------------ */

typedef struct tm_partition {
    _Alignas(TM_LINE) tm_heap events;   /* its own events and the requests sent to it */
    tm_cache l2;
    tm_req *inq, *inq_tail;     /* arrived requests, in order */
    uint64_t busy_until;        /* the slice takes one request per L2 cycle */
    bool scheduled;             /* a slice event is pending */
    tm_dram dram;
    uint64_t down_free;         /* the response port into the interconnect */
    /* Its time: the step whose events it fires (the SMs' g->now, or its own
     * while it runs pipelined with them: pipe.c). */
    uint64_t now;
    /* Where it counts (the launch's statistics, or a block of its own while
     * components step on several threads), and the lane that steps it. */
    tm_stats *st;
    uint32_t lane;
} tm_partition;

/* ---- SMs ------------------------------------------------------------------------- */

typedef struct tm_pending {
    uint16_t reg;
    bool pred;
    bool mem;                   /* written by a memory load */
    uint32_t lanes;             /* the lanes it writes (all, but with dom_lane_scoreboard) */
    uint64_t ready;             /* TM_NEVER while a load is outstanding */
} tm_pending;

typedef struct tm_warp {
    /* What a scheduler reads of every candidate every pass comes first: a
     * warp held back is passed over after one cache line. */
    uint32_t nretained;         /* its instruction buffer: memory instructions kept until done (replay) */
    int held;                   /* the TM_SLOT_* reason it is held back */
    /* A warp held back by a register cannot issue before not_before; the
     * scheduler skips it until then (a load's return resets it). */
    uint64_t not_before;
    struct tm_minst *retained;  /* ... those instructions, oldest first */
    exec_warp *xw;
    struct tm_cta *cta;
    uint32_t slot;              /* warp slot in the SM */
    uint64_t age;               /* launch order, for GTO's "oldest" */
    tm_pending pend[TM_MAX_PENDING_WRITES + EXEC_MAX_DST];   /* max_pending_writes, and one instruction's destinations past it */
    uint32_t npend;
    uint32_t loads_in_flight;
    bool done;
    /* The next instruction's registers, decoded once per pc. */
    bool regs_valid;
    uint32_t regs_pc;
    exec_record regs;
    unsigned char *mech;        /* the mechanisms' blocks for this warp (tm_mech_warp) */
    /* cp.async: copies still in flight per group (a ring indexed by group
     * number), and the groups committed so far; the open group is number
     * async_committed. */
    uint32_t async_pending[TM_ASYNC_GROUPS];
    uint32_t async_committed;
    /* wgmma: when the open group's multiplies are done (at the latest),
     * when each committed group's are (the same ring), and how many groups
     * were committed. */
    uint64_t wgmma_open_done;
    uint64_t wgmma_done[TM_ASYNC_GROUPS];
    uint32_t wgmma_committed;
    uint64_t yielded_until;     /* its mbarrier wait failed: out of a throttled set until then */
    uint64_t fetched;           /* the code line its next instructions come from, + 1 (0: none yet) */
    bool fetching;              /* it waits for a line to be filled (tm_load_complete ends that) */
} tm_warp;

typedef struct tm_cta {
    exec_cta *xc;
    struct tm_sm *sm;
    uint64_t linear, began;     /* which CTA, and when it was placed */
    bool sync_needed;           /* a warp arrived at a barrier or exited */
    bool maybe_done;            /* a warp finished: the CTA may be done (checked then, not every cycle) */
    tm_warp *warps;
    uint32_t nwarps, warps_done;
    uint32_t first_slot;
    struct tm_cta *cl_next;     /* the next CTA of its cluster (a ring), NULL without clusters */
} tm_cta;

/* A warp of t reached a barrier, exited or ended a turn, or t retired: the
 * other CTAs of its cluster may be released (barrier.cluster), so their SMs
 * look at them now (gpu.c). */
void tm_cluster_wake(struct tm_gpu *g, tm_cta *t);

/* A memory instruction on its way through the memory stage.  Under replay
 * its warp keeps it (the replay buffer entry of Turner 2012: the private
 * active mask is the transactions or passes still to do) until every part
 * has been accepted; under stall it lives only while in the LSU.  Its
 * size is sizeof(tm_minst) plus the mechanisms' blocks (mech). */
typedef struct tm_minst {
    struct tm_minst *next;      /* in the warp's list, oldest first; or the free list */
    struct tm_warp *warp;
    uint64_t seq;               /* issue order */
    exec_record rec;
    uint64_t txn_addr[64];      /* global/local: line addresses */
    uint32_t txn_sectors[64];
    uint32_t ntxn, next_txn;
    uint32_t passes, pass;      /* shared/constant: passes needed and done */
    uint64_t pass_start;        /* when the current run of passes began */
    tm_load *load;
    uint32_t txn_lanes[64];     /* lanes each transaction serves */
    tm_load *split;             /* a second load some transactions complete (diverge on miss: parked lanes') */
    uint64_t split_txns;        /* those transactions */
    bool global;                /* goes through an L1 by transactions (global, local; constants, textures) */
    struct tm_cache *ro;        /* ... a read-only L1, not the L1D (constants, textures) */
    bool preload;               /* P-mode pre-load: fills the L1, dropped when refused under replay */
    uint64_t mech[];            /* the mechanisms' blocks (tm_mech_minst) */
} tm_minst;

/* The pipelines of one kind an instruction goes to, and its timing there
 * (core cycles). */
typedef struct tm_unit {
    uint64_t *free;             /* per pipeline: free from then */
    uint32_t n;
    uint64_t latency, ii;
    uint8_t cls;                /* its collector class */
} tm_unit;

/* A collector unit: an issued instruction reading its operands. */
typedef struct tm_oc {
    bool used;
    uint8_t cls;                /* OC_ALU, OC_SFU, OC_MEM */
    uint64_t seq;
    uint64_t ready;             /* operands read by then */
    struct tm_warp *warp;
    tm_unit unit;               /* not memory: where it goes */
    uint8_t ndst;               /* ... and the registers it writes */
    uint16_t dst[EXEC_MAX_DST];
    uint32_t lanes;             /* ... for these lanes (tm_pending.lanes) */
    tm_minst *minst;            /* memory */
    /* Put here by a mechanism on the warp's behalf (P-mode's pre-execution),
     * not by the warp: dispatched after the warp's own, and by's written
     * hook runs when it leaves; cookie is the mechanism's. */
    const tm_mech *by;
    uint64_t cookie;
} tm_oc;

enum { OC_ALU, OC_SFU, OC_MEM, OC_CLASSES };

/* What an L1 access came to. */
typedef enum { ACC_HIT, ACC_MISS, ACC_FAIL } tm_acc_result;
typedef struct tm_acc {
    tm_acc_result result;
    uint8_t hazard;             /* TM_HZ_* when it failed */
    struct tm_mshr *mshr;       /* the MSHR a miss allocated (NULL when merged) */
} tm_acc;

/* Where a scheduler stopped when its SM's cycle stopped before an
 * instruction that reaches beyond its CTA (exec_inst_private): the
 * candidates order[0..n) of scheduler s, the one at i about to issue
 * (second: its second instruction this cycle), and what the scheduler
 * had found so far. */
typedef struct tm_park {
    uint32_t s, i, n, issued;
    int why;
    uint64_t ready_at;
    bool second;
    bool load_held;             /* sm->load_held before this scheduler's look */
} tm_park;

typedef struct tm_sm {
    /* What the main loop reads of every SM every step, in one cache line
     * (its own: SMs may be stepped on different host threads). */
    _Alignas(TM_LINE) uint32_t nctas, max_ctas;
    tm_minst *lsu;              /* the memory instruction in the memory stage */
    tm_req *missq, *missq_tail; /* L1 misses and stores waiting for the interconnect */
    uint64_t wake;              /* earliest time anything here can change */
    uint64_t now;               /* its time: the cycle it runs, or whose replies it takes (a window's
                                   SMs run ahead of g->now, each on its own: step.c) */
    tm_heap inbox;              /* replies on their way back to it */
    bool cta_look;              /* a CTA has sync_needed or maybe_done: the main loop looks */
    bool parked;                /* its cycle stopped in the parallel part (park, below) */
    uint64_t stop;              /* the cycle a window's parallel part stopped at (step.c) */
    /* In a window, its CTAs' global stores (stores.c): logged, the first
     * `applied` of them in memory. */
    bool logging;
    uint32_t applied;
    isa_store_log log;
    ptx_status fault;           /* what went wrong in its cycle */
    uint32_t id;
    tm_warp **slots;            /* resident warps by slot (NULL: free) */
    uint32_t nslots;
    tm_cta **ctas;
    uint32_t threads, regs, shared;    /* resources in use */
    uint64_t *sp_free, *sfu_free, *dp_free, *tensor_free;
    uint32_t *rr;               /* per scheduler: round-robin position */
    tm_warp ***sched;           /* per scheduler: its warps, oldest first */
    uint32_t *nsched;
    tm_warp **last;             /* per scheduler: last warp issued (GTO) */
    tm_oc *oc;                  /* collector units */
    uint32_t noc;
    uint32_t oc_busy, oc_busy_cls[OC_CLASSES];  /* units in use, in all and by class */
    uint32_t oc_in[OC_CLASSES];                 /* instructions into units this cycle, by class */
    uint64_t oc_seq;
    tm_minst *spare;            /* free memory-instruction records */
    tm_cache l1;
    tm_cache l1i, l1c, l1t;     /* instructions, constants, textures (when their sets > 0) */
    uint32_t missq_len;
    uint64_t up_free;           /* request port into the interconnect */
    uint64_t *look_at;          /* per scheduler: it has nothing new to look at before then (0: look) */
    uint32_t nschedulers;
    uint64_t charged;           /* scheduler cycles are charged up to here (sm_charge) */
    int why[16];                /* per scheduler: why it last did not issue */
    /* Schedulers whose warps last waited only on full collector units
     * (oc_waiting) or busy pipelines (unit_waiting), and on time: they look
     * again when a unit frees (dispatch) -- the second kind also when one
     * is taken (a full unit ranks above a busy pipeline) -- or at their
     * look_at, not every cycle; what their last look set in load_held, kept
     * for the cycles they do not look.  stall_retry: this look met a stall
     * that can end by the next cycle (a port, a mechanism's). */
    uint32_t oc_waiting, unit_waiting;
    bool waiting_load_held[16];
    bool stall_retry;
    uint32_t resident_warps;
    uint32_t warp_limit;        /* throttling: active warps per scheduler (0: no limit) */
    uint64_t thread_insts;      /* thread-instructions issued here, ever */
    uint64_t sent_bytes;        /* bytes of requests queued for the interconnect, ever */
    uint64_t mem_wait_slots;    /* scheduler cycles every ready warp waited on a load (TM_SLOT_RAW_MEM), ever */
    /* Turner's MSHR opportunity (Fig 7.12): a load that needs an L1D MSHR
     * was held at issue this cycle (load_held), and whether, at the end of
     * the SM's last cycle, such a load was waiting to issue or in the
     * memory pipeline while an MSHR was free (charged with the slots). */
    bool load_held, mshr_opportunity;
    unsigned char *mech;        /* the mechanisms' blocks for this SM (tm_mech_sm) */
    unsigned char *mech_warps;  /* ... and for its warp slots, one area each */
    /* Where its cycle counts, executes and reports: the launch's own
     * statistics, engine statistics and error, or -- while SMs step on
     * several host threads -- blocks of its own (step.c adds them up); the
     * lane that fires its inbox, and its chunk. */
    tm_stats *st;
    exec_stats *xst;
    exec_error *err;
    uint32_t lane, chunk;
    /* A scheduler's scratch, sized by the warp slots: the candidates in
     * order, where round robin goes on after each, the throttled list, and
     * two-level's taken marks. */
    tm_warp **order, **limited;
    uint32_t *next_rr;
    bool *taken;
    /* Stepping in parallel (ordered false), the cycle stops before an
     * instruction that reaches beyond the SM's CTAs, and goes on from park
     * in the ordered part of the step (tm_sm_resume). */
    bool ordered;
    tm_park park;
    /* Its CTAs placed in a window and not yet begun in the engine
     * (tm_sm_begin_ctas), and the CTAs that ended here, kept for the
     * engine to reuse from launch to launch (exec_cta_begin_from). */
    uint32_t unready;
    exec_cta *spare_ctas;
} tm_sm;

struct tm_gpu {
    tm_config c;
    uint64_t core_ps, icnt_ps, l2_ps, dram_ps;   /* clock periods */
    uint64_t shared_win;        /* the generic shared window (remote shared accesses) */
    uint64_t now;               /* picoseconds */
    tm_sm *sms;
    tm_partition *parts;
    /* The lanes and their chunks of SMs (step.c), and what the ordered part
     * of a step sends, by receiving lane (events.c); parity is the step's,
     * 0 or 1. */
    tm_lane *lanes;
    uint32_t nlanes, parity;
    tm_chunk *chunks;
    uint32_t nchunks;
    /* A window's chunks with an SM that has something to do in it, in id
     * order (step.c: tm_window_chunks), and marks for them by chunk. */
    uint32_t *active, nactive;
    bool *chunk_marks;
    tm_outbox *late;
    uint64_t late_min;
    tm_stats *st;               /* the launch being run */
    tm_stats scratch;           /* where statistics go between launches */
    exec_stats *xst;
    uint64_t warp_age;
    uint64_t *set_counts;       /* per-set statistics of both levels */
    const char *kernel;         /* the kernel being run */
    exec_grid *grid;            /* ... its launch (NULL between launches) */
    tm_sample *samples;         /* the time series of the current run */
    uint32_t nsamples, capsamples;
    tm_sample last_sample;      /* running totals at the previous sample */
    uint64_t next_sample;
    tm_span *spans;             /* CTA spans of the current run */
    uint32_t nspans, capspans;
    uint64_t run_start;
    exec_error *err;
    ptx_status fault;           /* a failure inside the model ends the launch */
    uint64_t budget;            /* warp-instructions a launch may issue before it is hung */
    uint64_t step_insts;        /* warp-instructions issued before this step (the budget's count) */
    /* Stepping on several host threads (step.c): the threads asked for,
     * the host time sharing a step must save for the next to be shared,
     * whether this launch may be (no mechanism, no clusters, no checks),
     * and step.c's state. */
    uint32_t threads;
    uint64_t min_saving_ns;
    bool parallel;
    bool host_timed;            /* keep host_time (tm_set_host_time) */
    tm_host_time host_time;     /* the launch's, so far */
    struct tm_stepper *stepper;
    /* With two threads or more, whether a launch may run its partitions
     * pipelined with its SMs (tm_set_pipeline), whether this one does, and
     * the pipe (pipe.c). */
    int pipe_mode;
    bool piped, lanes_piped;
    uint32_t lane_chunk;        /* the lanes' chunks' SMs (step.c) */
    /* Windows (tm_set_window, step.c): the longest asked for, this
     * launch's longest (0: steps), and the end of the one in progress. */
    uint32_t window;
    uint64_t win_cycles, win_start, win_end;
    struct tm_pipe *pipe;
    /* Over the SMs holding CTAs: how many and their resident warps, so
     * cycles skipped between events are counted without walking the SMs. */
    bool cta_room;              /* a CTA retired since placement last found no room */
    uint64_t *maybe_busy;       /* bit per SM: it may have work (set when a block is placed there) */
    uint32_t live_sms;
    uint64_t live_warps;
    /* Code addresses: each program the model runs gets its own region. */
    uint64_t code_base;         /* of the program being run */
    const void *programs[16];   /* programs seen, by region (a 17th reuses region 0) */
    uint32_t nprograms;
    /* The mechanisms (mech.h): their hooks by hook, their state, the sizes
     * of their per-SM, per-warp and per-memory-instruction areas, the times
     * of their next periodic decisions (by place in on.decide). */
    tm_mech_on on;
    tm_mech_state mech[TM_MECH_COUNT];
    const void *mech_stats[TM_MECH_COUNT];
    uint32_t mech_sm_bytes, mech_warp_bytes, mech_minst_bytes;
    uint64_t decide_at[TM_MECH_COUNT];
    bool quiet;                 /* no mechanism needs the schedulers to look every cycle */
};

/* A mechanism's state blocks (mech.h); id is its TM_MECH_* number. */
static inline void *tm_mech_gpu(const tm_gpu *g, int id) { return g->mech[id].gpu; }
static inline void *tm_mech_stats(const tm_gpu *g, int id) { return g->mech[id].stats; }
static inline void *tm_mech_sm(const tm_gpu *g, const tm_sm *sm, int id) { return sm->mech + g->mech[id].sm_off; }
static inline void *tm_mech_warp(const tm_gpu *g, const tm_warp *w, int id) { return w->mech + g->mech[id].warp_off; }
static inline void *tm_mech_minst(const tm_gpu *g, const tm_minst *m, int id)
{
    return (unsigned char *)m->mech + g->mech[id].minst_off;
}

/* pool.c: host threads to which a job is offered, one a simulated cycle.
 * Each helper (workers 1 .. threads - 1) calls fn(ctx, worker, job) for
 * the jobs it sees, job being the number tm_pool_offer was given; it may
 * come late, to a job already done, and must then do nothing. */
typedef struct tm_pool tm_pool;
tm_pool *tm_pool_new(uint32_t threads, void (*fn)(void *ctx, uint32_t worker, uint64_t job), void *ctx);
void tm_pool_free(tm_pool *p);
/* The threads it has (the caller's included): 1 for NULL. */
uint32_t tm_pool_threads(const tm_pool *p);
/* Offer job number `job` to the helpers (each larger than the last, never 0). */
void tm_pool_offer(tm_pool *p, uint64_t job);
/* Wait until *count (which other threads raise) is `until`. */
void tm_pool_wait(uint32_t *count, uint32_t until);

/* A host thread waiting on another spins a while (TM_SPINS looks, some
 * 20-50 microseconds), then yields its core at every look: on a machine
 * with fewer free cores than threads the other may be waiting for it. */
#define TM_SPINS 20000
static inline void tm_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline void tm_wait_a_little(uint32_t *spins)
{
    if (++*spins < TM_SPINS)
        tm_relax();
    else
        sched_yield();
}

/* The first core clock edge at or after t (TM_NEVER stays), and the first
 * step after now at or after t: steps fall on core clock edges. */
static inline uint64_t tm_edge(const tm_gpu *g, uint64_t t)
{
    return t == TM_NEVER ? TM_NEVER : (t + g->core_ps - 1) / g->core_ps * g->core_ps;
}

static inline uint64_t tm_step_after_now(const tm_gpu *g, uint64_t t)
{
    t = tm_edge(g, t);
    return t != TM_NEVER && t <= g->now ? g->now + g->core_ps : t;
}

/* Out of host memory: the launch ends (any host thread may say so). */
static inline void tm_out_of_memory(tm_gpu *g) { __atomic_store_n(&g->fault, PTX_E_NOMEM, __ATOMIC_RELAXED); }

/* stores.c: a window's SMs' logs of global stores.  Their stores of the
 * window's cycles before `tag` put in memory, in the order a cycle at a
 * time would (by cycle, then SM); SM sm's own so far; all of them, the
 * logs emptied (false: out of host memory, a store lost). */
void tm_logs_apply(tm_gpu *g, uint32_t tag);
void tm_log_apply_own(tm_sm *sm);
bool tm_logs_flush(tm_gpu *g);
/* Whether warp w's next instruction (on sm) may read what sm has logged
 * and not yet put in memory. */
bool tm_log_read(const tm_sm *sm, const tm_warp *w);

/* events.c */
bool tm_heap_push(tm_heap *h, uint64_t time, uint64_t seq, uint8_t kind, uint32_t where, void *ptr);
bool tm_heap_pop(tm_heap *h, tm_event *out);
void tm_heap_free(tm_heap *h);
/* An event a partition makes for itself while its events fire. */
void tm_part_event(tm_gpu *g, uint32_t part, uint64_t time, tm_event_kind kind, void *ptr);
/* What a component sends another: a request from SM sm to partition
 * `where`, a reply from partition p to SM sm. */
void tm_sm_push_event(tm_gpu *g, tm_sm *sm, uint64_t time, tm_event_kind kind, uint32_t where, void *ptr);
void tm_part_reply(tm_gpu *g, tm_partition *p, uint64_t time, uint32_t sm, void *ptr);
/* Lane L's part of a step's start: what was sent to its components last
 * step, queued; its queues with events due by now, marked in its bits,
 * each of them fired, in id order; their next events noted (L->next: its
 * earliest). */
void tm_lane_fire(tm_gpu *g, tm_lane *L);
/* ... its second half alone: its queues with events due by L->now fired. */
void tm_lane_fire_due(tm_gpu *g, tm_lane *L);
/* ... its first half alone: what was sent, queued. */
void tm_lane_receive(tm_gpu *g, tm_lane *L);
/* Windows (step.c).  SM sm takes the replies due by sm->now; its next
 * reply's time (TM_NEVER: none).  Lane L's partitions fire every event
 * due before `end`, cycle after cycle, its SMs' wakes left to them.  As
 * the launch goes back to steps, every SM's next reply noted in its lane. */
uint64_t tm_sm_take_replies(tm_gpu *g, tm_sm *sm);
void tm_lane_fire_parts(tm_gpu *g, tm_lane *L, uint64_t end);
void tm_events_rewake(tm_gpu *g);
/* Queue what o holds at its receivers, lane L noting their wakes (NULL:
 * as a launch ends), and empty it. */
void tm_receive(tm_gpu *g, tm_lane *L, tm_outbox *o);

/* pipe.c: the partitions pipelined with the SMs on a helper.  A launch's
 * pipe made ready (false: out of memory) and freed with the model; the
 * least time from a send to its arrival; the SMs' side: the replies
 * published so far queued, this step's requests published, the next step
 * (own_next: the SMs' own earliest; TM_NEVER when nothing will happen),
 * the launch's end; the partitions' side, run on the helper until the end,
 * and the rest of it up to the end run by the SMs' side if need be; and,
 * both sides done, what is still on its way queued. */
typedef struct tm_pipe tm_pipe;
bool tm_pipe_ready(tm_gpu *g);
void tm_pipe_free(tm_gpu *g);
uint64_t tm_pipe_latency(const tm_gpu *g);
void tm_pipe_sm_receive(tm_gpu *g);
void tm_pipe_sm_sent(tm_gpu *g);
uint64_t tm_pipe_sm_next(tm_gpu *g, uint64_t own_next);
void tm_pipe_sm_end(tm_gpu *g);
/* The SMs have nothing left after this step: the launch's last step (the
 * partitions' next or the SMs' next reply; TM_NEVER: none), which the
 * partitions fire before they stop. */
uint64_t tm_pipe_sm_last(tm_gpu *g);
void tm_pipe_partitions(tm_gpu *g);
void tm_pipe_drain(tm_gpu *g);
void tm_pipe_finish(tm_gpu *g);
/* The lanes' queues and outboxes as a launch begins (every queue's next
 * event noted in its lane) and ends (everything on its way queued at its
 * receiver). */
void tm_events_begin(tm_gpu *g);
void tm_events_end(tm_gpu *g);
/* The earliest event to come of any queue or outbox (TM_NEVER: none), once
 * the lanes have noted theirs (L->next). */
uint64_t tm_next_event(const tm_gpu *g);

/* memsys.c */
void tm_dispatch_event(tm_gpu *g, const tm_event *e);
/* One global/local transaction from the LSU: a hit, a miss accepted into
 * the memory system, or a reservation failure (with its hazard). */
tm_acc tm_l1_access(tm_gpu *g, tm_sm *sm, uint64_t line_addr, uint32_t sectors, uint8_t kind,
                    uint32_t bytes, tm_load *load);
/* The read-only L1s (instructions, constants, textures) hold whole lines,
 * allocate on a miss and take no writes.  tm_ro_hit looks a line up and
 * counts a hit; after a miss, tm_ro_miss counts it and makes ld wait for the
 * fill (ld NULL: a prefetch nobody waits for, which is not counted and
 * never fails for want of room -- it just is not sent). */
bool tm_ro_hit(tm_cache *c, uint64_t line_addr);
tm_acc tm_ro_miss(tm_gpu *g, tm_sm *sm, tm_cache *c, uint64_t line_addr, tm_load *ld);
/* Move queued misses into the interconnect. */
void tm_sm_inject(tm_gpu *g, tm_sm *sm);
/* A load's last transaction has returned. */
void tm_load_complete(tm_gpu *g, tm_load *ld, uint64_t when);
uint32_t tm_partition_of(const tm_gpu *g, uint64_t addr);
/* Free the requests still in flight (when the model is freed). */
void tm_memsys_free(tm_gpu *g);

/* spare.c: loads and requests, zeroed, from the calling thread's freed
 * ones or the allocator (NULL when out of memory); freed onto its lists;
 * its lists back to the allocator (a thread that stops stepping). */
tm_load *tm_load_alloc(void);
void tm_load_free(tm_load *ld);
tm_req *tm_req_alloc(void);
void tm_req_free(tm_req *r);
void tm_spare_drain(void);

#endif /* PTXSIM_TM_INT_H */
