/*
 * config.c -- the timing model's parameters: defaults, config files and
 * overrides, all from params.def.
 */
#include "timing.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct param {
    const char *name, *words, *unit, *doc;
    bool is_enum;
    uint64_t dflt, lo, hi;
    size_t offset;
} param;

static const param params[] = {
#define TM_GROUP(title, source)
#define TM_INT(n, d, l, h, unit, doc) { #n, NULL, unit, doc, false, (uint64_t)(d), (uint64_t)(l), (uint64_t)(h), offsetof(tm_config, n) },
#define TM_ENUM(n, d, w, doc) { #n, w, NULL, doc, true, (uint64_t)(d), 0, 0, offsetof(tm_config, n) },
#include "params.def"
#undef TM_GROUP
#undef TM_INT
#undef TM_ENUM
};
#define NPARAMS (sizeof params / sizeof params[0])

/* params.def's rows in order, groups included: a group's title and source,
 * or NULL for a parameter (the next one of params[]). */
static const struct { const char *title, *source; } rows[] = {
#define TM_GROUP(title, source) { title, source },
#define TM_INT(n, d, l, h, unit, doc) { NULL, NULL },
#define TM_ENUM(n, d, w, doc) { NULL, NULL },
#include "params.def"
#undef TM_GROUP
#undef TM_INT
#undef TM_ENUM
};

static void store(tm_config *c, const param *p, uint64_t v)
{
    char *base = (char *)c + p->offset;
    if (p->is_enum) {
        uint32_t x = (uint32_t)v;
        memcpy(base, &x, sizeof x);
    } else {
        memcpy(base, &v, sizeof v);
    }
}

static uint64_t load_value(const tm_config *c, const param *p)
{
    const char *base = (const char *)c + p->offset;
    if (p->is_enum) {
        uint32_t x;
        memcpy(&x, base, sizeof x);
        return x;
    }
    uint64_t v;
    memcpy(&v, base, sizeof v);
    return v;
}

void tm_config_defaults(tm_config *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < NPARAMS; i++)
        store(c, &params[i], params[i].dflt);
}

/* The i-th word of "a|b|c" into buf; false past the end. */
static bool enum_word(const char *words, unsigned i, char *buf, size_t n)
{
    const char *s = words;
    for (unsigned k = 0; k < i; k++) {
        s = strchr(s, '|');
        if (!s)
            return false;
        s++;
    }
    size_t len = strcspn(s, "|");
    if (len >= n)
        len = n - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return true;
}

/* Set one parameter from its text; a message in why on failure. */
static bool set_one(tm_config *c, const char *key, size_t klen, const char *val, char *why, size_t wn)
{
    const param *p = NULL;
    for (size_t i = 0; i < NPARAMS && !p; i++)
        if (strlen(params[i].name) == klen && strncmp(params[i].name, key, klen) == 0)
            p = &params[i];
    if (!p) {
        snprintf(why, wn, "unknown parameter '%.*s'", (int)klen, key);
        return false;
    }
    if (p->is_enum) {
        char w[64];
        for (unsigned i = 0; enum_word(p->words, i, w, sizeof w); i++)
            if (strcmp(w, val) == 0) {
                store(c, p, i);
                return true;
            }
        snprintf(why, wn, "%s must be one of %s, not '%s'", p->name, p->words, val);
        return false;
    }
    errno = 0;
    char *end;
    unsigned long long v = strtoull(val, &end, 0);
    if (*end == 'K' || *end == 'k')
        v <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        v <<= 20, end++;
    if (errno || end == val || *end != '\0' || val[0] == '-') {
        snprintf(why, wn, "%s needs a non-negative integer, not '%s'", p->name, val);
        return false;
    }
    if (v < p->lo || v > p->hi) {
        snprintf(why, wn, "%s = %llu is out of range [%llu, %llu]", p->name, v,
                 (unsigned long long)p->lo, (unsigned long long)p->hi);
        return false;
    }
    store(c, p, v);
    return true;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

ptx_status tm_config_parse(tm_config *c, const char *text, size_t len, const char *name, ptx_diag *diag)
{
    ptx_status st = PTX_OK;
    uint32_t lineno = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        p += n + (nl ? 1 : 0);
        lineno++;
        if (memchr(line, '\0', strlen(line) + 1) != line + strlen(line))
            continue;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(line);
        if (!*s)
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            st = ptx_error(diag, PTX_E_INVALID_VALUE, name, lineno, 1, "expected 'name = value', found '%s'", s);
            continue;
        }
        *eq = '\0';
        char *key = trim(s), *val = trim(eq + 1);
        char why[200];
        if (!*val) {
            st = ptx_error(diag, PTX_E_INVALID_VALUE, name, lineno, 1, "%s has no value", key);
            continue;
        }
        if (!set_one(c, key, strlen(key), val, why, sizeof why))
            st = ptx_error(diag, PTX_E_INVALID_VALUE, name, lineno, 1, "%s", why);
    }
    return st;
}

bool tm_config_set_one(tm_config *c, const char *key, const char *val, char *why, size_t wn)
{
    return set_one(c, key, strlen(key), val, why, wn);
}

