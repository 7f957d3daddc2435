#!/usr/bin/env bash
# Starts a single-node Slurm cluster on this machine (as root; Debian slurm-wlm and munge),
# for CI and for trying scripts/slurm/tree.sbatch: one node with this machine's cores, one
# partition `ci`. `single-node.sh stop` stops its daemons again. Overwrites
# /etc/slurm/slurm.conf: not for a machine that is already part of a cluster. Its state lives in
# /var/spool/mmtree-slurm*, apart from any other test cluster's.
set -euo pipefail
if [ "${1:-}" = stop ]; then
  for pidfile in /run/slurmd.pid /run/slurmctld.pid /run/munge/munged.pid; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  exit 0
fi
host=$(hostname -s)
cpus=$(nproc)
mkdir -p /etc/slurm /var/spool/mmtree-slurmd /var/spool/mmtree-slurmctld /var/log/slurm /run/munge
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=mmtree-ci
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/spool/mmtree-slurmd
StateSaveLocation=/var/spool/mmtree-slurmctld
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
if [ ! -s /etc/munge/munge.key ]; then
  mkdir -p /etc/munge
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  chmod 400 /etc/munge/munge.key
fi
chown -R munge:munge /etc/munge /run/munge 2>/dev/null || true
pgrep -x munged >/dev/null || munged --force
pgrep -x slurmctld >/dev/null || slurmctld
pgrep -x slurmd >/dev/null || slurmd
# The node registers within a few seconds.
for _ in $(seq 30); do
  if sinfo -h -o %T 2>/dev/null | grep -qx idle; then
    exit 0
  fi
  sleep 1
done
echo "single-node.sh: the Slurm node did not come up (see /var/log/slurm/)" >&2
exit 1
