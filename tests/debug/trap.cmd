# A trap: grid-wide synchronisation outside a cooperative launch.
run
info cuda blocks
print/x %rd1
continue
