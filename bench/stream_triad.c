/* A STREAM-like triad (a = b + s*c over doubles, best of 10 passes, OpenMP
 * threads on static slices, 3 words counted per element, after McCalpin's
 * STREAM), built by bench/bench.sh to compare with torchdoctor bench's own
 * triad on the same array size. Usage: stream_triad BYTES_PER_ARRAY */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    size_t n = (argc > 1 ? strtoull(argv[1], NULL, 10) : 134217728ull) / sizeof(double);
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (!a || !b || !c)
        return 1;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.5;
    }
    double best = 1e30;
    for (int r = 0; r < 10; r++) {
        double t = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + 3.0 * c[i];
        t = omp_get_wtime() - t;
        if (t < best)
            best = t;
    }
    printf("%.3f\n", 3.0 * n * sizeof(double) / best * 1e-9);
    int bad = a[n / 2] != 3.5; /* checks the stores, and keeps them */
    free(a);
    free(b);
    free(c);
    return bad;
}
