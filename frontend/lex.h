/*
 * lex.h -- the PTX tokenizer (internal to frontend/).
 */
#ifndef PTXSIM_FE_LEX_H
#define PTXSIM_FE_LEX_H

#include "frontend.h"

typedef enum {
    TK_EOF,
    TK_IDENT,       /* foo, %r1, $L__BB0_2, _Z3fooi */
    TK_DOT,         /* .global, .u32, .shared::cta: a dot-word, text includes the '.' */
    TK_INT,         /* 42, 0x2A, 052, 0b101 (ival) */
    TK_FLOAT,       /* 1.5, 1e-3 (dval, as double) */
    TK_F32,         /* 0f3F800000 (ival = bits) */
    TK_F64,         /* 0d3FF0000000000000 (ival = bits) */
    TK_STRING,      /* "..." (text includes the quotes) */
    TK_PUNCT,       /* one character: , ; : [ ] { } ( ) < > + - ! @ | = */
    TK_ERROR,       /* a character that starts no token */
} fe_tok_kind;

typedef struct fe_token {
    fe_tok_kind kind;
    char ch;                /* TK_PUNCT: the character */
    bool space_before;      /* whitespace (or a comment) precedes the token */
    const char *text;
    uint32_t len;
    uint32_t line, col;
    uint64_t ival;
    double dval;
} fe_token;

typedef struct fe_lexer {
    const char *src, *end, *p;
    const char *line_start;
    uint32_t line;
} fe_lexer;

void fe_lex_init(fe_lexer *lx, const char *text, size_t len);
void fe_lex_next(fe_lexer *lx, fe_token *t);

#endif /* PTXSIM_FE_LEX_H */
