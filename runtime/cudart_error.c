/*
 * cudart_error.c -- error names and messages (errors.def), and the calling
 * thread's last error.  A fault inside a kernel is sticky: it stays the
 * answer of cudaGetLastError and of every later call (rt_last_error).
 */
#include "rt_int.h"

static const struct { cudaError_t code; const char *name, *message; } error_table[] = {
#define RT_ERROR(name, msg) { name, #name, msg },
#include "errors.def"
#undef RT_ERROR
};

#define NERRORS (sizeof error_table / sizeof error_table[0])

const char *cudaGetErrorString(cudaError_t error)
{
    for (size_t i = 0; i < NERRORS; i++)
        if (error_table[i].code == error)
            return error_table[i].message;
    return "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t error)
{
    for (size_t i = 0; i < NERRORS; i++)
        if (error_table[i].code == error)
            return error_table[i].name;
    return "unrecognized error code";
}

cudaError_t cudaGetLastError(void)
{
    RT_ASYNC_ENTRY();
    return rt_last_error(true);
}

cudaError_t cudaPeekAtLastError(void)
{
    RT_ASYNC_ENTRY();
    return rt_last_error(false);
}
