/* benchmarks/blasx_info.c -- prints what a build of blasx carries
 * (blasx_build_info) and the GPUs it finds here: `make info`. */
#include <stdio.h>

#include "blasx/blasx.h"

int main(void) {
    printf("%s\n", blasx_build_info());
    printf("GPUs in use here: %d\n", blasx_gpu_count());
    return 0;
}
