#!/usr/bin/env bash
# issue 45: the one-GPU reference harness (both parts) on the current tree
o=$OUT/ref; mkdir -p $o; t0=$SECONDS
bash benchmarks/run_reference.sh $o 1 1; echo "part 1 done [$((SECONDS-t0)) s]"
bash benchmarks/run_reference.sh $o 2 1; echo "part 2 done [$((SECONDS-t0)) s]"
cd $OUT && tar czf ref.tgz ref && rm -rf ref