ptx_status tm_config_load(tm_config *c, const char *path, FILE *notes, ptx_diag *diag)
{
    size_t len;
    char *text = ptx_read_file(path, &len);
    if (!text)
        return ptx_error(diag, errno == ENOMEM ? PTX_E_NOMEM : PTX_E_IO, path, 0, 0,
                         "cannot read the config file: %s", strerror(errno));
    /* The format is told by the content: GPGPU-Sim's files are "-option
     * value" lines, ours "name = value". */
    ptx_status st = tm_gpgpusim_detect(text, len) ? tm_gpgpusim_parse(c, text, len, path, notes, diag)
                                                  : tm_config_parse(c, text, len, path, diag);
    free(text);
    return st;
}

ptx_status tm_config_set(tm_config *c, const char *assignments, ptx_diag *diag)
{
    ptx_status st = PTX_OK;
    const char *s = assignments;
    while (*s) {
        size_t len = strcspn(s, ",");
        char item[256];
        snprintf(item, sizeof item, "%.*s", (int)len, s);
        char *eq = strchr(item, '=');
        char why[200];
        if (!eq) {
            st = ptx_error(diag, PTX_E_INVALID_VALUE, "override", 0, 0, "expected name=value, found '%s'", item);
        } else {
            *eq = '\0';
            char *key = trim(item), *val = trim(eq + 1);
            if (!set_one(c, key, strlen(key), val, why, sizeof why))
                st = ptx_error(diag, PTX_E_INVALID_VALUE, "override", 0, 0, "%s", why);
        }
        s += len;
        if (*s == ',')
            s++;
    }
    return st;
}

static bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

ptx_status tm_config_check(const tm_config *c, ptx_diag *diag)
{
    ptx_status st = PTX_OK;
#define NEED(cond, ...) do { if (!(cond)) st = ptx_error(diag, PTX_E_INVALID_VALUE, "config", 0, 0, __VA_ARGS__); } while (0)
    NEED(c->l2_return_latency <= c->l2_latency, "l2_return_latency (%llu) is a part of l2_latency (%llu): no larger",
         (unsigned long long)c->l2_return_latency, (unsigned long long)c->l2_latency);
    NEED(pow2(c->l1_line) && pow2(c->l1_sector) && c->l1_sector <= c->l1_line,
         "l1_line (%llu) and l1_sector (%llu) must be powers of two, sector <= line",
         (unsigned long long)c->l1_line, (unsigned long long)c->l1_sector);
    NEED(pow2(c->l2_line) && pow2(c->l2_sector) && c->l2_sector <= c->l2_line,
         "l2_line and l2_sector must be powers of two, sector <= line");
    NEED(!c->l1i_sets || (pow2(c->l1i_line) && c->l1i_line <= c->l2_line),
         "l1i_line (%llu) must be a power of two no larger than l2_line (%llu)",
         (unsigned long long)c->l1i_line, (unsigned long long)c->l2_line);
    NEED(!c->l1c_sets || (pow2(c->l1c_line) && c->l1c_line <= c->l2_line),
         "l1c_line (%llu) must be a power of two no larger than l2_line (%llu)",
         (unsigned long long)c->l1c_line, (unsigned long long)c->l2_line);
    NEED(!c->l1t_sets || (pow2(c->l1t_line) && c->l1t_line <= c->l2_line),
         "l1t_line (%llu) must be a power of two no larger than l2_line (%llu)",
         (unsigned long long)c->l1t_line, (unsigned long long)c->l2_line);
    NEED(pow2(c->partition_stride), "partition_stride must be a power of two");
    NEED(c->dram_row_bytes % c->l2_line == 0, "dram_row_bytes must be a multiple of l2_line");
    NEED(c->sm_max_threads % 32 == 0, "sm_max_threads must be a multiple of 32");
    NEED(c->dom == TM_DOM_OFF || c->hazard_policy == TM_HAZ_STALL,
         "dom (diverge on miss) works with hazard_policy=stall only");
    NEED(c->dom == TM_DOM_OFF || c->pmode == TM_PMODE_OFF,
         "dom (diverge on miss) and pmode (pre-execution) cannot both be on");
#undef NEED
    return st;
}

void tm_config_print(FILE *out, const tm_config *c)
{
    for (size_t i = 0; i < NPARAMS; i++) {
        const param *p = &params[i];
        uint64_t v = load_value(c, p);
        char val[64];
        if (p->is_enum)
            enum_word(p->words, (unsigned)v, val, sizeof val);
        else
            snprintf(val, sizeof val, "%llu", (unsigned long long)v);
        fprintf(out, "%-20s = %-10s # %s%s%s\n", p->name, val, p->doc, p->is_enum ? ": " : "",
                p->is_enum ? p->words : "");
    }
}

size_t tm_param_count(void) { return NPARAMS; }

tm_param_desc tm_param_at(size_t i)
{
    const param *p = &params[i];
    tm_param_desc d = { .name = p->name, .doc = p->doc, .words = p->words, .unit = p->unit,
                        .is_enum = p->is_enum, .dflt = p->dflt, .lo = p->lo, .hi = p->hi };
    size_t seen = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0] && seen <= i; r++) {
        if (rows[r].title) {
            d.group = rows[r].title;
            d.source = rows[r].source;
        } else {
            seen++;
        }
    }
    if (p->is_enum) {
        unsigned n = 1;
        for (const char *w = p->words; *w; w++)
            n += *w == '|';
        d.lo = 0;
        d.hi = n - 1;
    }
    return d;
}

void tm_param_format(const tm_config *c, size_t i, char *buf, size_t n)
{
    const param *p = &params[i];
    uint64_t v = load_value(c, p);
    if (p->is_enum)
        enum_word(p->words, (unsigned)v, buf, n);
    else
        snprintf(buf, n, "%llu", (unsigned long long)v);
}
