/*
 * dram.c -- one DRAM channel per memory partition: banks with open rows,
 * a request queue, a first-ready first-come-first-served (FR-FCFS) or
 * plain FCFS scheduler, and a shared data bus.
 *
 * A request to the open row of a bank costs a column access (tCL); any
 * other costs a precharge (tRP, no earlier than tRAS after the row was
 * activated), an activate (tRCD, and tRRD after the last activate of any
 * bank) and the column access.  Column commands are tCCD apart (tCCDL
 * within one bank group, as GDDR5 and HBM have them), and a read waits
 * tCDLR after a write's data.  The data then occupy the bus for bytes /
 * dram_bus_bytes DRAM cycles.  Commands to different banks overlap; the
 * bus serialises the data.
 */
#include "dram.h"

#include <stdlib.h>
#include <string.h>

bool tm_dram_init(tm_dram *d, const tm_config *c)
{
    memset(d, 0, sizeof *d);
    d->banks = calloc(c->dram_banks, sizeof *d->banks);
    if (!d->banks)
        return false;
    for (uint32_t b = 0; b < c->dram_banks; b++)
        d->banks[b].open_row = TM_NEVER;
    d->last_col = d->last_act = TM_NEVER;
    return true;
}

void tm_dram_free(tm_dram *d)
{
    free(d->banks);
    d->banks = NULL;
}

/* Bank and row of an address within its partition: drop the partition
 * interleaving bits, then rows are bank-interleaved. */
static void locate(const tm_gpu *g, uint64_t addr, uint32_t *bank, uint64_t *row)
{
    const tm_config *c = &g->c;
    uint64_t stride = c->partition_stride;
    uint64_t local = addr / (stride * c->n_partitions) * stride + addr % stride;
    uint64_t page = local / c->dram_row_bytes;
    *bank = (uint32_t)(page % c->dram_banks);
    *row = page / c->dram_banks;
}

bool tm_dram_full(const tm_gpu *g, const tm_dram *d)
{
    return d->queued >= g->c.dram_queue;
}

void tm_dram_enqueue(tm_gpu *g, uint32_t part, tm_req *r)
{
    tm_dram *d = &g->parts[part].dram;
    r->next = NULL;
    tm_req **tail = &d->queue;
    while (*tail)
        tail = &(*tail)->next;
    *tail = r;
    d->queued++;
    if (!d->busy) {
        d->busy = true;
        tm_part_event(g, part, g->parts[part].now, EV_DRAM_TICK, NULL);
    }
}

/* Pick the next request: the oldest row hit on a ready bank (FR-FCFS), else
 * the oldest. */
static tm_req **pick(tm_gpu *g, tm_dram *d)
{
    if (g->c.dram_scheduler == 0) {
        for (tm_req **p = &d->queue; *p; p = &(*p)->next) {
            uint32_t bank;
            uint64_t row;
            locate(g, (*p)->addr, &bank, &row);
            if (d->banks[bank].open_row == row)
                return p;
        }
    }
    return &d->queue;
}

void tm_dram_tick(tm_gpu *g, uint32_t part)
{
    tm_partition *p = &g->parts[part];
    tm_dram *d = &p->dram;
    const tm_config *c = &g->c;
    if (!d->queue) {
        d->busy = false;
        return;
    }
    tm_req **pp = pick(g, d), *r = *pp;
    *pp = r->next;
    r->next = NULL;
    d->queued--;
    uint32_t bank;
    uint64_t row;
    locate(g, r->addr, &bank, &row);
    tm_bank *b = &d->banks[bank];
    uint64_t t = p->now > b->ready ? p->now : b->ready, ps = g->dram_ps;
    if (b->open_row == row) {
        p->st->dram_row_hits++;
    } else {
        if (b->open_row != TM_NEVER) {
            uint64_t ras_done = b->activated + c->dram_tRAS * ps;
            t = (t > ras_done ? t : ras_done) + c->dram_tRP * ps;
        }
        /* Activates of different banks are tRRD apart. */
        if (c->dram_tRRD && d->last_act != TM_NEVER && t < d->last_act + c->dram_tRRD * ps)
            t = d->last_act + c->dram_tRRD * ps;
        d->last_act = b->activated = t;
        t += c->dram_tRCD * ps;
        b->open_row = row;
    }
    /* Column commands are tCCD apart, tCCDL within one bank group; a read
     * waits tCDLR after the last write's data (the bus turns around). */
    uint32_t group = bank % (uint32_t)c->dram_bank_groups;
    if (d->last_col != TM_NEVER) {
        uint64_t gap = (group == d->last_group ? c->dram_tCCDL : c->dram_tCCD) * ps;
        if (gap && t < d->last_col + gap)
            t = d->last_col + gap;
    }
    if (c->dram_tCDLR && r->kind != REQ_WRITE && d->write_end && t < d->write_end + c->dram_tCDLR * ps)
        t = d->write_end + c->dram_tCDLR * ps;
    d->last_col = t;
    d->last_group = group;
    uint64_t col = t + c->dram_tCL * ps;
    uint64_t burst = (r->bytes + c->dram_bus_bytes - 1) / c->dram_bus_bytes * ps;
    uint64_t data = col > d->bus_free ? col : d->bus_free;
    d->bus_free = data + burst;
    if (r->kind == REQ_WRITE)
        d->write_end = d->bus_free;
    b->ready = t + burst;           /* next column command to this bank */
    p->st->dram_busy_cycles += burst / ps;
    if (r->kind == REQ_WRITE)
        p->st->dram_writes++;
    else
        p->st->dram_reads++;
    uint64_t done = d->bus_free + (r->kind == REQ_WRITE ? 0 : c->dram_latency * g->core_ps);
    tm_part_event(g, part, done, EV_DRAM_DONE, r);
    /* One command per DRAM cycle: the next request may start a cycle later
     * on another bank while this one's data is still coming. */
    tm_part_event(g, part, p->now + ps, EV_DRAM_TICK, NULL);
}
