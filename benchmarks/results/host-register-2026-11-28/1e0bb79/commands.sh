#!/usr/bin/env bash
o=$OUT/h; mkdir -p $o
make -j16 lib build/test_pageable > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
for r in 1 0; do BLASX_HOST_REGISTER=$r BLASX_HOST_REGISTER_MIN_MB=1 timeout 120 build/test_pageable > $o/test_pageable-reg$r.log 2>&1; echo "test_pageable reg=$r rc=$?"; grep -v "^test_pageable: [a-z]*:" $o/test_pageable-reg$r.log; done
cd $OUT && tar czf h.tgz h && rm -rf h
