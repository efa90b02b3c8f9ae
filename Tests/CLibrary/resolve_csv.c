/*
 * Resolves a CSV of `id,lat,lon` rows through libgeonews and writes what `geonews resolve`
 * writes for them: the same header and, for every row, its three fields as given and
 * country_iso2, suggested_iso2, suggestion_reason, distance_km, time_zone and error. Reads
 * the rows in blocks of 65,536; with --threads N, each block is cut into N slices resolved at
 * once on N threads through the one handle.
 *
 *   resolve_csv DATA_DIR [--threads N] < in.csv > out.csv
 *
 * Tests/CLibrary/run.sh compares its output with `geonews resolve`'s, byte for byte.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geonews.h"

enum { BLOCK = 65536, LINE = 4096 };

struct slice {
    const geonews *handle;
    const double *lat, *lon;
    size_t count;
    geonews_result *out;
    int64_t resolved;
};

static void *resolve_slice(void *arg) {
    struct slice *s = arg;
    s->resolved = geonews_resolve(s->handle, s->lat, s->lon, s->count, s->out);
    return NULL;
}

/* distance_km as geonews writes it: three decimals, rounded half away from zero. */
static void put_km(double km, FILE *f) {
    double scaled = (km == km && km - km == 0) ? km * 1000 : 0;
    double magnitude = scaled < 0 ? -scaled : scaled;
    uint64_t m = (uint64_t)(int64_t)magnitude;
    if (magnitude - (double)m >= 0.5) m += 1;
    fprintf(f, "%s%" PRIu64 ".%03" PRIu64, scaled < 0 && m > 0 ? "-" : "", m / 1000, m % 1000);
}

static const char *or_empty(const char *s) { return s ? s : ""; }

int main(int argc, char **argv) {
    if (argc != 2 && !(argc == 4 && strcmp(argv[2], "--threads") == 0)) {
        fprintf(stderr, "usage: resolve_csv DATA_DIR [--threads N] < in.csv > out.csv\n");
        return 64;
    }
    int threads = argc == 4 ? atoi(argv[3]) : 1;
    if (threads < 1 || threads > 64) {
        fprintf(stderr, "resolve_csv: --threads %s is not 1 to 64\n", argv[3]);
        return 64;
    }
    char error[512];
    geonews *handle = geonews_open(argv[1], error, sizeof error);
    if (!handle) {
        fprintf(stderr, "resolve_csv: %s\n", error);
        return 65;
    }
    static char text[BLOCK][LINE];
    static double lat[BLOCK], lon[BLOCK];
    static geonews_result out[BLOCK];
    char line[LINE];
    if (!fgets(line, sizeof line, stdin)) return 0;
    printf("id,lat,lon,country_iso2,suggested_iso2,suggestion_reason,distance_km,time_zone,error\n");
    int done = 0;
    while (!done) {
        size_t n = 0;
        while (n < BLOCK) {
            if (!fgets(text[n], LINE, stdin)) { done = 1; break; }
            text[n][strcspn(text[n], "\r\n")] = 0;
            char *first = strchr(text[n], ','), *second = first ? strchr(first + 1, ',') : NULL;
            if (!second) { fprintf(stderr, "resolve_csv: not id,lat,lon: %s\n", text[n]); return 65; }
            lat[n] = strtod(first + 1, NULL);
            lon[n] = strtod(second + 1, NULL);
            n++;
        }
        pthread_t ids[64];
        struct slice slices[64];
        size_t per = (n + threads - 1) / threads;
        for (int t = 0; t < threads; t++) {
            size_t from = per * t < n ? per * t : n, to = per * (t + 1) < n ? per * (t + 1) : n;
            slices[t] = (struct slice){handle, lat + from, lon + from, to - from, out + from, 0};
            if (pthread_create(&ids[t], NULL, resolve_slice, &slices[t]) != 0) { perror("pthread_create"); return 70; }
        }
        int64_t resolved = 0;
        for (int t = 0; t < threads; t++) {
            pthread_join(ids[t], NULL);
            if (slices[t].resolved < 0) { fprintf(stderr, "resolve_csv: geonews_resolve refused its arguments\n"); return 70; }
            resolved += slices[t].resolved;
        }
        for (size_t i = 0; i < n; i++) {
            const geonews_result *r = &out[i];
            if (r->error != GEONEWS_OK) {
                printf("%s,,,,,,%s\n", text[i], r->error == GEONEWS_ERROR_LATITUDE ? "latitude" : "longitude");
                continue;
            }
            printf("%s,%s,%s,%s,", text[i], or_empty(geonews_country_iso2(handle, r->country)),
                   or_empty(geonews_country_iso2(handle, r->suggested)), or_empty(geonews_reason_name(r->reason)));
            put_km(r->distance_km, stdout);
            printf(",%s,\n", or_empty(geonews_zone_id(handle, r->zone)));
        }
        (void)resolved;
    }
    geonews_close(handle);
    return ferror(stdout) ? 74 : 0;
}
