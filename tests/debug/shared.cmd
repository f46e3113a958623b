# Shared memory across a barrier: what each warp has written before it,
# examined and watched.
break dbg_kernels.cu:38
run
x/8dw shared:0
x/4dw shared:0x80
info cuda warps
watch *(int*)shared:0x80
continue
info cuda warps
x/4dw shared:0x78
delete
break dbg_kernels.cu:39
continue
print %r2
stepi 3
print %r12
x/2dw shared:0xf8
print *(int*)(shared:0 + 4 * %r12)
print buf[blockDim.x - 1 - t]
print buf
print data[t]
cuda block (1,0,0)
cuda thread (40)
print %r2
delete
continue
