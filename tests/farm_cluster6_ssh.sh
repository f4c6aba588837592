#!/bin/sh
# The six-host cluster with its slave pvmds started through ssh
# (cluster-up.sh --ssh): tests/farm_cluster6.sh --ssh.
exec "${LB_TOP_SRCDIR:-.}/tests/farm_cluster6.sh" --ssh
