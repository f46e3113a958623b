# Conditional breakpoints: on block and thread coordinates, and on a
# register (a temporary one); changing conditions, disabling, moving the
# focus to a lane.
break dbg_kernels.cu:29 if blockIdx.x == 1 && threadIdx.x == 3
run
print threadIdx
print blockIdx
print %r11
info breakpoints
condition 1 blockIdx.x == 1 && threadIdx.x == 5
disable 1
tbreak ptx:158 if %r4 > 20
continue
print %r4
print v
print %r4 @all
cuda lane 5
print %r4
info breakpoints
enable 1
condition 1
info breakpoints
delete
continue
