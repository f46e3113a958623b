# Breakpoints on a PTX line and on a CUDA source line of a kernel built
# with nvcc -G; registers, special registers, memory; a kernel-entry
# breakpoint that persists from one launch to the next.  The first
# commands come before the program has launched anything.
break ptx:41
break vector_add.cu:12
info breakpoints
list
run
info breakpoints
print %r5
print %r6
stepi
print %r1
print threadIdx
print blockIdx.x * blockDim.x + threadIdx.x == %r1
info registers %r1 %r2 %p
list
list vector_add.cu:12
continue
print/x %r1 @all
info args
info locals
print a[i] + b[i]
next
print c[i] == a[i] + b[i]
x/4fw $c
print *(float*)($c + 4)
print %f1 + %f2 == %f3
x/2xg param:0
print *(int*)param:24
delete 1
continue
info cuda warps
disable 2
break vector_add if blockIdx.x == 1
continue
print blockIdx
info breakpoints
continue
info breakpoints
delete
continue
