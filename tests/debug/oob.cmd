# A watchpoint on global memory, then an out-of-bounds write that stops
# the kernel at the faulting instruction, with the thread and the address.
watch *(int*)($out + 8)
run
print threadIdx.x
continue
print %r7
print %r8
print/x %rd4 - $out
x/2dw $out + 248
backtrace
info cuda lanes
continue
