/*
 * libgeonews's speed in process: N positions uniform over the sphere (seeded, in memory),
 * resolved by one geonews_resolve call on one thread, then by two threads sharing the handle,
 * ROUNDS times each; prints the open time and each round's rate.
 *
 *   Benchmarks/clib/run.sh [N] [ROUNDS]     # builds the library and this program first
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "geonews.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

struct slice {
    const geonews *handle;
    const double *lat, *lon;
    size_t count;
    geonews_result *out;
};

static void *run(void *arg) {
    struct slice *s = arg;
    geonews_resolve(s->handle, s->lat, s->lon, s->count, s->out);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: bench DATA_DIR N ROUNDS\n");
        return 64;
    }
    size_t n = strtoull(argv[2], NULL, 10);
    int rounds = atoi(argv[3]);
    if (n < 2 || n > 100000000 || rounds < 1 || rounds > 100) {
        fprintf(stderr, "bench: N must be 2 to 100,000,000 and ROUNDS 1 to 100\n");
        return 64;
    }
    double *lat = malloc(n * sizeof *lat), *lon = malloc(n * sizeof *lon);
    geonews_result *out = malloc(n * sizeof *out);
    if (!lat || !lon || !out) return 71;
    unsigned long long s = 22;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        double u = (s >> 11) * (1.0 / 9007199254740992.0);
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        double w = (s >> 11) * (1.0 / 9007199254740992.0);
        lat[i] = asin(2 * u - 1) * 180 / M_PI;
        lon[i] = 360 * w - 180;
    }
    char error[512];
    double t0 = now();
    geonews *g = geonews_open(argv[1], error, sizeof error);
    if (!g) {
        fprintf(stderr, "bench: %s\n", error);
        return 65;
    }
    printf("open: %.1f ms\n", (now() - t0) * 1000);
    for (int r = 0; r < rounds; r++) {
        double a = now();
        int64_t done = geonews_resolve(g, lat, lon, n, out);
        double b = now();
        pthread_t ids[2];
        struct slice halves[2] = {{g, lat, lon, n / 2, out}, {g, lat + n / 2, lon + n / 2, n - n / 2, out + n / 2}};
        for (int t = 0; t < 2; t++) pthread_create(&ids[t], NULL, run, &halves[t]);
        for (int t = 0; t < 2; t++) pthread_join(ids[t], NULL);
        double c = now();
        printf("round %d: one thread %.3f s (%.2f M/s), two threads %.3f s (%.2f M/s), %lld resolved\n", r + 1, b - a,
               n / (b - a) / 1e6, c - b, n / (c - b) / 1e6, (long long)done);
    }
    geonews_close(g);
    return 0;
}
