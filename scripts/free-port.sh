#!/usr/bin/env bash
# Prints the first TCP port from $1 (default 10002) that nothing on 127.0.0.1 listens on.
port=${1:-10002}
while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
  port=$((port + 1))
done
echo "$port"
