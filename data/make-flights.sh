#!/usr/bin/env bash
# Writes data/flights.csv.gz, the quick start's input: 50,000 skewed flights from tools/DataGen (seed 7: 150
# destinations of 1 to 9,280 rows, 23 rows repeating an earlier key) with six broken rows put in among them, so
# that the load shows every end a row can come to: written, superseded, rejected with a reason.
# Deterministic: the same DataGen gives the same bytes (gzip -n stores no name or time).
set -euo pipefail
cd "$(dirname "$0")/.."
dotnet build tools/DataGen -c Release -nologo -v quiet >/dev/null
dotnet tools/DataGen/bin/Release/net10.0/DataGen.dll --rows 100000 --columns 12 --shape skewed --seed 7 \
  | awk '
      NR == 9001  { print "2013,6,14,AA,1712,JFK,LAX,n/a,12,2475,false,N123AA" }       # not an Int32
      NR == 25001 { print "2013,7,2,DL,88,ATL,,5,3,760,false,N301DL" }               # empty partition key
      NR == 42001 { print "2013,8,9,UA,440,ORD,SFO,15,22,1846,maybe,N77UA" }          # not a Boolean
      NR == 61001 { print "2013,9,30,WN,2001,DAL,HOU,\"3,4,239,false,N900WN" }        # a quote that never closes
      NR == 80001 { print "2013,10,5,B6,27,BOS,MCO,1.5,0,1121,false,N555JB" }         # a decimal in an Int32 column
      NR == 97001 { print "2013,11,1,AS,9,SEA" }                                      # too few fields
      { print }' \
  | gzip -9 -n >data/flights.csv.gz
echo "wrote data/flights.csv.gz ($(stat -c %s data/flights.csv.gz) bytes)" >&2
