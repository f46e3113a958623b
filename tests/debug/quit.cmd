# Mistakes get a message and change nothing; displays; ending the program
# from a breakpoint.
frobnicate
break no_such_function
print %r1
break collatz_steps
break _Z7divergePi
break diverge(int*)
disable 3 4
info breakpoints
run
backtrace
info cuda kernels
info cuda blocks
print %nosuch
x/4xw 0x10
display %r8
display/x $pc
stepi
undisplay 1
stepi
info display
up
info frame
x/2dw local:0x10
down
info registers %r8 %p1
quit 3
