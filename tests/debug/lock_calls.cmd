# A spin lock taken in a function (a -G build): the lane that got the lock
# is at unlock() while the others still spin inside lock(), in a lane group
# of their own.
break unlock
run
info cuda lanes
backtrace
stepi
print l @all
cuda lane 7
print l
cuda lane 0
finish
next
info cuda lanes
delete 1
continue
