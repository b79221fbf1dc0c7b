/* The stability of bench --workload's rounds: median, quartiles, range,
 * and the drift from the first quarter of the rounds to the last (a GPU
 * that heats up and throttles gets slower as the run goes on). */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The Q-quantile of sorted X (N > 0), interpolated between neighbours. */
static double quantile(const double *x, size_t n, double q)
{
    double at = q * (double)(n - 1);
    size_t i = (size_t)at;
    double f = at - (double)i;
    return i + 1 < n ? x[i] + f * (x[i + 1] - x[i]) : x[n - 1];
}

static double median_of(const double *x, size_t n, double *scratch)
{
    memcpy(scratch, x, n * sizeof *x);
    qsort(scratch, n, sizeof *scratch, by_value);
    return quantile(scratch, n, 0.5);
}

void td_workload_stats(const double *x, size_t n, struct td_workload_stats *out)
{
    memset(out, 0, sizeof *out);
    double *s = n ? malloc(n * sizeof *s) : NULL;
    if (!s)
        return;
    memcpy(s, x, n * sizeof *x);
    qsort(s, n, sizeof *s, by_value);
    out->min = s[0];
    out->max = s[n - 1];
    out->q1 = quantile(s, n, 0.25);
    out->median = quantile(s, n, 0.5);
    out->q3 = quantile(s, n, 0.75);
    out->quarter = n / 4 ? n / 4 : 1;
    double first = median_of(x, out->quarter, s);
    double last = median_of(x + n - out->quarter, out->quarter, s);
    out->drift_pct = first > 0 ? (last - first) / first * 100.0 : 0;
    free(s);
}
