# Threads that never reach a barrier: the deadlock stops where the others
# wait.
run
info cuda warps
info simt
cuda warp 1
info cuda lanes
info cuda blocks
continue
