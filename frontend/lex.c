/*
 * lex.c -- the PTX tokenizer.
 *
 * One pass over the text with a character-class table, so the inner loops
 * test a table entry rather than chains of comparisons.  Tokens point into
 * the source; nothing is copied.
 */
#include "lex.h"

#include <stdlib.h>
#include <string.h>

enum {
    C_SPACE = 1,    /* blank, tab, CR, LF */
    C_IDSTART = 2,  /* may start an identifier: letters _ $ % */
    C_IDCHAR = 4,   /* may continue one: letters digits _ $ */
    C_DIGIT = 8,
    C_HEX = 16,
};

static unsigned char cls[256];

__attribute__((constructor)) static void init_classes(void)
{
    for (int c = 0; c < 256; c++) {
        unsigned char k = 0;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v')
            k |= C_SPACE;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$')
            k |= C_IDSTART | C_IDCHAR;
        if (c == '%')
            k |= C_IDSTART;
        if (c >= '0' && c <= '9')
            k |= C_DIGIT | C_IDCHAR | C_HEX;
        if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
            k |= C_HEX;
        cls[c] = k;
    }
}

void fe_lex_init(fe_lexer *lx, const char *text, size_t len)
{
    lx->src = lx->p = lx->line_start = text;
    lx->end = text + len;
    lx->line = 1;
}

/* Skip blanks and comments; count lines.  Returns true if anything skipped. */
static bool skip_space(fe_lexer *lx)
{
    const char *p = lx->p, *start = p;
    for (;;) {
        while (p < lx->end && (cls[(unsigned char)*p] & C_SPACE)) {
            if (*p == '\n') {
                lx->line++;
                lx->line_start = p + 1;
            }
            p++;
        }
        if (p + 1 < lx->end && p[0] == '/' && p[1] == '/') {
            while (p < lx->end && *p != '\n')
                p++;
            continue;
        }
        if (p + 1 < lx->end && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (p + 1 < lx->end && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n') {
                    lx->line++;
                    lx->line_start = p + 1;
                }
                p++;
            }
            p = p + 1 < lx->end ? p + 2 : lx->end;
            continue;
        }
        break;
    }
    lx->p = p;
    return p != start;
}

static int hexval(char c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static void lex_number(fe_lexer *lx, fe_token *t)
{
    const char *p = lx->p, *e = lx->end;
    /* 0f / 0d hex floats: exactly 8 or 16 hex digits. */
    if (p + 1 < e && p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
        bool dbl = p[1] == 'd' || p[1] == 'D';
        unsigned want = dbl ? 16 : 8, n = 0;
        uint64_t v = 0;
        const char *q = p + 2;
        while (q < e && (cls[(unsigned char)*q] & C_HEX) && n < want) {
            v = v << 4 | (uint64_t)hexval(*q++);
            n++;
        }
        if (n == want) {
            t->kind = dbl ? TK_F64 : TK_F32;
            t->ival = v;
            lx->p = q;
            return;
        }
    }
    /* A decimal float has a '.' followed by a digit or an exponent. */
    const char *q = p;
    bool is_float = false;
    if (!(q + 1 < e && q[0] == '0' && (q[1] == 'x' || q[1] == 'X' || q[1] == 'b' || q[1] == 'B'))) {
        while (q < e && (cls[(unsigned char)*q] & C_DIGIT))
            q++;
        if (q < e && *q == '.' && q + 1 < e && (cls[(unsigned char)q[1]] & C_DIGIT))
            is_float = true;
        else if (q < e && (*q == 'e' || *q == 'E'))
            is_float = true;
    }
    if (is_float) {
        char buf[64];
        const char *s = p;
        while (s < e && ((cls[(unsigned char)*s] & C_DIGIT) || *s == '.' || *s == 'e' ||
                         *s == 'E' || ((*s == '+' || *s == '-') && (s[-1] == 'e' || s[-1] == 'E'))))
            s++;
        size_t n = (size_t)(s - p) < sizeof buf - 1 ? (size_t)(s - p) : sizeof buf - 1;
        memcpy(buf, p, n);
        buf[n] = '\0';
        t->kind = TK_FLOAT;
        t->dval = strtod(buf, NULL);
        lx->p = s;
        return;
    }
    uint64_t v = 0;
    q = p;
    if (q + 1 < e && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
        q += 2;
        while (q < e && (cls[(unsigned char)*q] & C_HEX))
            v = v << 4 | (uint64_t)hexval(*q++);
    } else if (q + 1 < e && q[0] == '0' && (q[1] == 'b' || q[1] == 'B')) {
        q += 2;
        while (q < e && (*q == '0' || *q == '1'))
            v = v << 1 | (uint64_t)(*q++ - '0');
    } else if (q[0] == '0') {
        while (q < e && *q >= '0' && *q <= '7')
            v = v * 8 + (uint64_t)(*q++ - '0');
    } else {
        while (q < e && (cls[(unsigned char)*q] & C_DIGIT))
            v = v * 10 + (uint64_t)(*q++ - '0');
    }
    if (q < e && (*q == 'U' || *q == 'u'))      /* unsigned suffix */
        q++;
    t->kind = TK_INT;
    t->ival = v;
    lx->p = q;
}

void fe_lex_next(fe_lexer *lx, fe_token *t)
{
    t->space_before = skip_space(lx);
    const char *p = lx->p, *e = lx->end;
    t->text = p;
    t->line = lx->line;
    t->col = (uint32_t)(p - lx->line_start) + 1;
    t->ival = 0;
    if (p >= e) {
        t->kind = TK_EOF;
        t->len = 0;
        return;
    }
    unsigned char c = (unsigned char)*p;
    if (cls[c] & C_IDSTART) {
        const char *q = p + 1;
        while (q < e && (cls[(unsigned char)*q] & C_IDCHAR))
            q++;
        t->kind = TK_IDENT;
        lx->p = q;
    } else if (c == '.' && p + 1 < e && (cls[(unsigned char)p[1]] & C_IDCHAR)) {
        /* .word, with ::scope suffixes (.shared::cta, .L2::cache_hint). */
        const char *q = p + 1;
        for (;;) {
            while (q < e && (cls[(unsigned char)*q] & C_IDCHAR))
                q++;
            if (q + 2 < e && q[0] == ':' && q[1] == ':' && (cls[(unsigned char)q[2]] & C_IDCHAR))
                q += 2;
            else
                break;
        }
        t->kind = TK_DOT;
        lx->p = q;
    } else if (cls[c] & C_DIGIT) {
        lex_number(lx, t);
    } else if (c == '"') {
        const char *q = p + 1;
        while (q < e && *q != '"' && *q != '\n') {
            if (*q == '\\' && q + 1 < e)
                q++;
            q++;
        }
        if (q < e && *q == '"')
            q++;
        t->kind = TK_STRING;
        lx->p = q;
    } else if (strchr(",;:[]{}()<>+-!@|=*/", c) && c) {
        t->kind = TK_PUNCT;
        t->ch = (char)c;
        lx->p = p + 1;
    } else {
        t->kind = TK_ERROR;
        t->ch = (char)c;
        lx->p = p + 1;
    }
    t->len = (uint32_t)(lx->p - p);
}
