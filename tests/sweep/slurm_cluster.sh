# slurm_cluster.sh -- sourced: a one-node Slurm cluster in a scratch folder,
# on loopback only, for tests.  slurm_start DIR starts munged, slurmctld and
# slurmd (2 CPUs) and exports SLURM_CONF; slurm_stop stops the three.  Each
# daemon runs in the foreground of a background job, so it is stopped by
# its own process id.

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

slurm_start() {
  SLURM_DIR=$1
  mkdir -p "$SLURM_DIR/state" "$SLURM_DIR/spool"
  chmod 700 "$SLURM_DIR"
  head -c 1024 /dev/urandom > "$SLURM_DIR/munge.key"
  chmod 400 "$SLURM_DIR/munge.key"
  munged --foreground --force --key-file="$SLURM_DIR/munge.key" --socket="$SLURM_DIR/munge.sock" \
    --pid-file="$SLURM_DIR/munged.pid" --log-file="$SLURM_DIR/munged.log" \
    --seed-file="$SLURM_DIR/munged.seed" 2>>"$SLURM_DIR/munged.log" &
  MUNGED_PID=$!
  host=$(hostname -s)
  cat > "$SLURM_DIR/slurm.conf" <<CONF
ClusterName=ptxsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SLURM_DIR/munge.sock
CredType=cred/munge
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=300
# Small, so that the test's 8 cells need two job arrays (slurm.py splits
# a sweep at MaxArraySize, which is 1001 on a default cluster).
MaxArraySize=5
InactiveLimit=0
KillWait=2
Waittime=0
NodeName=ptxsim1 NodeHostname=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ptxsim1 Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$SLURM_DIR/slurm.conf"
  for _ in $(seq 50); do [ -S "$SLURM_DIR/munge.sock" ] && break; sleep 0.1; done
  slurmctld -D -c -f "$SLURM_CONF" >>"$SLURM_DIR/slurmctld.out" 2>&1 &
  SLURMCTLD_PID=$!
  slurmd -D -N ptxsim1 -f "$SLURM_CONF" >>"$SLURM_DIR/slurmd.out" 2>&1 &
  SLURMD_PID=$!
  # Ready when the node is idle.
  for _ in $(seq 100); do
    state=$(sinfo --noheader --nodes=ptxsim1 --format=%t 2>/dev/null)
    [ "$state" = idle ] && return 0
    sleep 0.2
  done
  echo "slurm: the node did not come up (state '$state'); logs in $SLURM_DIR" >&2
  tail -5 "$SLURM_DIR/slurmctld.log" "$SLURM_DIR/slurmd.log" "$SLURM_DIR/munged.log" >&2
  return 1
}

slurm_stop() {
  for pid in ${SLURMD_PID:-} ${SLURMCTLD_PID:-} ${MUNGED_PID:-}; do
    kill "$pid" 2>/dev/null
  done
  for pid in ${SLURMD_PID:-} ${SLURMCTLD_PID:-} ${MUNGED_PID:-}; do
    wait "$pid" 2>/dev/null
  done
  SLURMD_PID= SLURMCTLD_PID= MUNGED_PID=
}
