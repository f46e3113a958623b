# .b128 registers: both halves of a value, and each register in its own
# pair of columns (info registers).
break wide
run
stepi 11
info registers %q0 %q1 %q2
print/u %q1
print/d %q2
print/t %q1
print/u %q0
cuda thread (5)
print/u %q0
info registers %q0
continue
