/*
 * sem_bitcode.c -- isa/ compiled to LLVM bitcode (jit/CMakeLists.txt builds
 * it with clang), embedded in the library: every compiled module starts as
 * a copy of it, so the units inline the interpreter's own semantics.
 */
#ifndef PTXSIM_SEM_BITCODE
#error "PTXSIM_SEM_BITCODE must name the bitcode file"
#endif

__asm__(".section .rodata\n"
        ".balign 16\n"
        ".globl jit_sem_bitcode\n"
        ".hidden jit_sem_bitcode\n"
        "jit_sem_bitcode:\n"
        ".incbin \"" PTXSIM_SEM_BITCODE "\"\n"
        ".globl jit_sem_bitcode_end\n"
        ".hidden jit_sem_bitcode_end\n"
        "jit_sem_bitcode_end:\n"
        ".previous\n");
