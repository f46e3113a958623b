# Stepping through a divergent branch and into a device function, with the
# SIMT reconvergence stack at each point.
break diverge
run
next
next
info simt
next
info simt
info cuda lanes
step
backtrace
info simt
next
print %r8 @all
cuda lane 3
info args
next
next
print n
print steps
frame 1
print %r1
down
list
finish
stepi
print %r3 @all
next
next
next
info locals
next
info simt
print %r4 @all
print v @all
continue
