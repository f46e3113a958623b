# A cooperative launch, PTX without line information: every block is
# resident at once, and they wait for each other at a grid-wide barrier.
break grid_exchange
run
list
info cuda blocks
cuda block (3,0,0) thread (95)
print %tid.x + %ctaid.x * %ntid.x
watch *(int*)($y + 4)
continue
print threadIdx
print blockIdx
info cuda blocks
next
delete
continue
